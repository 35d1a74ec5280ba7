package booking

import (
	"strings"
	"time"

	"members/internal/i18n"
	"members/internal/masters"
)

// ReservationView is a reservation as the API returns it: local
// dates and times, translated labels and the derived flags the pages use.
type ReservationView struct {
	PNR         string          `json:"pnr"`
	BookingDate string          `json:"bookingDate"`
	StatusCode  string          `json:"statusCode"`
	Status      string          `json:"status"`
	IsOutdated  bool            `json:"isOutdated"`
	Passengers  []PassengerView `json:"passengers"`
	Segments    []SegmentView   `json:"segments"`
}

// PassengerView is a traveller's name.
type PassengerView struct {
	Lastname      string `json:"lastname"`
	Firstname     string `json:"firstname"`
	PassengerType string `json:"passengerType"`
}

// SegmentView is a flight segment with local times (airport time zones,
// RFC 3339 with the offset). Estimated and actual times and the flight
// status are present only when flight status was asked for.
type SegmentView struct {
	Key                      string            `json:"key"`
	StatusCode               string            `json:"statusCode"`
	Status                   string            `json:"status"`
	Flight                   string            `json:"flight"`
	IsShowHotelLink          bool              `json:"isShowHotelLink"`
	OriginAirportCode        string            `json:"originAirportCode"`
	OriginAirport            string            `json:"originAirport"`
	OriginTerminal           string            `json:"originTerminal"`
	OriginGate               string            `json:"originGate"`
	DestinationAirportCode   string            `json:"destinationAirportCode"`
	DestinationAirport       string            `json:"destinationAirport"`
	DestinationTerminal      string            `json:"destinationTerminal"`
	DepartDateTime           string            `json:"departDateTime"`
	EstimatedDepartDateTime  *string           `json:"estimatedDepartDateTime,omitempty"`
	ActualDepartDateTime     *string           `json:"actualDepartDateTime,omitempty"`
	ArrivalDateTime          string            `json:"arrivalDateTime"`
	EstimatedArrivalDateTime *string           `json:"estimatedArrivalDateTime,omitempty"`
	ActualArrivalDateTime    *string           `json:"actualArrivalDateTime,omitempty"`
	FlightNumber             string            `json:"flightNumber"`
	FlightStatus             string            `json:"flightStatus,omitempty"`
	FlightStatusLabel        string            `json:"flightStatusLabel,omitempty"`
	IsCancelled              bool              `json:"isCancelled"`
	IsPast                   bool              `json:"isPast"`
	IsIrregular              bool              `json:"isIrregular"`
	Certificates             []string          `json:"certificates"`
	FlightChange             *FlightChangeView `json:"flightChange,omitempty"`
}

// FlightChangeView is what the airline's operations feed changed on the
// segment's flight: the last change's kind, the number of changes, the
// schedule before the first one (local times) and the departure gate
// before the last gate change.
type FlightChangeView struct {
	Kind                    string `json:"kind"`
	Sequence                int    `json:"sequence"`
	PreviousDepartDateTime  string `json:"previousDepartDateTime"`
	PreviousArrivalDateTime string `json:"previousArrivalDateTime"`
	DivertedToAirportCode   string `json:"divertedToAirportCode,omitempty"`
	DivertedToAirport       string `json:"divertedToAirport,omitempty"`
	PreviousGate            string `json:"previousGate,omitempty"`
}

// Certificate kinds.
const (
	CertBoarding     = "boarding"
	CertDelay        = "delay"
	CertCancellation = "cancellation"
)

// Certificates lists the certificates that apply to a segment: boarding
// for a flown one, delay for a delayed one once it has departed (before,
// the delay is only an estimate), cancellation for a cancelled segment or a
// flight that will not depart.
func (s Segment) Certificates(now time.Time) []string {
	out := []string{}
	if s.Flown(now) {
		out = append(out, CertBoarding)
	}
	if s.IsDelayed() && s.Departed(now) && s.Delay() > 0 {
		out = append(out, CertDelay)
	}
	if s.IsCancelled() || s.WillNotDepart() {
		out = append(out, CertCancellation)
	}
	return out
}

// statusKeys are the catalogue keys of the two statuses, made once: the
// booking search asks for one per booking and per segment.
var statusKeys = map[string]string{StatusConfirmed: "booking.status.confirmed", StatusCancelled: "booking.status.cancelled"}

// statusKey is the catalogue key of a booking or segment status.
func statusKey(code string) string {
	if k, ok := statusKeys[code]; ok {
		return k
	}
	return "booking.status." + strings.ToLower(code)
}

// AirportName is an airport's short name in lang, or the code when unknown.
func AirportName(code string, lang i18n.Lang) string {
	return masters.AirportShortName(code, lang)
}

// View renders r for the API in lang. zone gives the booking date's
// calendar day; withFlightStatus adds the live flight fields.
func View(r Reservation, c *i18n.Catalog, lang i18n.Lang, zone *time.Location, now time.Time, withFlightStatus bool) ReservationView {
	if zone == nil {
		zone = JST
	}
	v := ReservationView{
		PNR: r.PNR, BookingDate: r.BookedAt.In(zone).Format(DateLayout), StatusCode: r.StatusCode,
		Status:     c.T(lang, statusKey(r.StatusCode)),
		IsOutdated: r.IsOutdated(now), Passengers: make([]PassengerView, 0, len(r.Passengers)),
		Segments: make([]SegmentView, 0, len(r.Segments)),
	}
	for _, p := range r.Passengers {
		v.Passengers = append(v.Passengers, PassengerView{Lastname: p.Lastname, Firstname: p.Firstname, PassengerType: p.PassengerType})
	}
	for _, s := range r.Segments {
		v.Segments = append(v.Segments, ViewSegment(s, c, lang, now, withFlightStatus))
	}
	return v
}

// ViewSegment renders one segment.
func ViewSegment(s Segment, c *i18n.Catalog, lang i18n.Lang, now time.Time, withFlightStatus bool) SegmentView {
	status := StatusConfirmed
	if s.IsCancelled() {
		status = StatusCancelled
	}
	v := SegmentView{
		Key: s.Key, StatusCode: s.StatusCode, Status: c.T(lang, statusKey(status)),
		Flight: s.Flight, IsShowHotelLink: s.IsShowHotelLink,
		OriginAirportCode: s.OriginAirportCode, OriginAirport: AirportName(s.OriginAirportCode, lang),
		OriginTerminal: s.OriginTerminal, OriginGate: s.OriginGate,
		DestinationAirportCode: s.DestinationAirportCode, DestinationAirport: AirportName(s.DestinationAirportCode, lang),
		DestinationTerminal: s.DestinationTerminal,
		DepartDateTime:      LocalTime(s.DepartAt, s.OriginAirportCode),
		ArrivalDateTime:     LocalTime(s.ArrivalAt, s.DestinationAirportCode),
		FlightNumber:        s.FlightNumber,
		IsCancelled:         s.IsCancelled(), IsPast: s.IsPast(now),
		IsIrregular:  s.IsIrregular(),
		Certificates: s.Certificates(now),
	}
	if withFlightStatus {
		local := func(t *time.Time, airport string) *string {
			if t == nil {
				return nil
			}
			x := LocalTime(*t, airport)
			return &x
		}
		v.EstimatedDepartDateTime = local(s.EstimatedDepartAt, s.OriginAirportCode)
		v.ActualDepartDateTime = local(s.ActualDepartAt, s.OriginAirportCode)
		v.EstimatedArrivalDateTime = local(s.EstimatedArrivalAt, s.DestinationAirportCode)
		v.ActualArrivalDateTime = local(s.ActualArrivalAt, s.DestinationAirportCode)
		v.FlightStatus = s.FlightStatus
		if s.FlightStatus != "" {
			v.FlightStatusLabel = c.T(lang, "booking.flight_status."+strings.ToLower(s.FlightStatus))
		}
		if s.ChangeSeq > 0 {
			ch := &FlightChangeView{Kind: s.ChangeKind, Sequence: s.ChangeSeq,
				PreviousDepartDateTime: v.DepartDateTime, PreviousArrivalDateTime: v.ArrivalDateTime}
			if s.PreviousDepartAt != nil && s.PreviousArrivalAt != nil {
				ch.PreviousDepartDateTime = LocalTime(*s.PreviousDepartAt, s.OriginAirportCode)
				ch.PreviousArrivalDateTime = LocalTime(*s.PreviousArrivalAt, s.DestinationAirportCode)
			}
			if s.DivertedTo != "" {
				ch.DivertedToAirportCode, ch.DivertedToAirport = s.DivertedTo, AirportName(s.DivertedTo, lang)
			}
			ch.PreviousGate = s.PreviousGate
			v.FlightChange = ch
		}
	}
	return v
}
