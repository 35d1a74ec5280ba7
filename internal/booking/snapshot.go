package booking

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"members/internal/masters"
	"members/internal/validate"
)

// A snapshot is one whole booking as the airline's reservation system
// holds it, pushed by the booking feed (PUT /ops/v1/reservations/{pnr})
// or imported (members import bookings). Version is the reservation
// system's version of the booking, raised on every change: a newer one
// replaces the booking whole (segments and passengers too), an older one
// is stale (kept, not applied), the same one a duplicate
// (docs/airline-feeds.md, "Bookings feed").
//
// Times and numbers are decoded as text, so each rule names its field
// precisely instead of the decoder refusing the whole body.
type Snapshot struct {
	// PNR comes from the path of the feed, or the import line's "pnr".
	PNR          string              `json:"pnr,omitempty"`
	Version      json.Number         `json:"version"`
	MemberNumber string              `json:"memberNumber,omitempty"`
	BookingDate  string              `json:"bookingDate"`
	StatusCode   string              `json:"statusCode"`
	Currency     string              `json:"currency"`
	TotalAmount  json.Number         `json:"totalAmount"`
	ContactEmail string              `json:"contactEmail"`
	Passengers   []SnapshotPassenger `json:"passengers"`
	Segments     []SnapshotSegment   `json:"segments"`
}

// SnapshotPassenger is a traveller of a snapshot.
type SnapshotPassenger struct {
	Lastname      string `json:"lastname"`
	Firstname     string `json:"firstname"`
	PassengerType string `json:"passengerType"`
}

// SnapshotSegment is a flight of a snapshot. The times are RFC 3339 with
// the offset of their airport (departure: origin; arrival: destination).
type SnapshotSegment struct {
	Key                    string `json:"key"`
	Flight                 string `json:"flight"`
	OriginAirportCode      string `json:"originAirportCode"`
	DestinationAirportCode string `json:"destinationAirportCode"`
	DepartDateTime         string `json:"departDateTime"`
	ArrivalDateTime        string `json:"arrivalDateTime"`
	StatusCode             string `json:"statusCode"`
	OriginTerminal         string `json:"originTerminal"`
	DestinationTerminal    string `json:"destinationTerminal"`
}

// Limits of a snapshot.
const (
	MaxSnapshotSegments   = 16
	MaxSnapshotPassengers = 50
	MaxMemberNumberLength = 40
	maxSnapshotNameLength = 100
	maxSnapshotEmailLen   = 100
	maxSegmentKeyLength   = 20
)

// Passenger types of a snapshot.
var PassengerTypes = []string{"ADULT", "CHILD", "INFANT"}

// StatusCodes are the status codes of a booking and of a segment.
var StatusCodes = []string{StatusConfirmed, StatusCancelled}

// SnapshotError is the first rule a snapshot breaks: Field names it
// (segments[1].arrivalDateTime), Reason says why, for the sender.
type SnapshotError struct {
	Field  string
	Reason string
}

func (e *SnapshotError) Error() string {
	return fmt.Sprintf("booking snapshot: %s: %s", e.Field, e.Reason)
}

func refuse(field, reason string) error { return &SnapshotError{Field: field, Reason: reason} }

var (
	snapFlightRE   = regexp.MustCompile(`^[A-Z0-9]{2}([0-9]{1,4})[A-Z]?$`)
	segmentKeyRE   = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	terminalRE     = regexp.MustCompile(`^[A-Za-z0-9-]{1,8}$`)
	memberNumberRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	// rfc3339Offset is a date-time with seconds and an explicit offset
	// (Z or ±hh:mm), as RFC 3339 writes it.
	rfc3339Offset = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$`)
)

// Normalize trims the snapshot's text and upper-cases its codes.
func (s *Snapshot) Normalize() {
	s.PNR = strings.ToUpper(strings.TrimSpace(s.PNR))
	s.MemberNumber = strings.TrimSpace(s.MemberNumber)
	s.BookingDate = strings.TrimSpace(s.BookingDate)
	s.StatusCode = strings.ToUpper(strings.TrimSpace(s.StatusCode))
	s.Currency = strings.ToUpper(strings.TrimSpace(s.Currency))
	s.ContactEmail = strings.TrimSpace(s.ContactEmail)
	for i := range s.Passengers {
		p := &s.Passengers[i]
		p.Lastname, p.Firstname = strings.TrimSpace(p.Lastname), strings.TrimSpace(p.Firstname)
		p.PassengerType = strings.ToUpper(strings.TrimSpace(p.PassengerType))
	}
	for i := range s.Segments {
		g := &s.Segments[i]
		g.Key = strings.TrimSpace(g.Key)
		g.Flight = strings.ToUpper(strings.TrimSpace(g.Flight))
		g.OriginAirportCode = strings.ToUpper(strings.TrimSpace(g.OriginAirportCode))
		g.DestinationAirportCode = strings.ToUpper(strings.TrimSpace(g.DestinationAirportCode))
		g.DepartDateTime, g.ArrivalDateTime = strings.TrimSpace(g.DepartDateTime), strings.TrimSpace(g.ArrivalDateTime)
		g.StatusCode = strings.ToUpper(strings.TrimSpace(g.StatusCode))
		g.OriginTerminal, g.DestinationTerminal = strings.TrimSpace(g.OriginTerminal), strings.TrimSpace(g.DestinationTerminal)
	}
}

// ParseVersion reads a snapshot's version: a positive integer.
func ParseVersion(v string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 1 {
		return 0, refuse("version", "required: a positive integer the reservation system raises on every change")
	}
	return n, nil
}

// airportTime reads an RFC 3339 time that must carry the offset of
// airport at that instant.
func airportTime(field, v, airport string) (time.Time, error) {
	if v == "" {
		return time.Time{}, refuse(field, "required: RFC 3339 with the airport's offset, e.g. 2026-12-01T08:30:00+09:00")
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil || !rfc3339Offset.MatchString(v) {
		return time.Time{}, refuse(field, "not an RFC 3339 date-time with an offset, e.g. 2026-12-01T08:30:00+09:00")
	}
	if _, ok := masters.AirportByCode(airport); ok {
		_, want := t.In(AirportZone(airport)).Zone()
		if _, got := t.Zone(); got != want {
			return time.Time{}, refuse(field, "must carry the offset of "+airport+" ("+t.In(AirportZone(airport)).Format("-07:00")+")")
		}
	}
	return t.UTC(), nil
}

// Validate checks every rule of a snapshot and returns the booking it
// describes (no owner, no id) with its version, or the first broken rule
// as a *SnapshotError. now bounds the booking date (not in the future;
// a clock five minutes apart is allowed).
func (s Snapshot) Validate(now time.Time) (Reservation, int64, error) {
	var r Reservation
	if s.PNR == "" || len(s.PNR) > MaxPNRLength || !validate.IsAlnum(s.PNR) {
		return r, 0, refuse("pnr", "required: 1 to 20 single-byte letters and digits")
	}
	version, err := ParseVersion(s.Version.String())
	if err != nil {
		return r, 0, err
	}
	if s.MemberNumber != "" && (len(s.MemberNumber) > MaxMemberNumberLength || !memberNumberRE.MatchString(s.MemberNumber)) {
		return r, 0, refuse("memberNumber", "1 to 40 letters, digits or . _ -, or absent for a booking of no member")
	}
	if s.BookingDate == "" {
		return r, 0, refuse("bookingDate", "required: when the booking was made, RFC 3339 with an offset")
	}
	booked, err := time.Parse(time.RFC3339Nano, s.BookingDate)
	if err != nil || !rfc3339Offset.MatchString(s.BookingDate) {
		return r, 0, refuse("bookingDate", "not an RFC 3339 date-time with an offset, e.g. 2026-11-02T14:05:00+09:00")
	}
	if booked.After(now.Add(5 * time.Minute)) {
		return r, 0, refuse("bookingDate", "in the future")
	}
	if booked.Year() < 2012 {
		return r, 0, refuse("bookingDate", "before 2012")
	}
	if !slices.Contains(StatusCodes, s.StatusCode) {
		return r, 0, refuse("statusCode", "required: CONFIRMED or CANCELLED")
	}
	if !slices.Contains(currencyCodes(), s.Currency) {
		return r, 0, refuse("currency", "required: one of "+strings.Join(currencyCodes(), ", "))
	}
	amount, err := strconv.ParseInt(s.TotalAmount.String(), 10, 64)
	if err != nil || amount < 0 {
		return r, 0, refuse("totalAmount", "required: a non-negative integer in the currency's minor unit (SGD cents, other currencies whole units)")
	}
	if s.ContactEmail == "" || len(s.ContactEmail) > maxSnapshotEmailLen || !validate.IsEmail(s.ContactEmail) {
		return r, 0, refuse("contactEmail", "required: an e-mail address of at most 100 characters")
	}
	if len(s.Passengers) == 0 || len(s.Passengers) > MaxSnapshotPassengers {
		return r, 0, refuse("passengers", fmt.Sprintf("required: 1 to %d passengers", MaxSnapshotPassengers))
	}
	r = Reservation{PNR: s.PNR, BookedAt: booked.UTC(), StatusCode: s.StatusCode, Currency: s.Currency, TotalAmount: amount, ContactEmail: s.ContactEmail}
	for i, p := range s.Passengers {
		f := fmt.Sprintf("passengers[%d].", i)
		if p.Lastname == "" || len(p.Lastname) > maxSnapshotNameLength || !validate.IsLatinName(p.Lastname) {
			return r, 0, refuse(f+"lastname", "required: English (Latin) letters, at most 100")
		}
		if p.Firstname == "" || len(p.Firstname) > maxSnapshotNameLength || !validate.IsLatinName(p.Firstname) {
			return r, 0, refuse(f+"firstname", "required: English (Latin) letters, at most 100")
		}
		if !slices.Contains(PassengerTypes, p.PassengerType) {
			return r, 0, refuse(f+"passengerType", "required: ADULT, CHILD or INFANT")
		}
		r.Passengers = append(r.Passengers, Passenger{Lastname: p.Lastname, Firstname: p.Firstname, PassengerType: p.PassengerType})
	}
	if len(s.Segments) == 0 || len(s.Segments) > MaxSnapshotSegments {
		return r, 0, refuse("segments", fmt.Sprintf("required: 1 to %d segments", MaxSnapshotSegments))
	}
	keys := map[string]bool{}
	for i, g := range s.Segments {
		f := fmt.Sprintf("segments[%d].", i)
		if g.Key == "" || len(g.Key) > maxSegmentKeyLength || !segmentKeyRE.MatchString(g.Key) {
			return r, 0, refuse(f+"key", "required: 1 to 20 letters, digits, _ or -")
		}
		if keys[g.Key] {
			return r, 0, refuse(f+"key", "the key "+g.Key+" is given twice: segment keys are unique in a booking")
		}
		keys[g.Key] = true
		m := snapFlightRE.FindStringSubmatch(g.Flight)
		if m == nil {
			return r, 0, refuse(f+"flight", "required: a flight designator such as MM101")
		}
		if _, ok := masters.AirportByCode(g.OriginAirportCode); !ok {
			return r, 0, refuse(f+"originAirportCode", "required: an airport the airline serves")
		}
		if _, ok := masters.AirportByCode(g.DestinationAirportCode); !ok {
			return r, 0, refuse(f+"destinationAirportCode", "required: an airport the airline serves")
		}
		if g.DestinationAirportCode == g.OriginAirportCode {
			return r, 0, refuse(f+"destinationAirportCode", "the same airport as the origin")
		}
		dep, err := airportTime(f+"departDateTime", g.DepartDateTime, g.OriginAirportCode)
		if err != nil {
			return r, 0, err
		}
		arr, err := airportTime(f+"arrivalDateTime", g.ArrivalDateTime, g.DestinationAirportCode)
		if err != nil {
			return r, 0, err
		}
		if !arr.After(dep) {
			return r, 0, refuse(f+"arrivalDateTime", "must be after the departure")
		}
		if arr.Sub(dep) > 24*time.Hour {
			return r, 0, refuse(f+"arrivalDateTime", "more than 24 hours after the departure")
		}
		if !slices.Contains(StatusCodes, g.StatusCode) {
			return r, 0, refuse(f+"statusCode", "required: CONFIRMED or CANCELLED")
		}
		if g.OriginTerminal != "" && !terminalRE.MatchString(g.OriginTerminal) {
			return r, 0, refuse(f+"originTerminal", "1 to 8 letters, digits or -, or empty")
		}
		if g.DestinationTerminal != "" && !terminalRE.MatchString(g.DestinationTerminal) {
			return r, 0, refuse(f+"destinationTerminal", "1 to 8 letters, digits or -, or empty")
		}
		r.Segments = append(r.Segments, Segment{Key: g.Key, StatusCode: g.StatusCode, Flight: g.Flight, FlightNumber: m[1],
			OriginAirportCode: g.OriginAirportCode, OriginTerminal: g.OriginTerminal,
			DestinationAirportCode: g.DestinationAirportCode, DestinationTerminal: g.DestinationTerminal,
			DepartAt: dep, ArrivalAt: arr, FlightStatus: FlightOnTime})
	}
	// The booking's segments are kept in departure order (the search's
	// first and last departure, the pages' order).
	sort.SliceStable(r.Segments, func(i, j int) bool { return r.Segments[i].DepartAt.Before(r.Segments[j].DepartAt) })
	return r, version, nil
}

func currencyCodes() []string {
	var out []string
	for _, c := range masters.Currencies() {
		out = append(out, c.Code)
	}
	return out
}

// Feed outcomes of a snapshot or a purge.
const (
	FeedApplied   = "applied"   // the booking now is this version (or is purged)
	FeedStale     = "stale"     // older than the version held: kept, not applied
	FeedDuplicate = "duplicate" // the version held already: nothing done
)

// FeedOrder is the version-order rule: what a delivery of version
// incoming does to a booking whose reservation system's version is held
// (0: none received yet, whatever the booking came from).
func FeedOrder(held, incoming int64) string {
	switch {
	case incoming > held:
		return FeedApplied
	case incoming == held:
		return FeedDuplicate
	}
	return FeedStale
}

// PurgeOrder is the version-order rule of a purge at version incoming:
// it applies to a live booking held at that version or an older one; a
// purge already done at that version is a duplicate.
func PurgeOrder(held int64, purged bool, incoming int64) string {
	switch {
	case incoming > held, incoming == held && !purged:
		return FeedApplied
	case incoming == held:
		return FeedDuplicate
	}
	return FeedStale
}

// FeedResult is the answer to one delivery.
type FeedResult struct {
	PNR     string `json:"pnr"`
	Version int64  `json:"version"`
	Outcome string `json:"outcome"`
}

// ErrUnknownMember is a snapshot naming a member number no member has.
var ErrUnknownMember = errors.New("booking: no member has this member number")
