// Package flightops is the airline operations feed: flight events (delay,
// cancellation, gate or terminal change, time change, diversion, back on
// time) sent by the operations system or an operator, checked, recorded
// once by their own id and applied to the flight's state and to every
// booking segment of the flight, in the order of the events' own time.
// It imports neither SQL nor HTTP: the store is an interface wired in
// internal/app.
package flightops

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/masters"
)

// Kind is what an event tells.
type Kind string

// The kinds of event.
const (
	KindDelay        Kind = "delay"        // new estimated departure (and arrival)
	KindCancellation Kind = "cancellation" // the flight will not depart
	KindGate         Kind = "gate"         // gate or terminal change
	KindTimeChange   Kind = "time_change"  // new scheduled departure (and arrival)
	KindDiversion    Kind = "diversion"    // the flight lands elsewhere
	KindOnTime       Kind = "on_time"      // back on time: estimates withdrawn
)

// Kinds lists every kind, in the order the docs give them.
var Kinds = []Kind{KindDelay, KindCancellation, KindGate, KindTimeChange, KindDiversion, KindOnTime}

// Event is one flight event. Date is the flight's departure date, local at
// its origin airport (YYYY-MM-DD). Departure and Arrival are instants:
// the new estimated times of a delay, the new scheduled times of a time
// change. Gate and Terminal may come with any kind; DivertedTo (an airport
// code) with a diversion.
type Event struct {
	ID         string     `json:"id"`
	Flight     string     `json:"flight"`
	Date       string     `json:"date"`
	Kind       Kind       `json:"kind"`
	OccurredAt time.Time  `json:"occurredAt"`
	Departure  *time.Time `json:"departure,omitempty"`
	Arrival    *time.Time `json:"arrival,omitempty"`
	Gate       string     `json:"gate,omitempty"`
	Terminal   string     `json:"terminal,omitempty"`
	DivertedTo string     `json:"divertedTo,omitempty"`
}

// Sources of events.
const (
	SourceFeed     = "feed"
	SourceOperator = "operator"
)

// Outcomes of applying an event.
const (
	OutcomeApplied   = "applied"   // the flight's state changed
	OutcomeStale     = "stale"     // older than what the flight already knew: recorded, not applied
	OutcomeDuplicate = "duplicate" // this id was received before: nothing done
)

// Result is what applying an event did.
type Result struct {
	EventID string `json:"eventId"`
	Outcome string `json:"outcome"`
	// Bookings counts the reservations holding the flight that the event
	// reached (for a duplicate: what the first delivery reached).
	Bookings int `json:"bookings"`
}

// Errors of the feed. A FieldError is a malformed event.
var (
	ErrUnknownFlight = errors.New("flightops: unknown flight")
	ErrDuplicate     = errors.New("flightops: event already received")
)

// FieldError names the first field of an event that is missing or wrong.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return fmt.Sprintf("flightops: %s: %s", e.Field, e.Reason) }

func bad(field, reason string) error { return &FieldError{Field: field, Reason: reason} }

var (
	flightRE = regexp.MustCompile(`^[A-Z0-9]{2}[0-9]{1,4}[A-Z]?$`)
	idRE     = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,100}$`)
	gateRE   = regexp.MustCompile(`^[A-Za-z0-9-]{1,8}$`)
)

// Normalize trims and upper-cases the codes of ev.
func (ev *Event) Normalize() {
	ev.ID = strings.TrimSpace(ev.ID)
	ev.Flight = strings.ToUpper(strings.TrimSpace(ev.Flight))
	ev.Date = strings.TrimSpace(ev.Date)
	ev.Kind = Kind(strings.ToLower(strings.TrimSpace(string(ev.Kind))))
	ev.Gate = strings.TrimSpace(ev.Gate)
	ev.Terminal = strings.TrimSpace(ev.Terminal)
	ev.DivertedTo = strings.ToUpper(strings.TrimSpace(ev.DivertedTo))
}

// Validate checks an event's form (not whether its flight exists).
func (ev Event) Validate() error {
	if !idRE.MatchString(ev.ID) {
		return bad("id", "required: 1 to 100 letters, digits or . _ : -")
	}
	if !flightRE.MatchString(ev.Flight) {
		return bad("flight", "required: a flight designator such as MM123")
	}
	if _, err := time.Parse(booking.DateLayout, ev.Date); err != nil {
		return bad("date", "required: the local departure date, YYYY-MM-DD")
	}
	known := false
	for _, k := range Kinds {
		known = known || k == ev.Kind
	}
	if !known {
		return bad("kind", "one of delay, cancellation, gate, time_change, diversion, on_time")
	}
	if ev.OccurredAt.IsZero() {
		return bad("occurredAt", "required: when the change happened (RFC 3339)")
	}
	if ev.Gate != "" && !gateRE.MatchString(ev.Gate) {
		return bad("gate", "1 to 8 letters, digits or -")
	}
	if ev.Terminal != "" && !gateRE.MatchString(ev.Terminal) {
		return bad("terminal", "1 to 8 letters, digits or -")
	}
	switch ev.Kind {
	case KindDelay, KindTimeChange:
		if ev.Departure == nil {
			return bad("departure", "required for "+string(ev.Kind))
		}
		if ev.Arrival != nil && !ev.Arrival.After(*ev.Departure) {
			return bad("arrival", "must be after the departure")
		}
	case KindCancellation:
		if ev.Gate != "" || ev.Terminal != "" {
			return bad("gate", "a cancelled flight has no gate or terminal")
		}
	case KindGate:
		if ev.Gate == "" && ev.Terminal == "" {
			return bad("gate", "a gate or a terminal is required for gate")
		}
	case KindDiversion:
		if _, ok := masters.AirportByCode(ev.DivertedTo); !ok {
			return bad("divertedTo", "required for diversion: a known airport code")
		}
	}
	if ev.Kind != KindDelay && ev.Kind != KindTimeChange && (ev.Departure != nil || ev.Arrival != nil) {
		return bad("departure", "only delay and time_change carry times")
	}
	return nil
}

// Flight is the schedule of a flight as its bookings hold it: the first
// matching segment's airports and times.
type Flight struct {
	Flight, Date        string
	Origin, Destination string
	DepartAt, ArrivalAt time.Time
}

// DayWindow is the range of scheduled departures (UTC) that can fall on
// date at some airport: the store reads candidate segments by (flight,
// depart_at) in it, and OnDate keeps those of the flight's date.
func DayWindow(date string) (from, to time.Time, err error) {
	d, err := time.Parse(booking.DateLayout, date)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	return d.Add(-14 * time.Hour), d.Add(24*time.Hour + 14*time.Hour), nil
}

// OnDate reports whether a segment departing from origin at departAt is on
// the flight's local date.
func OnDate(origin string, departAt time.Time, date string) bool {
	return departAt.In(booking.AirportZone(origin)).Format(booking.DateLayout) == date
}

// State is what the feed has told about one flight.
type State struct {
	Flight, Date        string
	Origin, Destination string
	// OriginalDepartAt and OriginalArrivalAt are the schedule before the
	// first change; DepartAt and ArrivalAt the schedule now.
	OriginalDepartAt, OriginalArrivalAt time.Time
	DepartAt, ArrivalAt                 time.Time
	EstimatedDepartAt                   *time.Time
	EstimatedArrivalAt                  *time.Time
	FlightStatus                        string
	Gate, Terminal                      string
	DivertedTo                          string
	LastKind                            Kind
	// TimesAt, GateAt and RouteAt are the event times of the last change
	// of each group of fields.
	TimesAt, GateAt, RouteAt time.Time
	Sequence                 int
	UpdatedAt                time.Time
}

// NewState is a flight's state before any event: its schedule as booked.
func NewState(f Flight, now time.Time) State {
	return State{
		Flight: f.Flight, Date: f.Date, Origin: f.Origin, Destination: f.Destination,
		OriginalDepartAt: f.DepartAt, OriginalArrivalAt: f.ArrivalAt, DepartAt: f.DepartAt, ArrivalAt: f.ArrivalAt,
		FlightStatus: booking.FlightOnTime, UpdatedAt: now,
	}
}

// IsCancelled reports a cancelled flight.
func (s State) IsCancelled() bool { return s.FlightStatus == booking.FlightCancelled }

// Apply merges ev into s. Each group of fields (times and status; gate and
// terminal; route) takes the event only when the event is newer than the
// group's last change, so a late older event never overwrites newer
// state. It reports whether anything changed; s.Sequence counts changes.
func (s State) Apply(ev Event) (State, bool, error) {
	at := ev.OccurredAt
	if err := s.refuses(ev); err != nil {
		return s, false, err
	}
	if s.IsCancelled() && cancelledIgnores(ev) {
		return s, false, nil // older than the cancellation: history, not applied
	}
	next := s
	changed := false
	if ev.Kind != KindGate && ev.Kind != KindDiversion && at.After(s.TimesAt) {
		switch ev.Kind {
		case KindDelay:
			dep := *ev.Departure
			arr := s.ArrivalAt.Add(dep.Sub(s.DepartAt))
			if ev.Arrival != nil {
				arr = *ev.Arrival
			}
			next.EstimatedDepartAt, next.EstimatedArrivalAt = &dep, &arr
			next.FlightStatus = booking.FlightNotYetDepartedWithDelay
		case KindTimeChange:
			dep := *ev.Departure
			if dep.In(booking.AirportZone(s.Origin)).Format(booking.DateLayout) != s.Date {
				return s, false, bad("departure", "a time change stays on the flight's date; another day is a new flight")
			}
			arr := s.ArrivalAt.Add(dep.Sub(s.DepartAt))
			if ev.Arrival != nil {
				arr = *ev.Arrival
			}
			next.DepartAt, next.ArrivalAt = dep, arr
			next.EstimatedDepartAt, next.EstimatedArrivalAt = nil, nil
			next.FlightStatus = booking.FlightOnTime
		case KindOnTime:
			next.EstimatedDepartAt, next.EstimatedArrivalAt = nil, nil
			next.FlightStatus = booking.FlightOnTime
		case KindCancellation:
			next.FlightStatus = booking.FlightCancelled
		}
		next.TimesAt = at
		changed = true
	}
	if (ev.Gate != "" || ev.Terminal != "") && at.After(s.GateAt) {
		if ev.Gate != "" {
			next.Gate = ev.Gate
		}
		if ev.Terminal != "" {
			next.Terminal = ev.Terminal
		}
		next.GateAt = at
		changed = true
	}
	if ev.Kind == KindDiversion && at.After(s.RouteAt) {
		next.DivertedTo = ev.DivertedTo
		next.RouteAt = at
		changed = true
	}
	if !changed {
		return s, false, nil
	}
	next.LastKind = ev.Kind
	next.Sequence++
	return next, true, nil
}

// refuses is the reason an event cannot be, whatever the order of
// arrival: a delay departing at or before the schedule (it would move the
// flight earlier), and, on a flight whose cancellation is in force, a
// delay, a gate or terminal or a diversion newer than the cancellation (a
// time change or back on time reinstates the flight and may come).
func (s State) refuses(ev Event) error {
	if ev.Kind == KindDelay && ev.Departure != nil && !ev.Departure.After(s.DepartAt) {
		return bad("departure", "a delay departs after the scheduled "+
			s.DepartAt.In(booking.AirportZone(s.Origin)).Format("2006-01-02 15:04 -07:00")+"; an earlier departure is a time change")
	}
	if s.IsCancelled() && cancelledIgnores(ev) && ev.OccurredAt.After(s.TimesAt) {
		return bad("kind", "the flight is cancelled: a "+string(ev.Kind)+" cannot apply to it (a time_change or on_time reinstates it first)")
	}
	return nil
}

// cancelledIgnores reports an event that means nothing for a cancelled
// flight: a delay, a diversion, or a gate or terminal without a new
// schedule.
func cancelledIgnores(ev Event) bool {
	switch ev.Kind {
	case KindDelay, KindDiversion, KindGate:
		return true
	}
	return false
}

// SegmentUpdate is what the flight's state writes onto each booking
// segment of the flight.
func (s State) SegmentUpdate() SegmentUpdate {
	return SegmentUpdate{
		DepartAt: s.DepartAt, ArrivalAt: s.ArrivalAt,
		EstimatedDepartAt: s.EstimatedDepartAt, EstimatedArrivalAt: s.EstimatedArrivalAt,
		FlightStatus: s.FlightStatus, Gate: s.Gate, Terminal: s.Terminal,
		Sequence: s.Sequence, Kind: string(s.LastKind), DivertedTo: s.DivertedTo,
	}
}

// PreviousGate is the gate a booking segment shows struck through once
// the flight's state writes next onto it: the gate the segment showed
// (shown) when next moves it to another gate, else the one it already
// remembered. A first gate (none shown before) is no change, and neither
// is an event that leaves the gate as it is (a delay, a terminal alone, a
// resend of the same gate): the remembered one stays. So after 12 → 31 →
// 35 the card shows 35 with 31 struck through, the gate the member was
// last told.
func PreviousGate(shown, remembered, next string) string {
	if next == "" || next == shown || shown == "" {
		return remembered
	}
	return shown
}

// SegmentUpdate are the segment fields the feed owns. An empty Gate or
// Terminal leaves the booking's own value.
type SegmentUpdate struct {
	DepartAt, ArrivalAt                   time.Time
	EstimatedDepartAt, EstimatedArrivalAt *time.Time
	FlightStatus                          string
	Gate, Terminal                        string
	// Sequence and Kind are the flight's change count and last kind;
	// DivertedTo the airport of a diversion.
	Sequence   int
	Kind       string
	DivertedTo string
}
