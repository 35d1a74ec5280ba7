package flightops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"members/internal/booking"
)

// SourceReservations marks the flight events a booking snapshot made: a
// snapshot that moves a flight's schedule goes through the same path as
// a time change from the operations feed (the mail, the calendar's
// SEQUENCE, the bookings' version).
const SourceReservations = "reservations"

// Incoming is one checked snapshot of a batch: the booking it describes,
// the reservation system's version, the owner's member number (empty:
// none) and the line of an import (0 for the feed).
type Incoming struct {
	Line         int
	Reservation  booking.Reservation
	Version      int64
	MemberNumber string
}

// ItemResult is what one snapshot of a batch did: a FeedResult, or Err
// (booking.ErrUnknownMember, a *FieldError of the flight change) with
// nothing of that snapshot written.
type ItemResult struct {
	booking.FeedResult
	Line int
	Err  error
}

// Plan are the domain's rules the store applies inside its transaction.
type Plan struct {
	// Retime returns the flight event of a segment whose flight and local
	// date stay but whose schedule the snapshot moved (ok false otherwise).
	Retime func(pnr string, version int64, old, next booking.Segment) (Event, bool)
	// Merge and AlertDue are the flight feed's own (Service.Apply).
	Merge    func(ev Event) func(State) (State, bool, error)
	AlertDue func(State) time.Time
}

// ReservationStore keeps the reservation system's bookings.
type ReservationStore interface {
	// ApplySnapshots applies a batch in one transaction, one result per
	// item in order: each item under a savepoint, so a failing item is
	// written not at all and the others still are. The version order is
	// booking.FeedOrder against the version held for the PNR. dryRun
	// rolls the whole transaction back (the results say what would be).
	ApplySnapshots(ctx context.Context, batch []Incoming, plan Plan, dryRun bool) ([]ItemResult, error)
	// Purge deletes the booking at version (booking.PurgeOrder) and keeps
	// the version, so an older snapshot stays stale.
	Purge(ctx context.Context, pnr string, version int64) (booking.FeedResult, error)
}

// Owners finds members by the booking site's member number.
type Owners interface {
	// MembersByNumbers returns the member id of each number a member has
	// (a number none has is absent).
	MembersByNumbers(ctx context.Context, numbers []string) (map[string]string, error)
}

// ReservationFeed applies the reservation system's booking snapshots.
type ReservationFeed struct {
	store  ReservationStore
	owners Owners
	now    func() time.Time
}

// NewReservationFeed returns the bookings feed's service.
func NewReservationFeed(st ReservationStore, owners Owners, now func() time.Time) *ReservationFeed {
	return &ReservationFeed{store: st, owners: owners, now: now}
}

// resolve sets each item's owner from its member number, before the
// batch's transaction, in one lookup for the batch; a number no member
// has leaves the owner empty, and the store refuses that item
// (booking.ErrUnknownMember).
func (f *ReservationFeed) resolve(ctx context.Context, batch []Incoming) error {
	seen := map[string]bool{}
	var numbers []string
	for _, in := range batch {
		if n := in.MemberNumber; n != "" && !seen[n] {
			seen[n] = true
			numbers = append(numbers, n)
		}
	}
	if len(numbers) == 0 {
		return nil
	}
	ids, err := f.owners.MembersByNumbers(ctx, numbers)
	if err != nil {
		return fmt.Errorf("members by number: %w", err)
	}
	for i := range batch {
		if n := batch[i].MemberNumber; n != "" {
			batch[i].Reservation.MemberID = ids[n]
		}
	}
	return nil
}

// Check normalises and validates one snapshot (a *booking.SnapshotError).
func (f *ReservationFeed) Check(s booking.Snapshot) (Incoming, error) {
	s.Normalize()
	r, v, err := s.Validate(f.now())
	if err != nil {
		return Incoming{}, err
	}
	return Incoming{Reservation: r, Version: v, MemberNumber: s.MemberNumber}, nil
}

// Put applies one snapshot: the feed's PUT.
func (f *ReservationFeed) Put(ctx context.Context, s booking.Snapshot) (booking.FeedResult, error) {
	in, err := f.Check(s)
	if err != nil {
		return booking.FeedResult{}, err
	}
	batch := []Incoming{in}
	if err := f.resolve(ctx, batch); err != nil {
		return booking.FeedResult{}, err
	}
	res, err := f.store.ApplySnapshots(ctx, batch, f.plan(), false)
	if err != nil {
		return booking.FeedResult{}, err
	}
	if res[0].Err != nil {
		return booking.FeedResult{}, res[0].Err
	}
	return res[0].FeedResult, nil
}

// ApplyBatch applies checked snapshots in one transaction, one result
// per item (the import's batch).
func (f *ReservationFeed) ApplyBatch(ctx context.Context, batch []Incoming, dryRun bool) ([]ItemResult, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	if err := f.resolve(ctx, batch); err != nil {
		return nil, err
	}
	return f.store.ApplySnapshots(ctx, batch, f.plan(), dryRun)
}

// Purge deletes a booking at version.
func (f *ReservationFeed) Purge(ctx context.Context, pnr string, version int64) (booking.FeedResult, error) {
	s := booking.Snapshot{PNR: pnr}
	s.Normalize()
	if s.PNR == "" || len(s.PNR) > booking.MaxPNRLength {
		return booking.FeedResult{}, &booking.SnapshotError{Field: "pnr", Reason: "required: 1 to 20 single-byte letters and digits"}
	}
	if version < 1 {
		return booking.FeedResult{}, &booking.SnapshotError{Field: "version", Reason: "required: a positive integer"}
	}
	return f.store.Purge(ctx, s.PNR, version)
}

func (f *ReservationFeed) plan() Plan {
	return Plan{
		Retime: func(pnr string, version int64, old, next booking.Segment) (Event, bool) {
			return RetimeEvent(pnr, version, old, next, f.now())
		},
		Merge: func(ev Event) func(State) (State, bool, error) {
			return func(st State) (State, bool, error) {
				n, changed, err := st.Apply(ev)
				if changed {
					n.UpdatedAt = f.now()
				}
				return n, changed, err
			}
		},
		AlertDue: func(next State) time.Time { return AlertDue(next, f.now(), CoalesceWindow) },
	}
}

// RetimeEvent is the time change a snapshot makes to a segment's flight:
// the same segment key, flight and local date, another departure or
// arrival. A move to another flight or day is not a change of this
// flight (the booking is replaced, its calendar event revised).
func RetimeEvent(pnr string, version int64, old, next booking.Segment, now time.Time) (Event, bool) {
	if old.Key != next.Key || old.Flight != next.Flight || old.OriginAirportCode != next.OriginAirportCode {
		return Event{}, false
	}
	date := old.DepartAt.In(booking.AirportZone(old.OriginAirportCode)).Format(booking.DateLayout)
	if next.DepartAt.In(booking.AirportZone(next.OriginAirportCode)).Format(booking.DateLayout) != date {
		return Event{}, false
	}
	if old.DepartAt.Equal(next.DepartAt) && old.ArrivalAt.Equal(next.ArrivalAt) {
		return Event{}, false
	}
	dep, arr := next.DepartAt, next.ArrivalAt
	return Event{ID: fmt.Sprintf("rsv:%s:%d:%s", pnr, version, next.Key), Flight: next.Flight, Date: date, Kind: KindTimeChange,
		OccurredAt: now.UTC(), Departure: &dep, Arrival: &arr}, true
}

// IsFeedRefusal reports an error of a snapshot that is the sender's (a
// 400), not the server's.
func IsFeedRefusal(err error) bool {
	var se *booking.SnapshotError
	var fe *FieldError
	return errors.As(err, &se) || errors.As(err, &fe) || errors.Is(err, booking.ErrUnknownMember)
}
