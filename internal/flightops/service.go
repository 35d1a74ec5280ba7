package flightops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/signature"
)

// Store keeps events and flight states.
type Store interface {
	// Apply records ev once and applies it in one transaction: it finds
	// the flight's segments (ErrUnknownFlight when none: nothing is
	// recorded), creates the flight's state from them when new, calls
	// merge on the state, and writes the merged state onto the state and
	// every segment of the flight. A second call with the same ev.ID
	// returns ErrDuplicate with the first delivery's Result. When the state
	// changed, every member with a live booking on the flight (booking not
	// cancelled, segment neither cancelled nor departed) is owed a mail,
	// due at alertDue(next) unless one is pending already, and a push to
	// each device on which the member switched the alerts on (internal/push).
	Apply(ctx context.Context, ev Event, source string, merge func(State) (State, bool, error), alertDue func(State) time.Time) (Result, error)
	// Flight returns the flight's schedule from its first segment, or
	// ErrUnknownFlight.
	Flight(ctx context.Context, flight, date string) (Flight, error)
	// State returns the flight's state (ok false before any event) and its
	// recorded events, oldest first.
	State(ctx context.Context, flight, date string) (State, bool, []Recorded, error)
}

// Recorded is an event as stored.
type Recorded struct {
	Event
	Source     string
	ReceivedAt time.Time
	Outcome    string
	Bookings   int
}

// Service applies flight events.
type Service struct {
	store Store
	now   func() time.Time
}

// NewService returns the feed's service.
func NewService(st Store, now func() time.Time) *Service {
	return &Service{store: st, now: now}
}

// Apply checks and applies one event. A resend of an id already received
// answers the first delivery's result with OutcomeDuplicate.
func (s *Service) Apply(ctx context.Context, ev Event, source string) (Result, error) {
	ev.Normalize()
	if err := ev.Validate(); err != nil {
		return Result{}, err
	}
	res, err := s.store.Apply(ctx, ev, source, func(st State) (State, bool, error) {
		next, changed, err := st.Apply(ev)
		if changed {
			next.UpdatedAt = s.now()
		}
		return next, changed, err
	}, func(next State) time.Time { return AlertDue(next, s.now(), CoalesceWindow) })
	if errors.Is(err, ErrDuplicate) {
		res.Outcome = OutcomeDuplicate
		return res, nil
	}
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// OperatorEvent is an event typed by an operator: times as local HH:MM at
// the origin (departure) and destination (arrival) airports.
type OperatorEvent struct {
	Flight, Date, Kind string
	// Departure and Arrival are local clock times, HH:MM (on the flight's
	// date; an arrival before the departure is the next day) or
	// YYYY-MM-DD HH:MM (a delay past midnight); empty: none.
	Departure, Arrival string
	Gate, Terminal     string
	DivertedTo         string
}

// ApplyOperator turns an operator's event into a feed event (a new id, the
// time now) and applies it.
func (s *Service) ApplyOperator(ctx context.Context, in OperatorEvent) (Result, error) {
	ev := Event{
		ID: "op-" + randomHex(8), Flight: in.Flight, Date: in.Date, Kind: Kind(in.Kind),
		OccurredAt: s.now().UTC(), Gate: in.Gate, Terminal: in.Terminal, DivertedTo: in.DivertedTo,
	}
	ev.Normalize()
	if in.Departure != "" || in.Arrival != "" {
		if _, err := time.Parse(booking.DateLayout, ev.Date); err != nil {
			return Result{}, bad("date", "required: the local departure date, YYYY-MM-DD")
		}
		f, err := s.store.Flight(ctx, ev.Flight, ev.Date)
		if err != nil {
			return Result{}, err
		}
		if in.Departure != "" {
			dep, err := localClock(ev.Date, in.Departure, f.Origin)
			if err != nil {
				return Result{}, bad("departure", "HH:MM or YYYY-MM-DD HH:MM, local time at "+f.Origin)
			}
			ev.Departure = &dep
		}
		if in.Arrival != "" {
			from := f.DepartAt
			if ev.Departure != nil {
				from = *ev.Departure
			}
			arr, err := localClock(from.In(booking.AirportZone(f.Destination)).Format(booking.DateLayout), in.Arrival, f.Destination)
			if err != nil {
				return Result{}, bad("arrival", "HH:MM or YYYY-MM-DD HH:MM, local time at "+f.Destination)
			}
			for !hasDate(in.Arrival) && !arr.After(from) { // an arrival clock before the departure is the next day
				arr = arr.Add(24 * time.Hour)
			}
			ev.Arrival = &arr
		}
	}
	return s.Apply(ctx, ev, SourceOperator)
}

// localClock is a local time at airport as an instant: HH:MM on date, or
// a date and time of its own ("2026-12-02 00:30" or "2026-12-02T00:30").
func localClock(date, clock, airport string) (time.Time, error) {
	clock = strings.TrimSpace(clock)
	if hasDate(clock) {
		return time.ParseInLocation(booking.DateLayout+" 15:04", strings.Replace(clock, "T", " ", 1), booking.AirportZone(airport))
	}
	return time.ParseInLocation(booking.DateLayout+" 15:04", date+" "+clock, booking.AirportZone(airport))
}

// hasDate reports an operator's time written with its date.
func hasDate(clock string) bool { return len(strings.TrimSpace(clock)) > len("15:04") }

// Show returns a flight's state and events.
func (s *Service) Show(ctx context.Context, flight, date string) (State, bool, []Recorded, error) {
	flight = strings.ToUpper(strings.TrimSpace(flight))
	if _, err := s.store.Flight(ctx, flight, date); err != nil {
		return State{}, false, nil, err
	}
	return s.store.State(ctx, flight, date)
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("flightops: random: %v", err))
	}
	return hex.EncodeToString(b)
}

// SignatureHeader is the request header of the feed's signature:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">".
const SignatureHeader = "Ops-Signature"

// Tolerance is how far a signature's timestamp may be from the server's
// clock: an older request is refused as a replay.
const Tolerance = 5 * time.Minute

// Signature errors.
var (
	ErrBadSignature = errors.New("flightops: bad signature")
	ErrStale        = errors.New("flightops: signature timestamp out of tolerance")
)

// Sign returns the Ops-Signature value for body at time t.
func Sign(secret []byte, t time.Time, body []byte) string { return signature.Sign(secret, t, body) }

// Verify checks an Ops-Signature value against body: the HMAC under
// secret first (ErrBadSignature), then the timestamp within Tolerance of
// now (ErrStale).
func Verify(secret []byte, header string, body []byte, now time.Time) error {
	switch err := signature.Verify(secret, header, body, now, Tolerance); {
	case errors.Is(err, signature.ErrStale):
		return ErrStale
	case err != nil:
		return ErrBadSignature
	}
	return nil
}
