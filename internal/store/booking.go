package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"members/internal/booking"
)

// BookingStore implements booking.Store.
type BookingStore struct{ db *DB }

// NewBookingStore returns the reservations store.
func NewBookingStore(db *DB) *BookingStore { return &BookingStore{db: db} }

var _ booking.Store = (*BookingStore)(nil)

const reservationCols = `r.id, r.member_id, r.pnr, r.booked_at, r.status_code, r.currency, r.total_amount, r.contact_email`

// where builds the search condition; args continue from $1 = member id.
func searchWhere(q booking.Query) (string, []any) {
	var b strings.Builder
	args := []any{q.MemberID}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	b.WriteString(`r.member_id = $1`)
	if q.PNR != "" {
		b.WriteString(` AND r.pnr = ` + arg(q.PNR))
	}
	rng := func(col string, from, to *time.Time) {
		if from != nil {
			b.WriteString(` AND ` + col + ` >= ` + arg(from.UnixMilli()))
		}
		if to != nil {
			b.WriteString(` AND ` + col + ` < ` + arg(to.UnixMilli()))
		}
	}
	rng("r.first_depart_at", q.DepartFrom, q.DepartTo)
	rng("r.last_depart_at", q.LastDepartFrom, q.LastDepartTo)
	rng("r.booked_at", q.BookedFrom, q.BookedTo)
	if q.ActiveAt != nil {
		b.WriteString(` AND r.last_depart_at > ` + arg(q.ActiveAt.UnixMilli()) + ` AND r.status_code <> 'CANCELLED'`)
	}
	if q.ChangedAt != nil {
		b.WriteString(` AND EXISTS (SELECT 1 FROM reservation_segments s WHERE s.reservation_id = r.id AND s.change_seq > 0` +
			` AND UPPER(s.status_code) <> 'CANCELLED' AND COALESCE(s.estimated_depart_at, s.depart_at) > ` + arg(q.ChangedAt.UnixMilli()) + `)`)
	}
	if q.AirportCode != "" {
		p := arg(q.AirportCode)
		b.WriteString(` AND EXISTS (SELECT 1 FROM reservation_segments s WHERE s.reservation_id = r.id AND (s.origin_airport_code = ` + p + ` OR s.destination_airport_code = ` + p + `))`)
	}
	return b.String(), args
}

// SearchSQL returns the page query of q and its arguments: the part of
// SearchPageSQL that reads the page (for EXPLAIN in the benchmark).
func SearchSQL(q booking.Query) (string, []any) {
	where, args := searchWhere(q)
	order, args := searchOrder(q, "r", args)
	return `SELECT ` + reservationCols + ` FROM reservations r WHERE ` + where +
		` ORDER BY ` + order +
		` LIMIT ` + strconv.Itoa(q.Limit) + ` OFFSET ` + strconv.Itoa(q.Offset), args
}

// searchOrder is the ORDER BY of a search over the alias t (a table or
// the page's rows, both with first_depart_at, last_depart_at and id): by
// first departure, or with q.ComingFirstAt the bookings with a flight still
// to leave first (nearest first), then the others (latest first).
func searchOrder(q booking.Query, t string, args []any) (string, []any) {
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	if q.ComingFirstAt == nil {
		return t + `.first_depart_at ` + dir + `, ` + t + `.id ` + dir, args
	}
	args = append(args, q.ComingFirstAt.UnixMilli())
	now := "$" + strconv.Itoa(len(args))
	past := `CASE WHEN ` + t + `.last_depart_at > ` + now + ` THEN 0 ELSE 1 END`
	return past + `, CASE WHEN ` + t + `.last_depart_at > ` + now + ` THEN ` + t + `.first_depart_at ELSE -` + t + `.first_depart_at END, ` + t + `.id`, args
}

func (s *BookingStore) Search(ctx context.Context, q booking.Query) ([]booking.Reservation, int, error) {
	p, err := s.SearchPage(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	return p.List, p.Total, nil
}

// bookingsVersionSQL reads a member's bookings version (migration 00032),
// -1 for an unknown member.
const bookingsVersionSQL = `SELECT COALESCE((SELECT bookings_version FROM members WHERE id = $1), -1)`

func (s *BookingStore) BookingsVersion(ctx context.Context, memberID string) (int64, error) {
	var v int64
	// A primary-key read: without the request's cancellation (no watcher
	// goroutine per query), like the session lookup.
	if err := s.db.queryRowHot(context.WithoutCancel(ctx), bookingsVersionSQL, memberID).Scan(&v); err != nil {
		return 0, fmt.Errorf("bookings version: %w", err)
	}
	return v, nil
}

// SearchPage reads the whole answer in one statement (SearchPageSQL):
// the member's bookings version, the count and earliest last departure
// of the matches, and the page's reservations with their segments and
// passengers. One statement is one snapshot on both engines, so the
// version is read with the rows it describes and an answer cached under
// it is never stale; SQLite needs no read transaction for it, PostgreSQL
// one round trip instead of four.
func (s *BookingStore) SearchPage(ctx context.Context, q booking.Query) (booking.Page, error) {
	query, args := SearchPageSQL(s.db.Engine, q)
	var doc string
	var lastMin sql.NullInt64
	p := booking.Page{}
	if err := s.db.queryRowHot(ctx, query, args...).Scan(&p.Version, &p.Total, &lastMin, &doc); err != nil {
		return booking.Page{}, fmt.Errorf("search reservations: %w", err)
	}
	if lastMin.Valid {
		p.LastDepartMin = time.UnixMilli(lastMin.Int64).UTC()
	}
	list, err := decodePage(doc)
	if err != nil {
		return booking.Page{}, fmt.Errorf("search reservations: %w", err)
	}
	p.List = list
	return p, nil
}

// SearchPageSQL is SearchPage's one statement: a row of the version, the
// count, the earliest last departure and the page as a JSON array of
// positional arrays (pageReservationCols, then the array of segments in
// segmentCols order and the array of passengers in paxCols order,
// both by position). Every part reads the same covering indexes as the
// separate statements of SearchSQL and ViewSQL.
func SearchPageSQL(engine Engine, q booking.Query) (string, []any) {
	where, args := searchWhere(q)
	order, args := searchOrder(q, "r", args)
	pageOrder, args := searchOrder(q, "p", args)
	array, agg := "json_array", "group_concat"
	if engine == Postgres {
		array, agg = "json_build_array", "string_agg"
	}
	page := `SELECT ` + reservationCols + `, r.first_depart_at, r.last_depart_at, r.segments_view, r.passengers_view FROM reservations r WHERE ` + where +
		` ORDER BY ` + order +
		` LIMIT ` + strconv.Itoa(q.Limit) + ` OFFSET ` + strconv.Itoa(q.Offset)
	// A booking's entry is its columns' JSON array with the two views
	// (JSON text already, migration 00220) spliced in before the closing
	// bracket, and the page the entries joined: no JSON function parses
	// the views again (on SQLite that parsing was a fifth of a search).
	// rtrim takes only the array's own bracket: its last element,
	// contact_email, is a string, so the text ends in "].
	entry := `rtrim(` + array + `(p.id, p.member_id, p.pnr, p.booked_at, p.status_code, p.currency, p.total_amount, p.contact_email)` +
		castText(engine) + `, ']') || ',' || COALESCE(p.segments_view, 'null') || ',' || COALESCE(p.passengers_view, 'null') || ']'`
	return `WITH c AS (SELECT COUNT(*) AS n, MIN(r.last_depart_at) AS m FROM reservations r WHERE ` + where + `),
		p AS (` + page + `)
		SELECT COALESCE((SELECT bookings_version FROM members WHERE id = $1), -1), c.n, c.m,
		COALESCE((SELECT '[' || ` + agg + `(` + entry + `, ',' ORDER BY ` + pageOrder + `) || ']' FROM p), '[]')
		FROM c`, args
}

func castText(engine Engine) string {
	if engine == Postgres {
		return "::text"
	}
	return ""
}

func (s *BookingStore) ByPNR(ctx context.Context, memberID, pnr string) (booking.Reservation, error) {
	list, err := s.query(ctx, `SELECT `+reservationCols+` FROM reservations r WHERE r.pnr = $1 AND r.member_id = $2`, pnr, memberID)
	if err != nil {
		return booking.Reservation{}, err
	}
	if len(list) == 0 {
		return booking.Reservation{}, booking.ErrNotFound
	}
	return list[0], nil
}

func (s *BookingStore) FindByPNR(ctx context.Context, pnr string) (booking.Reservation, error) {
	list, err := s.query(ctx, `SELECT `+reservationCols+` FROM reservations r WHERE r.pnr = $1`, pnr)
	if err != nil {
		return booking.Reservation{}, err
	}
	if len(list) == 0 {
		return booking.Reservation{}, booking.ErrNotFound
	}
	return list[0], nil
}

func (s *BookingStore) Claim(ctx context.Context, reservationID, memberID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE reservations SET member_id = $1 WHERE id = $2 AND member_id IS NULL`, memberID, reservationID)
	if err != nil {
		return fmt.Errorf("claim reservation: %w", Translate(err))
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("claim reservation: %w", err)
	} else if n == 0 {
		return booking.ErrNotFound
	}
	return nil
}

func (s *BookingStore) Contact(ctx context.Context, memberID string) (booking.Contact, error) {
	var c booking.Contact
	err := Translate(s.db.QueryRowContext(ctx, `SELECT email, firstname, lastname, `+chosenMailLangOf("members")+` FROM members WHERE id = $1`, memberID).
		Scan(&c.Email, &c.Firstname, &c.Lastname, &c.MailLang))
	if errors.Is(err, ErrNotFound) {
		return c, booking.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("member contact: %w", err)
	}
	return c, nil
}

// query loads reservations with their segments and passengers, keeping
// the order of the reservation query.
func (s *BookingStore) query(ctx context.Context, query string, args ...any) ([]booking.Reservation, error) {
	return s.queryWith(ctx, reader{db: s.db}, query, args...)
}

// queryWith is query through r (a read transaction or the pool).
func (s *BookingStore) queryWith(ctx context.Context, rd reader, query string, args ...any) ([]booking.Reservation, error) {
	rows, err := rd.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("query reservations: %w", err)
	}
	defer rows.Close()
	list := []booking.Reservation{}
	index := map[string]int{}
	for rows.Next() {
		var r booking.Reservation
		var member sql.NullString
		var booked int64
		if err := rows.Scan(&r.ID, &member, &r.PNR, &booked, &r.StatusCode, &r.Currency, &r.TotalAmount, &r.ContactEmail); err != nil {
			return nil, fmt.Errorf("scan reservation: %w", err)
		}
		r.MemberID = member.String
		r.BookedAt = time.UnixMilli(booked).UTC()
		index[r.ID] = len(list)
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query reservations: %w", err)
	}
	_ = rows.Close()
	if len(list) == 0 {
		return list, nil
	}
	in := make([]string, len(list))
	ids := make([]any, len(list))
	for i, r := range list {
		in[i] = "$" + strconv.Itoa(i+1)
		ids[i] = r.ID
	}
	inList := strings.Join(in, ",")
	if err := s.loadSegments(ctx, rd, list, index, inList, ids); err != nil {
		return nil, err
	}
	if err := s.loadPassengers(ctx, rd, list, index, inList, ids); err != nil {
		return nil, err
	}
	return list, nil
}

// The segments and passengers of a page of reservations; both are read from
// their covering indexes (migration 00031) in this order.
const (
	segmentsSQL = `SELECT reservation_id, seg_key, status_code, flight, flight_number, is_show_hotel_link,
		origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
		depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status,
		change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to, previous_gate
		FROM reservation_segments WHERE reservation_id IN `
	passengersSQL = `SELECT reservation_id, lastname, firstname, passenger_type
		FROM reservation_passengers WHERE reservation_id IN `
)

// The columns of a segment and of a passenger in SearchPage's answer, in
// the order of decodeSegment and decodePassenger. segmentCols220 are a
// segment's columns as migrations 00220 and 00244 wrote the views (their
// triggers are made with them, on a schema without the later columns);
// 00291 added the previous gate (migrate_previous_gate.go).
const (
	segmentCols220 = `s.seg_key, s.status_code, s.flight, s.flight_number, s.is_show_hotel_link,
		s.origin_airport_code, s.origin_terminal, s.origin_gate, s.destination_airport_code, s.destination_terminal,
		s.depart_at, s.estimated_depart_at, s.actual_depart_at, s.arrival_at, s.estimated_arrival_at, s.actual_arrival_at, s.flight_status,
		s.change_seq, s.change_kind, s.previous_depart_at, s.previous_arrival_at, s.diverted_to`
	segmentCols = segmentCols220 + `, s.previous_gate`
	paxCols     = `x.lastname, x.firstname, x.passenger_type`
)

// ViewSQL returns the segments and passengers queries of a page of one
// reservation (for EXPLAIN in the benchmark; ByPNR and FindByPNR run them).
func ViewSQL() (segments, passengers string) {
	return segmentsSQL + `($1) ORDER BY reservation_id, position`, passengersSQL + `($1) ORDER BY reservation_id, position`
}

func (s *BookingStore) loadSegments(ctx context.Context, rd reader, list []booking.Reservation, index map[string]int, inList string, ids []any) error {
	q := segmentsSQL + `(` + inList + `) ORDER BY reservation_id, position`
	if rd.lockSegments && rd.tx != nil && s.db.Engine == Postgres {
		q += ` FOR UPDATE`
	}
	rows, err := rd.query(ctx, q, ids...)
	if err != nil {
		return fmt.Errorf("query segments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var g booking.Segment
		var dep, arr int64
		var estDep, actDep, estArr, actArr, prevDep, prevArr sql.NullInt64
		if err := rows.Scan(&id, &g.Key, &g.StatusCode, &g.Flight, &g.FlightNumber, &g.IsShowHotelLink,
			&g.OriginAirportCode, &g.OriginTerminal, &g.OriginGate, &g.DestinationAirportCode, &g.DestinationTerminal,
			&dep, &estDep, &actDep, &arr, &estArr, &actArr, &g.FlightStatus,
			&g.ChangeSeq, &g.ChangeKind, &prevDep, &prevArr, &g.DivertedTo, &g.PreviousGate); err != nil {
			return fmt.Errorf("scan segment: %w", err)
		}
		g.DepartAt, g.ArrivalAt = time.UnixMilli(dep).UTC(), time.UnixMilli(arr).UTC()
		g.EstimatedDepartAt, g.ActualDepartAt = optTime(estDep), optTime(actDep)
		g.EstimatedArrivalAt, g.ActualArrivalAt = optTime(estArr), optTime(actArr)
		g.PreviousDepartAt, g.PreviousArrivalAt = optTime(prevDep), optTime(prevArr)
		r := &list[index[id]]
		r.Segments = append(r.Segments, g)
	}
	return rows.Err()
}

func (s *BookingStore) loadPassengers(ctx context.Context, rd reader, list []booking.Reservation, index map[string]int, inList string, ids []any) error {
	rows, err := rd.query(ctx, passengersSQL+`(`+inList+`) ORDER BY reservation_id, position`, ids...)
	if err != nil {
		return fmt.Errorf("query passengers: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var p booking.Passenger
		if err := rows.Scan(&id, &p.Lastname, &p.Firstname, &p.PassengerType); err != nil {
			return fmt.Errorf("scan passenger: %w", err)
		}
		r := &list[index[id]]
		r.Passengers = append(r.Passengers, p)
	}
	return rows.Err()
}

func optTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}

func optMillis(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}

// Execer is a *sql.DB or a *sql.Tx.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// InsertReservations writes reservations with their segments and
// passengers in multi-row statements (demo data, seed-bench). Segments
// must be in departure order; ids are made when empty. Call it inside a
// transaction; batches of a few hundred keep within both engines'
// parameter limits.
func InsertReservations(ctx context.Context, tx Execer, now time.Time, list []booking.Reservation) error {
	return InsertReservationsOn(ctx, tx, Postgres, now, list)
}

// InsertReservationsOn is InsertReservations with the engine's own
// placeholders: SQLite treats $N as a named parameter and looks each one up
// linearly, which makes statements with thousands of $N quadratic; "?" is
// positional there. Bulk loads (seed-bench) use this.
func InsertReservationsOn(ctx context.Context, tx Execer, engine Engine, now time.Time, list []booking.Reservation) error {
	if len(list) == 0 {
		return nil
	}
	positional := engine == SQLite
	res, seg, pax := valuesBuilder{positional: positional}, valuesBuilder{positional: positional}, valuesBuilder{positional: positional}
	for i := range list {
		r := &list[i]
		if r.ID == "" {
			r.ID = NewID()
		}
		if len(r.Segments) == 0 {
			return fmt.Errorf("insert reservation %s: no segments", r.PNR)
		}
		var member any
		if r.MemberID != "" {
			member = r.MemberID
		}
		res.add(r.ID, r.PNR, member, r.BookedAt.UnixMilli(), r.StatusCode, r.Currency, r.TotalAmount, r.ContactEmail,
			r.FirstDepartAt().UnixMilli(), r.LastDepartAt().UnixMilli(), now.UnixMilli())
		for p, g := range r.Segments {
			seg.add(r.ID, g.Key, p, g.StatusCode, g.Flight, g.FlightNumber, g.IsShowHotelLink,
				g.OriginAirportCode, g.OriginTerminal, g.OriginGate, g.DestinationAirportCode, g.DestinationTerminal,
				g.DepartAt.UnixMilli(), optMillis(g.EstimatedDepartAt), optMillis(g.ActualDepartAt),
				g.ArrivalAt.UnixMilli(), optMillis(g.EstimatedArrivalAt), optMillis(g.ActualArrivalAt), g.FlightStatus)
		}
		for p, x := range r.Passengers {
			pax.add(r.ID, p, x.Lastname, x.Firstname, x.PassengerType)
		}
	}
	stmts := []struct {
		head string
		v    *valuesBuilder
	}{
		{`INSERT INTO reservations (id, pnr, member_id, booked_at, status_code, currency, total_amount, contact_email, first_depart_at, last_depart_at, created_at) VALUES `, &res},
		{`INSERT INTO reservation_segments (reservation_id, seg_key, position, status_code, flight, flight_number, is_show_hotel_link,
			origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
			depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status) VALUES `, &seg},
		{`INSERT INTO reservation_passengers (reservation_id, position, lastname, firstname, passenger_type) VALUES `, &pax},
	}
	for _, st := range stmts {
		if len(st.v.args) == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, st.head+st.v.sql.String(), st.v.args...); err != nil {
			return fmt.Errorf("insert reservations: %w", Translate(err))
		}
	}
	return nil
}

// valuesBuilder accumulates "($1,$2),($3,$4)…" and the arguments.
type valuesBuilder struct {
	sql        strings.Builder
	args       []any
	positional bool // "?" instead of "$N"
}

func (v *valuesBuilder) add(vals ...any) {
	if len(v.args) > 0 {
		v.sql.WriteByte(',')
	}
	v.sql.WriteByte('(')
	for i, x := range vals {
		if i > 0 {
			v.sql.WriteByte(',')
		}
		v.args = append(v.args, x)
		if v.positional {
			v.sql.WriteByte('?')
		} else {
			v.sql.WriteString("$" + strconv.Itoa(len(v.args)))
		}
	}
	v.sql.WriteByte(')')
}
