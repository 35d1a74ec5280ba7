package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/flightops"
)

// FlightOpsStore implements flightops.Store.
type FlightOpsStore struct{ db *DB }

// NewFlightOpsStore returns the operations feed's store.
func NewFlightOpsStore(db *DB) *FlightOpsStore { return &FlightOpsStore{db: db} }

var (
	_ flightops.Store      = (*FlightOpsStore)(nil)
	_ flightops.AlertStore = (*FlightOpsStore)(nil)
)

// flightSegment is a booking segment of a flight.
type flightSegment struct {
	reservationID, key, origin, destination string
	departAt, arrivalAt                     time.Time
	memberID                                string // empty: the booking is on nobody's account
	// gate and previousGate are what the segment shows now: its gate and
	// the one struck through beside it (flightops.PreviousGate)
	gate, previousGate string
	// live: neither the booking nor the segment is cancelled
	live bool
	// the booking's number, and the segment's terminal before the event
	// (the pushes name it and the gate when the feed does not)
	pnr, originTerminal string
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// flightSegmentsSQL selects a flight's segments in a window of departure
// times ($1 flight, $2 and $3 the window in Unix milliseconds); it must go
// through the (flight, depart_at) index, never a scan of the table.
const flightSegmentsSQL = `SELECT s.reservation_id, s.seg_key, s.origin_airport_code, s.destination_airport_code, s.depart_at, s.arrival_at,
	COALESCE(r.member_id, ''), r.status_code, s.status_code, s.origin_gate, s.previous_gate, r.pnr, s.origin_terminal
	FROM reservation_segments s JOIN reservations r ON r.id = s.reservation_id
	WHERE s.flight = $1 AND s.depart_at >= $2 AND s.depart_at < $3
	ORDER BY s.depart_at, s.reservation_id, s.seg_key`

// flightSegments reads the segments of flight on its local date through
// the (flight, depart_at) index: the day's window at any airport, then
// the local date at the segment's origin.
func flightSegments(ctx context.Context, q queryer, flight, date string) ([]flightSegment, error) {
	from, to, err := flightops.DayWindow(date)
	if err != nil {
		return nil, fmt.Errorf("flight segments: %w", err)
	}
	rows, err := q.QueryContext(ctx, flightSegmentsSQL, flight, from.UnixMilli(), to.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("flight segments: %w", err)
	}
	defer rows.Close()
	var out []flightSegment
	for rows.Next() {
		var s flightSegment
		var dep, arr int64
		var resStatus, segStatus string
		if err := rows.Scan(&s.reservationID, &s.key, &s.origin, &s.destination, &dep, &arr, &s.memberID, &resStatus, &segStatus,
			&s.gate, &s.previousGate, &s.pnr, &s.originTerminal); err != nil {
			return nil, fmt.Errorf("scan flight segment: %w", err)
		}
		s.departAt, s.arrivalAt = time.UnixMilli(dep).UTC(), time.UnixMilli(arr).UTC()
		s.live = !strings.EqualFold(resStatus, booking.StatusCancelled) && !strings.EqualFold(segStatus, booking.StatusCancelled)
		if flightops.OnDate(s.origin, s.departAt, date) {
			out = append(out, s)
		}
	}
	return out, rows.Err()
}

func (s *FlightOpsStore) Flight(ctx context.Context, flight, date string) (flightops.Flight, error) {
	segs, err := flightSegments(ctx, s.db, flight, date)
	if err != nil {
		return flightops.Flight{}, err
	}
	if len(segs) == 0 {
		return flightops.Flight{}, flightops.ErrUnknownFlight
	}
	g := segs[0]
	return flightops.Flight{Flight: flight, Date: date, Origin: g.origin, Destination: g.destination, DepartAt: g.departAt, ArrivalAt: g.arrivalAt}, nil
}

const flightStateCols = `flight, flight_date, origin_airport_code, destination_airport_code, original_depart_at, original_arrival_at,
	depart_at, arrival_at, estimated_depart_at, estimated_arrival_at, flight_status, gate, terminal, diverted_to, last_kind,
	times_at, gate_at, route_at, sequence, updated_at`

func scanFlightState(row interface{ Scan(...any) error }) (flightops.State, error) {
	var st flightops.State
	var od, oa, d, a, timesAt, gateAt, routeAt, upd int64
	var ed, ea sql.NullInt64
	var kind string
	err := row.Scan(&st.Flight, &st.Date, &st.Origin, &st.Destination, &od, &oa, &d, &a, &ed, &ea, &st.FlightStatus,
		&st.Gate, &st.Terminal, &st.DivertedTo, &kind, &timesAt, &gateAt, &routeAt, &st.Sequence, &upd)
	if err != nil {
		return flightops.State{}, err
	}
	ms := func(v int64) time.Time {
		if v == 0 {
			return time.Time{}
		}
		return time.UnixMilli(v).UTC()
	}
	st.OriginalDepartAt, st.OriginalArrivalAt, st.DepartAt, st.ArrivalAt = ms(od), ms(oa), ms(d), ms(a)
	st.EstimatedDepartAt, st.EstimatedArrivalAt = optTime(ed), optTime(ea)
	st.LastKind = flightops.Kind(kind)
	st.TimesAt, st.GateAt, st.RouteAt, st.UpdatedAt = ms(timesAt), ms(gateAt), ms(routeAt), ms(upd)
	return st, nil
}

func millisOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func (s *FlightOpsStore) Apply(ctx context.Context, ev flightops.Event, source string, merge func(flightops.State) (flightops.State, bool, error),
	alertDue func(flightops.State) time.Time) (flightops.Result, error) {
	payload, err := json.Marshal(ev)
	if err != nil {
		return flightops.Result{}, fmt.Errorf("flight event: encode: %w", err)
	}
	var res flightops.Result
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = applyFlightEvent(ctx, s.db, tx, ev, string(payload), source, merge, alertDue)
		return err
	})
	if errors.Is(err, ErrConflict) {
		res = flightops.Result{EventID: ev.ID}
		var outcome string
		qerr := s.db.QueryRowContext(ctx, `SELECT outcome, bookings FROM flight_events WHERE id = $1`, ev.ID).Scan(&outcome, &res.Bookings)
		if qerr != nil {
			return flightops.Result{}, fmt.Errorf("flight event %s: %w", ev.ID, qerr)
		}
		return res, flightops.ErrDuplicate
	}
	if err != nil {
		return flightops.Result{}, err
	}
	return res, nil
}

// flightSegmentsUpdateSQL gives n segments ($12 on: reservation id and
// key of each) a flight's new state ($1 to $10) and the gate they showed
// before ($11). The keys are a list
// selected from VALUES: SQLite looks each up by the segments' key then,
// where a bare "(a, b) IN (VALUES …)" made it scan the table
// (TestFlightSegmentsUpdateUsesKey).
func flightSegmentsUpdateSQL(engine Engine, n int) string {
	var keys strings.Builder
	for i := range n {
		if i > 0 {
			keys.WriteByte(',')
		}
		if engine == SQLite {
			keys.WriteString("(?,?)")
		} else {
			fmt.Fprintf(&keys, "($%d,$%d)", 12+2*i, 13+2*i)
		}
	}
	return `UPDATE reservation_segments SET depart_at = $1, arrival_at = $2, estimated_depart_at = $3,
		estimated_arrival_at = $4, flight_status = $5,
		origin_gate = CASE WHEN $6 = '' THEN origin_gate ELSE $6 END,
		origin_terminal = CASE WHEN $7 = '' THEN origin_terminal ELSE $7 END,
		change_seq = $8, change_kind = $9, diverted_to = $10, previous_gate = $11,
		previous_depart_at = COALESCE(previous_depart_at, depart_at),
		previous_arrival_at = COALESCE(previous_arrival_at, arrival_at)
		WHERE (reservation_id, seg_key) IN (SELECT column1, column2 FROM (VALUES ` + keys.String() + `) AS k)`
}

// updateFlightSegments writes the flight's state onto each of its
// segments (by primary key), with the gate each showed before a new one
// (flightops.PreviousGate), and moves the reservations' departure
// columns of the search when the schedule moved.
func updateFlightSegments(ctx context.Context, tx *sql.Tx, engine Engine, segs []flightSegment, cur, next flightops.State) error {
	u := next.SegmentUpdate()
	// Every segment of the flight takes the same values but the gate it
	// showed before (flightops.PreviousGate): one statement for a chunk of
	// the segments that share it (a flight's hundreds of bookings were a
	// statement each, and on PostgreSQL each statement rebuilt its
	// booking's views and bumped its member in a trigger of its own).
	var previous []string
	byPrevious := map[string][]flightSegment{}
	for _, g := range segs {
		p := flightops.PreviousGate(g.gate, g.previousGate, u.Gate)
		if _, ok := byPrevious[p]; !ok {
			previous = append(previous, p)
		}
		byPrevious[p] = append(byPrevious[p], g)
	}
	for _, prev := range previous {
		group := byPrevious[prev]
		set := []any{u.DepartAt.UnixMilli(), u.ArrivalAt.UnixMilli(), optMillis(u.EstimatedDepartAt), optMillis(u.EstimatedArrivalAt),
			u.FlightStatus, u.Gate, u.Terminal, u.Sequence, u.Kind, u.DivertedTo, prev}
		for start := 0; start < len(group); {
			n := chunkRows(min(len(group)-start, maxInList), 2)
			args := append(make([]any, 0, len(set)+2*n), set...)
			for _, g := range group[start : start+n] {
				args = append(args, g.reservationID, g.key)
			}
			start += n
			if _, err := tx.ExecContext(ctx, flightSegmentsUpdateSQL(engine, n), args...); err != nil {
				return fmt.Errorf("update flight segments: %w", err)
			}
		}
	}
	if cur.DepartAt.Equal(next.DepartAt) {
		return nil
	}
	done := map[string]bool{}
	var ids []string
	for _, g := range segs {
		if !done[g.reservationID] {
			done[g.reservationID] = true
			ids = append(ids, g.reservationID)
		}
	}
	if err := execIn(ctx, tx, engine, ids, func(list string) []string {
		return []string{`UPDATE reservations SET
			first_depart_at = (SELECT MIN(depart_at) FROM reservation_segments WHERE reservation_id = reservations.id),
			last_depart_at = (SELECT MAX(depart_at) FROM reservation_segments WHERE reservation_id = reservations.id) WHERE id IN ` + list}
	}); err != nil {
		return fmt.Errorf("update reservation departures: %w", err)
	}
	return nil
}

func (s *FlightOpsStore) State(ctx context.Context, flight, date string) (flightops.State, bool, []flightops.Recorded, error) {
	st, err := scanFlightState(s.db.QueryRowContext(ctx, `SELECT `+flightStateCols+` FROM flight_states WHERE flight = $1 AND flight_date = $2`, flight, date))
	found := true
	if errors.Is(err, sql.ErrNoRows) {
		found, err = false, nil
	}
	if err != nil {
		return flightops.State{}, false, nil, fmt.Errorf("flight state: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT payload, source, received_at, outcome, bookings FROM flight_events
		WHERE flight = $1 AND flight_date = $2 ORDER BY occurred_at, received_at, id`, flight, date)
	if err != nil {
		return flightops.State{}, false, nil, fmt.Errorf("flight events: %w", err)
	}
	defer rows.Close()
	var out []flightops.Recorded
	for rows.Next() {
		var r flightops.Recorded
		var payload string
		var recv int64
		if err := rows.Scan(&payload, &r.Source, &recv, &r.Outcome, &r.Bookings); err != nil {
			return flightops.State{}, false, nil, fmt.Errorf("scan flight event: %w", err)
		}
		if err := json.Unmarshal([]byte(payload), &r.Event); err != nil {
			return flightops.State{}, false, nil, fmt.Errorf("flight event payload: %w", err)
		}
		r.ReceivedAt = time.UnixMilli(recv).UTC()
		out = append(out, r)
	}
	return st, found, out, rows.Err()
}

// oweAlerts records the mail owed to each member with a live booking on
// the flight whose segment has not departed: one row per member however
// many bookings. A pending mail keeps its due time (the changes coalesce),
// unless the new one is due sooner (a cancellation); a mail already sent
// starts a new window.
func oweAlerts(ctx context.Context, tx *sql.Tx, engine Engine, segs []flightSegment, next flightops.State, due, now time.Time) error {
	seen := map[string]bool{}
	var rows [][]any
	for _, g := range segs {
		if g.memberID == "" || !g.live || !g.departAt.After(now) || seen[g.memberID] {
			continue
		}
		seen[g.memberID] = true
		rows = append(rows, []any{next.Flight, next.Date, g.memberID, next.Sequence, 0, due.UnixMilli()})
	}
	// the flight's members in multi-row statements (each member once: an
	// upsert may not meet its own row twice)
	if err := bulkExec(ctx, tx, engine, `INSERT INTO flight_alerts (flight, flight_date, member_id, sequence, sent_sequence, due_at) VALUES `,
		` ON CONFLICT (flight, flight_date, member_id) DO UPDATE SET sequence = excluded.sequence,
		due_at = CASE WHEN flight_alerts.sent_sequence >= flight_alerts.sequence OR excluded.due_at < flight_alerts.due_at
			THEN excluded.due_at ELSE flight_alerts.due_at END`, nil, 6, rows); err != nil {
		return fmt.Errorf("owe flight alerts: %w", err)
	}
	return nil
}

func (s *FlightOpsStore) DueAlerts(ctx context.Context, now time.Time, limit int) ([]flightops.Alert, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT flight, flight_date, member_id FROM flight_alerts
		WHERE due_at <= $1 AND sequence > sent_sequence AND lease_until <= $1 ORDER BY due_at LIMIT $2`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("due flight alerts: %w", err)
	}
	defer rows.Close()
	var out []flightops.Alert
	for rows.Next() {
		var a flightops.Alert
		if err := rows.Scan(&a.Flight, &a.Date, &a.MemberID); err != nil {
			return nil, fmt.Errorf("scan flight alert: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

func (s *FlightOpsStore) TakeAlert(ctx context.Context, a flightops.Alert, owner string, now, until time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE flight_alerts SET lease_owner = $4, lease_until = $5
		WHERE flight = $1 AND flight_date = $2 AND member_id = $3 AND due_at <= $6 AND sequence > sent_sequence AND lease_until <= $6`,
		a.Flight, a.Date, a.MemberID, owner, until.UnixMilli(), now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("take flight alert: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *FlightOpsStore) AlertRecipient(ctx context.Context, a flightops.Alert) (flightops.State, flightops.Recipient, error) {
	st, err := scanFlightState(s.db.QueryRowContext(ctx, `SELECT `+flightStateCols+` FROM flight_states WHERE flight = $1 AND flight_date = $2`, a.Flight, a.Date))
	if err != nil {
		return flightops.State{}, flightops.Recipient{}, fmt.Errorf("flight state: %w", Translate(err))
	}
	var to flightops.Recipient
	if err := s.db.QueryRowContext(ctx, `SELECT email, firstname, lastname, `+mailLangOf("members")+` FROM members WHERE id = $1`, a.MemberID).
		Scan(&to.Email, &to.Firstname, &to.Lastname, &to.Lang); err != nil {
		return flightops.State{}, flightops.Recipient{}, fmt.Errorf("alert recipient: %w", Translate(err))
	}
	segs, err := flightSegments(ctx, s.db, a.Flight, a.Date)
	if err != nil {
		return flightops.State{}, flightops.Recipient{}, err
	}
	ids := map[string]bool{}
	for _, g := range segs {
		if g.memberID == a.MemberID && g.live {
			ids[g.reservationID] = true
		}
	}
	for id := range ids {
		var pnr string
		if err := s.db.QueryRowContext(ctx, `SELECT pnr FROM reservations WHERE id = $1`, id).Scan(&pnr); err != nil {
			return flightops.State{}, flightops.Recipient{}, fmt.Errorf("alert bookings: %w", err)
		}
		to.PNRs = append(to.PNRs, pnr)
	}
	slices.Sort(to.PNRs)
	return st, to, nil
}

func (s *FlightOpsStore) AlertSent(ctx context.Context, a flightops.Alert, owner string, sequence int) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE flight_alerts SET sent_sequence = $5, lease_owner = '', lease_until = 0
		WHERE flight = $1 AND flight_date = $2 AND member_id = $3 AND lease_owner = $4`,
		a.Flight, a.Date, a.MemberID, owner, sequence); err != nil {
		return fmt.Errorf("flight alert sent: %w", err)
	}
	return nil
}

// applyFlightEvent records ev and applies it inside tx (FlightOpsStore.Apply
// and a booking snapshot that moves a flight's schedule, reservationfeed.go,
// share it): the flight's state, its segments, the mails and the pushes
// owed.
func applyFlightEvent(ctx context.Context, db *DB, tx *sql.Tx, ev flightops.Event, payload, source string,
	merge func(flightops.State) (flightops.State, bool, error), alertDue func(flightops.State) time.Time) (flightops.Result, error) {
	res := flightops.Result{EventID: ev.ID}
	now := db.NowMillis()
	err := func() error {
		// The event id is the guard: a second delivery, on any instance,
		// waits here for the first one's transaction and then clashes.
		if _, err := tx.ExecContext(ctx, `INSERT INTO flight_events (id, flight, flight_date, kind, occurred_at, received_at, source, payload, outcome, bookings)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0)`,
			ev.ID, ev.Flight, ev.Date, string(ev.Kind), ev.OccurredAt.UnixMilli(), now, source, string(payload)); err != nil {
			return fmt.Errorf("record flight event: %w", Translate(err))
		}
		segs, err := flightSegments(ctx, tx, ev.Flight, ev.Date)
		if err != nil {
			return err
		}
		if len(segs) == 0 {
			return flightops.ErrUnknownFlight
		}
		first := segs[0]
		initial := flightops.NewState(flightops.Flight{Flight: ev.Flight, Date: ev.Date, Origin: first.origin, Destination: first.destination,
			DepartAt: first.departAt, ArrivalAt: first.arrivalAt}, db.Now())
		if _, err := tx.ExecContext(ctx, `INSERT INTO flight_states (`+flightStateCols+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, $9, '', '', '', '', 0, 0, 0, 0, $10) ON CONFLICT (flight, flight_date) DO NOTHING`,
			ev.Flight, ev.Date, initial.Origin, initial.Destination, initial.DepartAt.UnixMilli(), initial.ArrivalAt.UnixMilli(),
			initial.DepartAt.UnixMilli(), initial.ArrivalAt.UnixMilli(), initial.FlightStatus, now); err != nil {
			return fmt.Errorf("flight state: %w", err)
		}
		lock := ""
		if db.Engine == Postgres {
			lock = ` FOR UPDATE` // events of one flight apply one at a time; SQLite has one writer anyway
		}
		cur, err := scanFlightState(tx.QueryRowContext(ctx, `SELECT `+flightStateCols+` FROM flight_states WHERE flight = $1 AND flight_date = $2`+lock, ev.Flight, ev.Date))
		if err != nil {
			return fmt.Errorf("flight state: %w", err)
		}
		next, changed, err := merge(cur)
		if err != nil {
			return err
		}
		res.Outcome = flightops.OutcomeStale
		if changed {
			res.Outcome = flightops.OutcomeApplied
			if _, err := tx.ExecContext(ctx, `UPDATE flight_states SET depart_at = $3, arrival_at = $4, estimated_depart_at = $5,
				estimated_arrival_at = $6, flight_status = $7, gate = $8, terminal = $9, diverted_to = $10, last_kind = $11,
				times_at = $12, gate_at = $13, route_at = $14, sequence = $15, updated_at = $16 WHERE flight = $1 AND flight_date = $2`,
				ev.Flight, ev.Date, next.DepartAt.UnixMilli(), next.ArrivalAt.UnixMilli(), optMillis(next.EstimatedDepartAt),
				optMillis(next.EstimatedArrivalAt), next.FlightStatus, next.Gate, next.Terminal, next.DivertedTo, string(next.LastKind),
				millisOrZero(next.TimesAt), millisOrZero(next.GateAt), millisOrZero(next.RouteAt), next.Sequence, millisOrZero(next.UpdatedAt)); err != nil {
				return fmt.Errorf("flight state: %w", err)
			}
			if err := updateFlightSegments(ctx, tx, db.Engine, segs, cur, next); err != nil {
				return err
			}
			reservations := map[string]bool{}
			for _, g := range segs {
				reservations[g.reservationID] = true
			}
			res.Bookings = len(reservations)
			if err := oweAlerts(ctx, tx, db.Engine, segs, next, alertDue(next), db.Now()); err != nil {
				return err
			}
			if err := owePushes(ctx, tx, segs, next, db.Now()); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE flight_events SET outcome = $2, bookings = $3 WHERE id = $1`, ev.ID, res.Outcome, res.Bookings); err != nil {
			return fmt.Errorf("record flight event: %w", err)
		}
		return nil
	}()
	return res, err
}
