// Package booking is the members' flight bookings: reservations and their
// flight segments, the booking search and its rules, adding
// a booking by PNR, the travel documents (itinerary, receipt, certificates),
// the itinerary mail, hotel and rental-car offers and the hand-over to the
// booking site. It imports neither SQL nor HTTP: the store, the document
// renderer and the mailer are interfaces wired in internal/app.
package booking

import (
	"fmt"
	"strings"
	"time"
)

// Reservation statuses (statusCode).
const (
	StatusConfirmed = "CONFIRMED"
	StatusCancelled = "CANCELLED"
)

// Flight statuses (flightStatus). Delayed: NOT_YET_DEPARTED_WITH_DELAY and
// DEPARTED_WITH_DELAY; will not depart: CANCELLED and SUSPENDED.
const (
	FlightOnTime                  = "ON_TIME"
	FlightNotYetDepartedWithDelay = "NOT_YET_DEPARTED_WITH_DELAY"
	FlightDepartedWithDelay       = "DEPARTED_WITH_DELAY"
	FlightDeparted                = "DEPARTED"
	FlightArrived                 = "ARRIVED"
	FlightCancelled               = "CANCELLED"
	FlightSuspended               = "SUSPENDED"
)

// OutdatedAfter is how long after its first departure a booking counts as
// outdated: no actions are offered on it any more.
const OutdatedAfter = 180 * 24 * time.Hour

// Reservation is a booking owned by a member (MemberID empty: not yet added
// to any account). Instants are UTC; views convert them to local times.
type Reservation struct {
	ID         string
	MemberID   string
	PNR        string
	BookedAt   time.Time
	StatusCode string
	// Currency and TotalAmount (minor units) are what the receipt shows.
	Currency    string
	TotalAmount int64
	// ContactEmail receives the itinerary mail when the member has none.
	ContactEmail string
	Passengers   []Passenger
	Segments     []Segment // in departure order
}

// Passenger is a traveller on a reservation. Lastname is the proof asked
// when a member adds the booking to the account.
type Passenger struct {
	Lastname      string
	Firstname     string
	PassengerType string // ADULT, CHILD, INFANT
}

// Segment is one flight of a reservation.
type Segment struct {
	Key                    string
	StatusCode             string
	Flight                 string // marketing designator, e.g. "MM101"
	FlightNumber           string // the number alone, e.g. "101"
	IsShowHotelLink        bool
	OriginAirportCode      string
	OriginTerminal         string
	OriginGate             string
	DestinationAirportCode string
	DestinationTerminal    string
	DepartAt               time.Time
	EstimatedDepartAt      *time.Time
	ActualDepartAt         *time.Time
	ArrivalAt              time.Time
	EstimatedArrivalAt     *time.Time
	ActualArrivalAt        *time.Time
	FlightStatus           string
	// ChangeSeq counts the changes the airline's operations feed made to
	// the flight (0: none); ChangeKind is the last one's kind (delay,
	// cancellation, gate, time_change, diversion, on_time).
	// PreviousDepartAt and PreviousArrivalAt are the schedule before the
	// first change; DivertedTo the airport of a diversion; PreviousGate
	// the departure gate the segment showed before the feed's last gate
	// change (flightops.PreviousGate; empty: none).
	ChangeSeq         int
	ChangeKind        string
	PreviousDepartAt  *time.Time
	PreviousArrivalAt *time.Time
	DivertedTo        string
	PreviousGate      string
}

// IsCancelled reports whether the segment is cancelled: statusCode equals
// CANCELLED, case-insensitively.
func (s Segment) IsCancelled() bool { return strings.EqualFold(s.StatusCode, StatusCancelled) }

// IsPast reports whether the segment's scheduled departure is before now.
func (s Segment) IsPast(now time.Time) bool { return s.DepartAt.Before(now) }

// IsDelayed reports a delayed flight.
func (s Segment) IsDelayed() bool {
	return s.FlightStatus == FlightNotYetDepartedWithDelay || s.FlightStatus == FlightDepartedWithDelay
}

// WillNotDepart reports a flight that is cancelled or suspended.
func (s Segment) WillNotDepart() bool {
	return s.FlightStatus == FlightCancelled || s.FlightStatus == FlightSuspended
}

// IsIrregular is what the page shows in red: delayed or not departing.
func (s Segment) IsIrregular() bool { return s.IsDelayed() || s.WillNotDepart() }

// StatusKey is the catalogue key of the segment's status word, one rule
// for the page and the itinerary PDF: cancelled, the flight's own status
// when it is irregular (delayed, cancelled, suspended…), and otherwise
// "Confirmed" — a flight running to schedule is not called "On time" in
// one place and "Confirmed" in the other.
func (s Segment) StatusKey() string {
	switch {
	case s.IsCancelled():
		return "booking.status.cancelled"
	case s.IsIrregular() && s.FlightStatus != "":
		return "booking.flight_status." + strings.ToLower(s.FlightStatus)
	}
	return "booking.status.confirmed"
}

// Flown reports whether the member flew the segment: not cancelled, the
// flight not cancelled or suspended, and departed (Departed: a delayed
// flight still on the ground is not flown).
func (s Segment) Flown(now time.Time) bool {
	if s.IsCancelled() || s.WillNotDepart() {
		return false
	}
	return s.Departed(now)
}

// Departed reports whether the flight has left: its status says so, or
// its actual, estimated or (without either) scheduled departure is past.
func (s Segment) Departed(now time.Time) bool {
	switch s.FlightStatus {
	case FlightDepartedWithDelay, FlightDeparted, FlightArrived:
		return true
	}
	dep := s.DepartAt
	switch {
	case s.ActualDepartAt != nil:
		dep = *s.ActualDepartAt
	case s.EstimatedDepartAt != nil:
		dep = *s.EstimatedDepartAt
	}
	return !dep.After(now)
}

// ShownTimes are the times a member is shown for the segment: while a
// delayed flight has not left, its estimated departure and arrival (the
// arrival moved by as much as the departure when the estimate has none),
// with late true; otherwise the schedule.
func (s Segment) ShownTimes() (dep, arr time.Time, late bool) {
	if s.ActualDepartAt != nil || s.EstimatedDepartAt == nil || s.IsCancelled() || s.WillNotDepart() || !s.EstimatedDepartAt.After(s.DepartAt) {
		return s.DepartAt, s.ArrivalAt, false
	}
	dep = *s.EstimatedDepartAt
	arr = s.ArrivalAt.Add(dep.Sub(s.DepartAt))
	if s.EstimatedArrivalAt != nil {
		arr = *s.EstimatedArrivalAt
	}
	return dep, arr, true
}

// DayShift is how many calendar days t, local at airport, falls after the
// flight's scheduled departure date local at its origin: 1 for an arrival
// past midnight ("+1").
func (s Segment) DayShift(t time.Time, airport string) int {
	return dayShift(t, airport, s.DepartAt, s.OriginAirportCode)
}

// dayShift is how many calendar days t, local at airport, falls after
// ref's local date at refAirport.
func dayShift(t time.Time, airport string, ref time.Time, refAirport string) int {
	day := func(t time.Time, airport string) time.Time {
		y, m, d := t.In(AirportZone(airport)).Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return int(day(t, airport).Sub(day(ref, refAirport)).Hours() / 24)
}

// Clock is t's local time at airport, "15:04", with "+1" (the days) when it
// falls after the flight's scheduled date: the schedule's own times (a
// delay's struck-through schedule).
func (s Segment) Clock(t time.Time, airport string) string {
	return clock(t, airport, s.DayShift(t, airport))
}

// ShownDate is the flight's date as the member is shown it: the local date
// at the origin of the departure ShownTimes gives. A delay past midnight
// is on its new date, never the old date with "+1".
func (s Segment) ShownDate() time.Time {
	dep, _, _ := s.ShownTimes()
	return dep.In(AirportZone(s.OriginAirportCode))
}

// ShownClock is t's local time at airport with "+1" (the days) when it
// falls after ShownDate: the shown times (ShownTimes) beside the shown
// date, so a departure delayed past midnight has none and its arrival
// counts from the new date.
func (s Segment) ShownClock(t time.Time, airport string) string {
	return clock(t, airport, dayShift(t, airport, s.ShownDate(), s.OriginAirportCode))
}

func clock(t time.Time, airport string, days int) string {
	c := t.In(AirportZone(airport)).Format("15:04")
	if days > 0 {
		c += fmt.Sprintf(" +%d", days)
	}
	return c
}

// ShowsGate reports whether the member is shown the departure gate: not
// for a cancelled segment or a flight that will not depart (a cancelled
// flight departs from no gate).
func (s Segment) ShowsGate() bool { return !s.IsCancelled() && !s.WillNotDepart() }

// StruckGate is the gate shown struck through beside the departure gate:
// the one before the airline's last gate change, while the gate is shown
// and differs from it; "" otherwise.
func (s Segment) StruckGate() string {
	if !s.ShowsGate() || s.OriginGate == "" || s.PreviousGate == s.OriginGate {
		return ""
	}
	return s.PreviousGate
}

// Delay is how late the flight left (or is expected to leave): the actual,
// else the estimated departure against the schedule; zero when neither is
// later.
func (s Segment) Delay() time.Duration {
	dep := s.ActualDepartAt
	if dep == nil {
		dep = s.EstimatedDepartAt
	}
	if dep == nil || !dep.After(s.DepartAt) {
		return 0
	}
	return dep.Sub(s.DepartAt)
}

// FirstDepartAt is the scheduled departure of the first segment (zero
// without segments).
func (r Reservation) FirstDepartAt() time.Time {
	if len(r.Segments) == 0 {
		return time.Time{}
	}
	return r.Segments[0].DepartAt
}

// LastDepartAt is the scheduled departure of the last segment.
func (r Reservation) LastDepartAt() time.Time {
	if len(r.Segments) == 0 {
		return time.Time{}
	}
	return r.Segments[len(r.Segments)-1].DepartAt
}

// IsOutdated reports whether the first segment departed more than 180 days
// before now: such bookings are listed without actions.
func (r Reservation) IsOutdated(now time.Time) bool {
	first := r.FirstDepartAt()
	return !first.IsZero() && now.Sub(first) > OutdatedAfter
}

// Segment returns the segment with key.
func (r Reservation) Segment(key string) (Segment, bool) {
	for _, s := range r.Segments {
		if s.Key == key {
			return s, true
		}
	}
	return Segment{}, false
}

// HasLastname reports whether a passenger has lastname (case- and
// space-insensitive): the proof of a booking added by PNR.
func (r Reservation) HasLastname(lastname string) bool {
	want := normName(lastname)
	if want == "" {
		return false
	}
	for _, p := range r.Passengers {
		if normName(p.Lastname) == want {
			return true
		}
	}
	return false
}

func normName(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), " "))
}
