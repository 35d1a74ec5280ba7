package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"members/internal/booking"
	"members/internal/flightops"
)

// The bookings import's batches: a batch of snapshots applied in a few
// multi-row statements per table instead of about ten statements a
// snapshot, with the same outcome as applyOne for each snapshot one after
// another.
//
//  1. The batch's feed rows are made (version 0 where none) and locked,
//     and its bookings read with their segments and passengers (and locked
//     on PostgreSQL), one statement each.
//  2. Each snapshot's outcome follows from the version held (stale,
//     duplicate, applied). A snapshot that would move a flight's schedule
//     (a flight event, plan.Retime), one of a booking number sent twice in
//     the batch, and one that shares a flight and day with either, go one
//     at a time after the others (applyOne, each under a savepoint, in the
//     lines' order): those are the snapshots whose writes could meet each
//     other's. The others touch none of the same bookings or flights, so
//     writing them first, together, gives what one at a time would.
//  3. The others are written together: for each booking only the parts
//     that changed (its row, its segments, its passengers; a snapshot
//     equal to the booking held moves the version only), in one statement
//     per table and kind, with the booking triggers off (migration 00280)
//     and their work done once for the batch: the views of the bookings
//     written rebuilt, the bookings version of each member concerned
//     bumped once. Should one of those statements fail (another writer's
//     booking number met meanwhile), the transaction is rolled back and
//     run again with every snapshot one at a time (errFastPart), so each
//     refusal is its own.
//
// A new booking's id starts with the time (NewSortableID): the tables'
// and indexes' keys that begin with the booking's id then grow at their
// end, not at random places, so a batch dirties few of their pages.

// batchItem is one snapshot of the fast part: its booking as it will be
// stored and what of it changed.
type batchItem struct {
	i        int // index in the batch
	r        booking.Reservation
	old      booking.Reservation
	exists   bool
	row      bool // the booking's own row changed (or is new)
	segments bool // its segments changed
	pax      bool // its passengers changed
}

// errFastPart is a failure of the batch's joint writes: its transaction
// runs again with every snapshot one at a time.
type errFastPart struct{ err error }

func (e errFastPart) Error() string { return "the batch's joint writes: " + e.err.Error() }
func (e errFastPart) Unwrap() error { return e.err }

// applyBatch applies the snapshots live (indexes in batch, none refused
// before) into out; oneByOne writes every one of them one at a time.
func (s *ReservationFeedStore) applyBatch(ctx context.Context, tx *sql.Tx, batch []flightops.Incoming, live []int, plan flightops.Plan,
	out []flightops.ItemResult, oneByOne bool) error {
	now := s.db.NowMillis()
	count := map[string]int{}
	versions := map[string]int64{} // of a booking number sent once
	var pnrs []string
	for _, i := range live {
		p := batch[i].Reservation.PNR
		if count[p] == 0 {
			pnrs = append(pnrs, p)
		}
		count[p]++
		versions[p] = batch[i].Version
	}
	slices.Sort(pnrs) // one lock order for every writer
	feedRows := make([][]any, len(pnrs))
	for k, p := range pnrs {
		feedRows[k] = []any{p, 0, false, now}
	}
	if err := bulkExec(ctx, tx, s.db.Engine, `INSERT INTO reservation_feed (pnr, version, purged, applied_at) VALUES `,
		` ON CONFLICT (pnr) DO NOTHING`, nil, 4, feedRows); err != nil {
		return fmt.Errorf("reservation feed: %w", err)
	}
	lock := ""
	if s.db.Engine == Postgres {
		lock = ` ORDER BY pnr FOR UPDATE`
	}
	held := make(map[string]int64, len(pnrs))
	if err := queryIn(ctx, tx, s.db.Engine, `SELECT pnr, version FROM reservation_feed WHERE pnr IN `, lock, nil, pnrs,
		func(rows *sql.Rows) error {
			var p string
			var v int64
			if err := rows.Scan(&p, &v); err != nil {
				return err
			}
			held[p] = v
			return nil
		}); err != nil {
		return fmt.Errorf("reservation feed: %w", err)
	}
	// the bookings the snapshots may replace: none for a stale or
	// duplicate one (a run again after an interruption reads no booking)
	var replace []string
	if !oneByOne {
		for _, p := range pnrs {
			if count[p] > 1 || booking.FeedOrder(held[p], versions[p]) == booking.FeedApplied {
				replace = append(replace, p)
			}
		}
	}
	olds, err := s.loadBookings(ctx, tx, replace)
	if err != nil {
		return err
	}

	// the snapshots to write one at a time, and the flights and days they touch
	slow := map[int]bool{}
	var fast []int
	for _, i := range live {
		in := batch[i]
		if oneByOne || count[in.Reservation.PNR] > 1 {
			slow[i] = true
			continue
		}
		switch booking.FeedOrder(held[in.Reservation.PNR], in.Version) {
		case booking.FeedStale, booking.FeedDuplicate:
			fast = append(fast, i)
			continue
		}
		if old, ok := olds[in.Reservation.PNR]; ok && retimes(in, old, plan) {
			slow[i] = true
			continue
		}
		fast = append(fast, i)
	}
	if len(slow) > 0 {
		flights := map[string]bool{}
		touch := func(i int, mark bool) bool {
			r := batch[i].Reservation
			hit := false
			for _, list := range [][]booking.Segment{r.Segments, olds[r.PNR].Segments} {
				for _, g := range list {
					k := flightDay(g)
					hit = hit || flights[k]
					if mark {
						flights[k] = true
					}
				}
			}
			return hit
		}
		for i := range slow {
			touch(i, true)
		}
		for grew := true; grew; {
			grew = false
			rest := fast[:0:0]
			for _, i := range fast {
				if touch(i, false) {
					slow[i], grew = true, true
					touch(i, true)
					continue
				}
				rest = append(rest, i)
			}
			fast = rest
		}
	}

	if err := s.writeFast(ctx, tx, batch, fast, held, olds, out, now); err != nil {
		// a deadlock: the whole transaction again (TxRetry); anything else
		// (a clash with another writer): again with the snapshots one at
		// a time, where each refusal is its own
		if retryable(err) || ctx.Err() != nil {
			return err
		}
		return errFastPart{err}
	}
	for _, i := range live {
		if !slow[i] {
			continue
		}
		var outcome string
		err := savepoint(ctx, tx, "snapshot", func() error {
			var err error
			outcome, err = s.applyOne(ctx, tx, batch[i], plan)
			return err
		})
		if err != nil {
			if !flightops.IsFeedRefusal(err) {
				return err
			}
			out[i].Err = err
			continue
		}
		out[i].Outcome = outcome
	}
	return nil
}

// retimes reports whether the snapshot moves the schedule of one of its
// booking's segments on the same flight and day (a flight event).
func retimes(in flightops.Incoming, old booking.Reservation, plan flightops.Plan) bool {
	for _, next := range in.Reservation.Segments {
		prev, ok := old.Segment(next.Key)
		if !ok || prev.IsCancelled() {
			continue
		}
		if _, ok := plan.Retime(in.Reservation.PNR, in.Version, prev, next); ok {
			return true
		}
	}
	return false
}

// flightDay is a segment's flight and local day of departure, the key of
// the flight events (flightops.OnDate).
func flightDay(g booking.Segment) string {
	return g.Flight + " " + g.DepartAt.In(booking.AirportZone(g.OriginAirportCode)).Format(booking.DateLayout)
}

// loadBookings reads the bookings of pnrs with their segments and
// passengers, by booking number. On PostgreSQL the segments are locked as
// they are read (in the order of the reservation and position, the order
// in which a flight event of the operations feed writes a flight's
// segments, and as a flight event does: the segment before its booking),
// so what is carried over from them is what every writer that committed
// before left, and no flight event changes them until the batch's end.
func (s *ReservationFeedStore) loadBookings(ctx context.Context, tx *sql.Tx, pnrs []string) (map[string]booking.Reservation, error) {
	out := map[string]booking.Reservation{}
	bs := &BookingStore{db: s.db}
	for start := 0; start < len(pnrs); {
		n := chunkRows(min(len(pnrs)-start, maxInList), 1)
		args := make([]any, n)
		for k, p := range pnrs[start : start+n] {
			args[k] = p
		}
		start += n
		list, err := bs.queryWith(ctx, reader{db: s.db, tx: tx, lockSegments: true}, `SELECT `+reservationCols+` FROM reservations r WHERE r.pnr IN `+
			inList(s.db.Engine, 0, n), args...)
		if err != nil {
			return nil, err
		}
		for _, r := range list {
			out[r.PNR] = r
		}
	}
	return out, nil
}

// writeFast writes the snapshots fast (indexes in batch) and sets their
// results.
func (s *ReservationFeedStore) writeFast(ctx context.Context, tx *sql.Tx, batch []flightops.Incoming, fast []int, held map[string]int64,
	olds map[string]booking.Reservation, out []flightops.ItemResult, now int64) error {
	if len(fast) == 0 {
		return nil
	}
	var items []batchItem
	var stale [][]any
	for _, i := range fast {
		in := batch[i]
		outcome := booking.FeedOrder(held[in.Reservation.PNR], in.Version)
		out[i].Outcome = outcome
		switch outcome {
		case booking.FeedStale:
			stale = append(stale, []any{in.Reservation.PNR, in.Version, now})
			continue
		case booking.FeedDuplicate:
			continue
		}
		items = append(items, planWrite(i, in, olds))
	}
	if err := s.writeItems(ctx, tx, batch, items, now); err != nil {
		return err
	}
	if err := bulkExec(ctx, tx, s.db.Engine, `WITH v (pnr, version, at) AS (VALUES `,
		`) UPDATE reservation_feed SET last_stale_version = v.version, last_stale_at = v.at, stale_count = stale_count + 1
		FROM v WHERE reservation_feed.pnr = v.pnr`, []string{"text", "bigint", "bigint"}, 3, stale); err != nil {
		return fmt.Errorf("record stale snapshots: %w", err)
	}
	return nil
}

// planWrite is the booking a snapshot leaves (its owner, the operations
// feed's news of unchanged segments carried over: applyOne's rules) and
// what of it changed against the booking held.
func planWrite(i int, in flightops.Incoming, olds map[string]booking.Reservation) batchItem {
	r := in.Reservation
	old, exists := olds[r.PNR]
	owner := old.MemberID // a booking a member added keeps its owner unless the snapshot names one
	if r.MemberID != "" {
		owner = r.MemberID
	}
	r.MemberID = owner
	segs := make([]booking.Segment, len(r.Segments))
	for p, g := range r.Segments {
		segs[p] = carryOver(old, g)
	}
	r.Segments = segs
	it := batchItem{i: i, r: r, old: old, exists: exists, row: true, segments: true, pax: true}
	if exists {
		it.r.ID = old.ID
		it.row = !slices.Equal(reservationRow(it.r), reservationRow(old))
		it.segments = !slices.EqualFunc(r.Segments, old.Segments, func(a, b booking.Segment) bool {
			return slices.Equal(segmentRow("", 0, a), segmentRow("", 0, b))
		})
		it.pax = !slices.Equal(r.Passengers, old.Passengers)
	} else {
		it.r.ID = NewSortableID()
	}
	return it
}

// reservationRow is a booking's row in reservations (without created_at).
func reservationRow(r booking.Reservation) []any {
	var member any
	if r.MemberID != "" {
		member = r.MemberID
	}
	return []any{r.ID, r.PNR, member, r.BookedAt.UnixMilli(), r.StatusCode, r.Currency, r.TotalAmount, r.ContactEmail,
		r.FirstDepartAt().UnixMilli(), r.LastDepartAt().UnixMilli()}
}

// segmentRow is a segment's row in reservation_segments.
func segmentRow(id string, p int, g booking.Segment) []any {
	return []any{id, g.Key, p, g.StatusCode, g.Flight, g.FlightNumber, g.IsShowHotelLink, g.OriginAirportCode, g.OriginTerminal, g.OriginGate,
		g.DestinationAirportCode, g.DestinationTerminal, g.DepartAt.UnixMilli(), optMillis(g.EstimatedDepartAt), optMillis(g.ActualDepartAt),
		g.ArrivalAt.UnixMilli(), optMillis(g.EstimatedArrivalAt), optMillis(g.ActualArrivalAt), g.FlightStatus,
		g.ChangeSeq, g.ChangeKind, optMillis(g.PreviousDepartAt), optMillis(g.PreviousArrivalAt), g.DivertedTo}
}

const segmentInsertCols = `reservation_id, seg_key, position, status_code, flight, flight_number,
	is_show_hotel_link, origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
	depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status,
	change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to`

// writeItems writes the changed parts of items, with the booking triggers
// off and their work done once (rebuildViews, bumpVersions), and moves
// their versions.
func (s *ReservationFeedStore) writeItems(ctx context.Context, tx *sql.Tx, batch []flightops.Incoming, items []batchItem, now int64) error {
	var updates, inserts, segs, pax, feed [][]any
	var held, dropSegs, dropPax, views, fresh []string
	owners := map[string]bool{}
	for _, it := range items {
		in := batch[it.i]
		r := it.r
		feed = append(feed, []any{r.PNR, in.Version, in.MemberNumber, now})
		if !it.row && !it.segments && !it.pax {
			continue // the booking as held: the version moves, nothing else
		}
		for _, m := range []string{it.old.MemberID, r.MemberID} {
			if m != "" {
				owners[m] = true
			}
		}
		if !it.exists {
			inserts = append(inserts, append(reservationRow(r), now))
			fresh = append(fresh, r.ID)
		} else {
			held = append(held, r.ID)
			if it.row {
				updates = append(updates, reservationRow(r))
			}
			if it.segments || it.pax {
				views = append(views, r.ID)
			}
		}
		if it.segments {
			if it.exists {
				dropSegs = append(dropSegs, r.ID)
			}
			for p, g := range r.Segments {
				segs = append(segs, segmentRow(r.ID, p, g))
			}
		}
		if it.pax {
			if it.exists {
				dropPax = append(dropPax, r.ID)
			}
			for p, x := range r.Passengers {
				pax = append(pax, []any{r.ID, p, x.Lastname, x.Firstname, x.PassengerType})
			}
		}
	}
	e := s.db.Engine
	members := make([]string, 0, len(owners))
	for m := range owners {
		members = append(members, m)
	}
	slices.Sort(members)
	slices.Sort(held)
	err := withBookingTriggersOff(ctx, tx, e, func() error {
		if e == Postgres {
			// the bookings replaced, locked in the triggers' order
			if err := execIn(ctx, tx, e, held, func(list string) []string {
				return []string{`SELECT 1 FROM reservations WHERE id IN ` + list + ` ORDER BY id FOR UPDATE`}
			}); err != nil {
				return fmt.Errorf("lock reservations: %w", err)
			}
		}
		if err := bulkExec(ctx, tx, e, `WITH v (id, pnr, member_id, booked_at, status_code, currency, total_amount, contact_email,
			first_depart_at, last_depart_at) AS (VALUES `, `) UPDATE reservations SET member_id = v.member_id, booked_at = v.booked_at,
			status_code = v.status_code, currency = v.currency, total_amount = v.total_amount, contact_email = v.contact_email,
			first_depart_at = v.first_depart_at, last_depart_at = v.last_depart_at FROM v WHERE reservations.id = v.id`,
			[]string{"text", "text", "text", "bigint", "text", "text", "bigint", "text", "bigint", "bigint"}, 10, updates); err != nil {
			return fmt.Errorf("replace reservations: %w", Translate(err))
		}
		for _, d := range []struct {
			table string
			ids   []string
		}{{"reservation_segments", dropSegs}, {"reservation_passengers", dropPax}} {
			if err := execIn(ctx, tx, e, d.ids, func(list string) []string {
				return []string{`DELETE FROM ` + d.table + ` WHERE reservation_id IN ` + list}
			}); err != nil {
				return fmt.Errorf("replace reservations: %w", err)
			}
		}
		if err := s.insertBookings(ctx, tx, inserts, segs, pax); err != nil {
			return err
		}
		if e == SQLite {
			views = append(views, fresh...)
		}
		if err := rebuildViews(ctx, tx, e, views); err != nil {
			return fmt.Errorf("search views: %w", err)
		}
		if err := bumpVersions(ctx, tx, e, members); err != nil {
			return fmt.Errorf("bookings versions: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := bulkExec(ctx, tx, e, `WITH v (pnr, version, member_number, at) AS (VALUES `, `) UPDATE reservation_feed SET version = v.version,
		purged = FALSE, member_number = v.member_number, applied_at = v.at FROM v WHERE reservation_feed.pnr = v.pnr`,
		[]string{"text", "bigint", "text", "bigint"}, 4, feed); err != nil {
		return fmt.Errorf("reservation feed: %w", err)
	}
	return nil
}

// insertBookings writes the new bookings (rows, with created_at), and the
// segments and passengers of the new and replaced ones, the views of the
// new ones made on PostgreSQL: there the segments and passengers go first
// and each booking is written once with its views (the references to it
// checked once it is there), which halved the time of a batch's new
// bookings; on SQLite, where that cost more than it saved, the bookings
// go first and their views are rebuilt after (rebuildViews).
func (s *ReservationFeedStore) insertBookings(ctx context.Context, tx *sql.Tx, bookings, segs, pax [][]any) error {
	e := s.db.Engine
	head, tail, casts := `INSERT INTO reservations (id, pnr, member_id, booked_at, status_code, currency, total_amount,
		contact_email, first_depart_at, last_depart_at, created_at) VALUES `, "", []string(nil)
	if e == Postgres {
		segView, paxView := viewsSQL(e, "v.id")
		head = `WITH v (id, pnr, member_id, booked_at, status_code, currency, total_amount, contact_email,
			first_depart_at, last_depart_at, created_at) AS (VALUES `
		tail = `) INSERT INTO reservations (id, pnr, member_id, booked_at, status_code, currency, total_amount, contact_email,
			first_depart_at, last_depart_at, created_at, segments_view, passengers_view)
			SELECT v.id, v.pnr, v.member_id, v.booked_at, v.status_code, v.currency, v.total_amount, v.contact_email, v.first_depart_at,
			v.last_depart_at, v.created_at, ` + segView + `, ` + paxView + ` FROM v`
		casts = []string{"text", "text", "text", "bigint", "text", "text", "bigint", "text", "bigint", "bigint", "bigint"}
	}
	rows := func() error {
		if err := bulkExec(ctx, tx, e, head, tail, casts, 11, bookings); err != nil {
			return fmt.Errorf("insert reservations: %w", Translate(err))
		}
		return nil
	}
	if e == SQLite {
		if err := rows(); err != nil {
			return err
		}
	} else if err := deferBookingReferences(ctx, tx, true); err != nil {
		return err
	}
	if err := bulkExec(ctx, tx, e, `INSERT INTO reservation_segments (`+segmentInsertCols+`) VALUES `, "", nil, 24, segs); err != nil {
		return fmt.Errorf("insert segments: %w", Translate(err))
	}
	if err := bulkExec(ctx, tx, e, `INSERT INTO reservation_passengers (reservation_id, position, lastname, firstname, passenger_type) VALUES `,
		"", nil, 5, pax); err != nil {
		return fmt.Errorf("insert passengers: %w", Translate(err))
	}
	if e == SQLite {
		return nil
	}
	if err := rows(); err != nil {
		return err
	}
	return deferBookingReferences(ctx, tx, false)
}
