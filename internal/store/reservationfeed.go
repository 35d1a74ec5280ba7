package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"members/internal/booking"
	"members/internal/flightops"
)

// ReservationFeedStore implements flightops.ReservationStore: the
// reservation system's booking snapshots (migration 00270).
type ReservationFeedStore struct{ db *DB }

// NewReservationFeedStore returns the bookings feed's store.
func NewReservationFeedStore(db *DB) *ReservationFeedStore { return &ReservationFeedStore{db: db} }

var _ flightops.ReservationStore = (*ReservationFeedStore)(nil)

// errDryRun rolls a dry run's transaction back.
var errDryRun = errors.New("store: dry run")

// ApplySnapshots applies a batch in one transaction (applyBatch, in
// reservationfeed_batch.go): a batch of the import and the feed's one
// snapshot alike.
func (s *ReservationFeedStore) ApplySnapshots(ctx context.Context, batch []flightops.Incoming, plan flightops.Plan, dryRun bool) ([]flightops.ItemResult, error) {
	var out []flightops.ItemResult
	oneByOne := false
	apply := func(tx *sql.Tx) error {
		out = make([]flightops.ItemResult, len(batch))
		var live []int
		for i, in := range batch {
			out[i] = flightops.ItemResult{Line: in.Line, FeedResult: booking.FeedResult{PNR: in.Reservation.PNR, Version: in.Version}}
			if in.MemberNumber != "" && in.Reservation.MemberID == "" {
				out[i].Err = booking.ErrUnknownMember
				continue
			}
			live = append(live, i)
		}
		if len(live) > 0 {
			if err := s.applyBatch(ctx, tx, batch, live, plan, out, oneByOne); err != nil {
				return err
			}
		}
		if dryRun {
			return errDryRun
		}
		return nil
	}
	err := s.db.TxRetry(ctx, apply)
	var fe errFastPart
	if errors.As(err, &fe) {
		oneByOne = true
		err = s.db.TxRetry(ctx, apply)
	}
	if err != nil && !errors.Is(err, errDryRun) {
		return nil, fmt.Errorf("apply booking snapshots: %w", err)
	}
	return out, nil
}

// heldVersion makes sure pnr has a feed row and locks it: the guard of
// parallel deliveries (a second one, on any instance, waits here for the
// first one's transaction and then reads its version).
func (s *ReservationFeedStore) heldVersion(ctx context.Context, tx *sql.Tx, pnr string) (int64, bool, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO reservation_feed (pnr, version, purged, applied_at) VALUES ($1, 0, FALSE, $2)
		ON CONFLICT (pnr) DO NOTHING`, pnr, s.db.NowMillis()); err != nil {
		return 0, false, fmt.Errorf("reservation feed: %w", err)
	}
	lock := ""
	if s.db.Engine == Postgres {
		lock = ` FOR UPDATE`
	}
	var v int64
	var purged bool
	if err := tx.QueryRowContext(ctx, `SELECT version, purged FROM reservation_feed WHERE pnr = $1`+lock, pnr).Scan(&v, &purged); err != nil {
		return 0, false, fmt.Errorf("reservation feed: %w", err)
	}
	return v, purged, nil
}

func (s *ReservationFeedStore) recordStale(ctx context.Context, tx *sql.Tx, pnr string, version int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE reservation_feed SET last_stale_version = $2, last_stale_at = $3, stale_count = stale_count + 1
		WHERE pnr = $1`, pnr, version, s.db.NowMillis()); err != nil {
		return fmt.Errorf("record stale snapshot: %w", err)
	}
	return nil
}

func (s *ReservationFeedStore) applyOne(ctx context.Context, tx *sql.Tx, in flightops.Incoming, plan flightops.Plan) (string, error) {
	r := in.Reservation
	held, _, err := s.heldVersion(ctx, tx, r.PNR)
	if err != nil {
		return "", err
	}
	outcome := booking.FeedOrder(held, in.Version)
	switch outcome {
	case booking.FeedStale:
		return outcome, s.recordStale(ctx, tx, r.PNR, in.Version)
	case booking.FeedDuplicate:
		return outcome, nil
	}
	bs := &BookingStore{db: s.db}
	load := func() (booking.Reservation, bool, error) {
		list, err := bs.queryWith(ctx, reader{db: s.db, tx: tx}, `SELECT `+reservationCols+` FROM reservations r WHERE r.pnr = $1`, r.PNR)
		if err != nil || len(list) == 0 {
			return booking.Reservation{}, false, err
		}
		return list[0], true, nil
	}
	old, exists, err := load()
	if err != nil {
		return "", err
	}
	if exists {
		// A schedule the snapshot moved on the same flight and day is a
		// time change of that flight, through the operations feed's path.
		moved := false
		for _, next := range r.Segments {
			prev, ok := old.Segment(next.Key)
			if !ok || prev.IsCancelled() {
				continue
			}
			ev, ok := plan.Retime(r.PNR, in.Version, prev, next)
			if !ok {
				continue
			}
			payload, err := json.Marshal(ev)
			if err != nil {
				return "", fmt.Errorf("flight event: encode: %w", err)
			}
			if _, err := applyFlightEvent(ctx, s.db, tx, ev, string(payload), flightops.SourceReservations, plan.Merge(ev), plan.AlertDue); err != nil {
				return "", err
			}
			moved = true
		}
		if moved {
			if old, _, err = load(); err != nil {
				return "", err
			}
		}
	}
	owner := old.MemberID // a booking a member added keeps its owner unless the snapshot names one
	if r.MemberID != "" {
		owner = r.MemberID
	}
	var member any
	if owner != "" {
		member = owner
	}
	now := s.db.NowMillis()
	if exists {
		r.ID = old.ID
		if _, err := tx.ExecContext(ctx, `UPDATE reservations SET member_id = $2, booked_at = $3, status_code = $4, currency = $5,
			total_amount = $6, contact_email = $7, first_depart_at = $8, last_depart_at = $9 WHERE id = $1`,
			r.ID, member, r.BookedAt.UnixMilli(), r.StatusCode, r.Currency, r.TotalAmount, r.ContactEmail,
			r.FirstDepartAt().UnixMilli(), r.LastDepartAt().UnixMilli()); err != nil {
			return "", fmt.Errorf("replace reservation: %w", err)
		}
		for _, q := range []string{`DELETE FROM reservation_segments WHERE reservation_id = $1`, `DELETE FROM reservation_passengers WHERE reservation_id = $1`} {
			if _, err := tx.ExecContext(ctx, q, r.ID); err != nil {
				return "", fmt.Errorf("replace reservation: %w", err)
			}
		}
	} else {
		r.ID = NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO reservations (id, pnr, member_id, booked_at, status_code, currency, total_amount,
			contact_email, first_depart_at, last_depart_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			r.ID, r.PNR, member, r.BookedAt.UnixMilli(), r.StatusCode, r.Currency, r.TotalAmount, r.ContactEmail,
			r.FirstDepartAt().UnixMilli(), r.LastDepartAt().UnixMilli(), now); err != nil {
			return "", fmt.Errorf("insert reservation: %w", Translate(err))
		}
	}
	for p, g := range r.Segments {
		g = carryOver(old, g)
		if _, err := tx.ExecContext(ctx, `INSERT INTO reservation_segments (reservation_id, seg_key, position, status_code, flight, flight_number,
			is_show_hotel_link, origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
			depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status,
			change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to, previous_gate)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)`,
			r.ID, g.Key, p, g.StatusCode, g.Flight, g.FlightNumber, g.IsShowHotelLink, g.OriginAirportCode, g.OriginTerminal, g.OriginGate,
			g.DestinationAirportCode, g.DestinationTerminal, g.DepartAt.UnixMilli(), optMillis(g.EstimatedDepartAt), optMillis(g.ActualDepartAt),
			g.ArrivalAt.UnixMilli(), optMillis(g.EstimatedArrivalAt), optMillis(g.ActualArrivalAt), g.FlightStatus,
			g.ChangeSeq, g.ChangeKind, optMillis(g.PreviousDepartAt), optMillis(g.PreviousArrivalAt), g.DivertedTo, g.PreviousGate); err != nil {
			return "", fmt.Errorf("insert segment: %w", err)
		}
	}
	for p, x := range r.Passengers {
		if _, err := tx.ExecContext(ctx, `INSERT INTO reservation_passengers (reservation_id, position, lastname, firstname, passenger_type)
			VALUES ($1, $2, $3, $4, $5)`, r.ID, p, x.Lastname, x.Firstname, x.PassengerType); err != nil {
			return "", fmt.Errorf("insert passenger: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE reservation_feed SET version = $2, purged = FALSE, member_number = $3, applied_at = $4 WHERE pnr = $1`,
		r.PNR, in.Version, in.MemberNumber, now); err != nil {
		return "", fmt.Errorf("reservation feed: %w", err)
	}
	return outcome, nil
}

// carryOver keeps on a replaced segment what the operations feed told
// about its flight (estimates, actual times, status, gate, the change
// count), when the snapshot keeps the segment on the same flight and
// schedule; a segment the snapshot moved to another flight or day is a
// new revision of the booking's calendar event (SEQUENCE + 1), with the
// schedule before the first change kept.
func carryOver(old booking.Reservation, g booking.Segment) booking.Segment {
	prev, ok := old.Segment(g.Key)
	if !ok {
		return g
	}
	if prev.Flight == g.Flight && prev.DepartAt.Equal(g.DepartAt) && prev.ArrivalAt.Equal(g.ArrivalAt) {
		g.EstimatedDepartAt, g.EstimatedArrivalAt = prev.EstimatedDepartAt, prev.EstimatedArrivalAt
		g.ActualDepartAt, g.ActualArrivalAt = prev.ActualDepartAt, prev.ActualArrivalAt
		g.FlightStatus, g.OriginGate, g.PreviousGate, g.IsShowHotelLink = prev.FlightStatus, prev.OriginGate, prev.PreviousGate, prev.IsShowHotelLink
		g.ChangeSeq, g.ChangeKind, g.DivertedTo = prev.ChangeSeq, prev.ChangeKind, prev.DivertedTo
		g.PreviousDepartAt, g.PreviousArrivalAt = prev.PreviousDepartAt, prev.PreviousArrivalAt
		return g
	}
	g.ChangeSeq, g.ChangeKind = prev.ChangeSeq+1, string(flightops.KindTimeChange)
	g.PreviousDepartAt, g.PreviousArrivalAt = prev.PreviousDepartAt, prev.PreviousArrivalAt
	if g.PreviousDepartAt == nil {
		d, a := prev.DepartAt, prev.ArrivalAt
		g.PreviousDepartAt, g.PreviousArrivalAt = &d, &a
	}
	return g
}

func (s *ReservationFeedStore) Purge(ctx context.Context, pnr string, version int64) (booking.FeedResult, error) {
	res := booking.FeedResult{PNR: pnr, Version: version}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		held, purged, err := s.heldVersion(ctx, tx, pnr)
		if err != nil {
			return err
		}
		res.Outcome = booking.PurgeOrder(held, purged, version)
		switch res.Outcome {
		case booking.FeedStale:
			return s.recordStale(ctx, tx, pnr, version)
		case booking.FeedDuplicate:
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM reservations WHERE pnr = $1`, pnr); err != nil {
			return fmt.Errorf("purge reservation: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE reservation_feed SET version = $2, purged = TRUE, applied_at = $3 WHERE pnr = $1`,
			pnr, version, s.db.NowMillis()); err != nil {
			return fmt.Errorf("reservation feed: %w", err)
		}
		return nil
	})
	if err != nil {
		return booking.FeedResult{}, fmt.Errorf("purge booking %s: %w", pnr, err)
	}
	return res, nil
}

// MemberNumbers finds members by the booking site's member number
// (the members table's member_number, added by the members provisioning
// feed's migration).
type MemberNumbers struct{ db *DB }

// NewMemberNumbers returns the lookup.
func NewMemberNumbers(db *DB) *MemberNumbers { return &MemberNumbers{db: db} }

// MembersByNumbers returns the id of the member of each number, by
// number (flightops.Owners).
func (m *MemberNumbers) MembersByNumbers(ctx context.Context, numbers []string) (map[string]string, error) {
	out := make(map[string]string, len(numbers))
	err := queryIn(ctx, m.db.DB, m.db.Engine, `SELECT member_number, id FROM members WHERE member_number IN `, "", nil, numbers,
		func(rows *sql.Rows) error {
			var n, id string
			if err := rows.Scan(&n, &id); err != nil {
				return err
			}
			out[n] = id
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("members by number: %w", err)
	}
	return out, nil
}
