package store_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

// TestSearchPageOneStatement: the booking search's one statement
// (SearchPage) answers every kind of query exactly as the separate
// statements it replaced: the page in order with its segments and
// passengers by position, nullable times, the total, the version and the
// earliest last departure; empty pages, pages past the end, members
// without bookings and unknown members (version -1) included.
func TestSearchPageOneStatement(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
		// b0..b2 with 13 generated bookings each; b3 has none
		if err := demo.SeedBench(ctx, db, "!", 3, 0, 39, now, nil); err != nil {
			t.Fatal(err)
		}
		if err := demo.SeedBench(ctx, db, "!", 4, 0, 0, now, nil); err != nil {
			t.Fatal(err)
		}
		m := demo.BenchMemberID(0)
		at := func(d time.Duration) time.Time { return now.Add(d).Truncate(time.Millisecond) }
		ptr := func(d time.Duration) *time.Time { v := at(d); return &v }
		hand := []booking.Reservation{
			{MemberID: m, PNR: "HAND01", BookedAt: at(-48 * time.Hour), StatusCode: booking.StatusConfirmed, Currency: "JPY", TotalAmount: 12345,
				ContactEmail: `a"b\c@example.com`,
				Segments: []booking.Segment{
					{Key: "b", StatusCode: "HK", Flight: "MM1", FlightNumber: "1", IsShowHotelLink: true, OriginAirportCode: "HND", OriginTerminal: "T1",
						OriginGate: "5\n6", DestinationAirportCode: "CTS", DestinationTerminal: "国内線", DepartAt: at(24 * time.Hour),
						EstimatedDepartAt: ptr(25 * time.Hour), ActualDepartAt: ptr(26 * time.Hour), ArrivalAt: at(27 * time.Hour),
						EstimatedArrivalAt: ptr(28 * time.Hour), ActualArrivalAt: ptr(29 * time.Hour), FlightStatus: "DELAYED"},
					{Key: "a", StatusCode: "HK", Flight: "MM2", FlightNumber: "2", OriginAirportCode: "CTS", DestinationAirportCode: "KIX",
						DepartAt: at(72 * time.Hour), ArrivalAt: at(74 * time.Hour), EstimatedArrivalAt: ptr(75 * time.Hour)},
					{Key: "c", StatusCode: "HK", Flight: "MM3", FlightNumber: "3", OriginAirportCode: "KIX", DestinationAirportCode: "HND",
						DepartAt: at(96 * time.Hour), ArrivalAt: at(98 * time.Hour)},
				},
				Passengers: []booking.Passenger{{Lastname: "ZETA", Firstname: "Ann", PassengerType: "ADULT"},
					{Lastname: "ALPHA", Firstname: "Bob \u2028 \\", PassengerType: "CHILD"}, {Lastname: "山田", Firstname: "花子", PassengerType: "INFANT"}}},
			{MemberID: m, PNR: "HAND02", BookedAt: at(-24 * time.Hour), StatusCode: booking.StatusCancelled, Currency: "USD", TotalAmount: 0,
				Segments: []booking.Segment{{Key: "1", StatusCode: "XX", Flight: "MM9", FlightNumber: "9", OriginAirportCode: "NRT",
					DestinationAirportCode: "LAX", DepartAt: at(24 * time.Hour), ArrivalAt: at(34 * time.Hour)}}},
		}
		if err := store.InsertReservations(ctx, db, now, hand); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `UPDATE reservation_segments SET change_seq = 3, change_kind = 'diversion',
			previous_depart_at = $2, previous_arrival_at = NULL, diverted_to = 'ITM' WHERE reservation_id = $1 AND seg_key = 'a'`,
			hand[0].ID, at(70*time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		// HAND02 has no passengers: its page entry has none either
		st := store.NewBookingStore(db)
		tp := func(d time.Duration) *time.Time { return ptr(d) }
		base := func(member string) booking.Query { return booking.Query{MemberID: member, Limit: 10} }
		with := func(q booking.Query, f func(*booking.Query)) booking.Query { f(&q); return q }
		cases := map[string]booking.Query{
			"all":                base(m),
			"desc":               with(base(m), func(q *booking.Query) { q.Desc = true }),
			"second page":        with(base(m), func(q *booking.Query) { q.Offset = 10 }),
			"last partial page":  with(base(m), func(q *booking.Query) { q.Offset = 10; q.Limit = 3; q.Desc = true }),
			"offset at total":    with(base(m), func(q *booking.Query) { q.Offset = 15 }),
			"offset beyond":      with(base(m), func(q *booking.Query) { q.Offset = 100 }),
			"pnr":                with(base(m), func(q *booking.Query) { q.PNR = "HAND01" }),
			"pnr of another":     with(base(m), func(q *booking.Query) { q.PNR = "B1" }),
			"depart range":       with(base(m), func(q *booking.Query) { q.DepartFrom = tp(-24 * time.Hour); q.DepartTo = tp(200 * 24 * time.Hour) }),
			"last depart range":  with(base(m), func(q *booking.Query) { q.LastDepartFrom = tp(0); q.LastDepartTo = tp(100 * time.Hour) }),
			"booked range":       with(base(m), func(q *booking.Query) { q.BookedFrom = tp(-400 * 24 * time.Hour); q.BookedTo = tp(0) }),
			"active":             with(base(m), func(q *booking.Query) { q.ActiveAt = tp(0) }),
			"airport":            with(base(m), func(q *booking.Query) { q.AirportCode = "CTS" }),
			"airport none":       with(base(m), func(q *booking.Query) { q.AirportCode = "ZZZ" }),
			"empty range":        with(base(m), func(q *booking.Query) { q.DepartFrom = tp(0); q.DepartTo = tp(0) }),
			"other member":       base(demo.BenchMemberID(1)),
			"member no bookings": base(demo.BenchMemberID(3)),
			"unknown member":     base("nobody"),
		}
		for name, q := range cases {
			got, err := st.SearchPage(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := st.SearchPageStatements(ctx, q)
			if err != nil {
				t.Fatalf("%s: statements: %v", name, err)
			}
			if name == "all" && (got.Total != 15 || len(got.List) != 10) || name == "member no bookings" && (got.Total != 0 || got.Version < 0) {
				t.Errorf("%s: %d of %d, version %d", name, len(got.List), got.Total, got.Version)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
			}
		}
		// the hand-built booking comes back whole
		p, err := st.SearchPage(ctx, with(base(m), func(q *booking.Query) { q.PNR = "HAND01" }))
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != 1 || len(p.List) != 1 || p.Version < 0 {
			t.Fatalf("HAND01: %+v", p)
		}
		r := p.List[0]
		if r.ContactEmail != hand[0].ContactEmail || len(r.Segments) != 3 || r.Segments[0].Key != "b" || r.Segments[2].Key != "c" ||
			r.Segments[0].OriginGate != "5\n6" || !r.Segments[0].IsShowHotelLink || r.Segments[1].IsShowHotelLink ||
			r.Segments[1].ChangeSeq != 3 || r.Segments[1].DivertedTo != "ITM" || r.Segments[1].PreviousArrivalAt != nil ||
			r.Segments[1].PreviousDepartAt == nil || !r.Segments[1].PreviousDepartAt.Equal(at(70*time.Hour)) ||
			r.Segments[1].EstimatedDepartAt != nil || !r.Segments[0].ActualArrivalAt.Equal(at(29*time.Hour)) ||
			!reflect.DeepEqual(r.Passengers, hand[0].Passengers) {
			t.Errorf("HAND01 = %+v", r)
		}
		if p, err := st.SearchPage(ctx, base("nobody")); err != nil || p.Version != -1 || p.Total != 0 || p.List == nil || len(p.List) != 0 {
			t.Errorf("unknown member: %+v, %v", p, err)
		}
	})
}

// TestSearchPagePlanSQLite: the one statement reads the member's covering
// index only, for the count and for the page in the index's order, the
// page's segments and passengers from their views in that index
// (migration 00220): no table row, no scan, no sort but the page's
// aggregate (ten rows, in order), and no segment or passenger read but the
// airport filter's.
func TestSearchPagePlanSQLite(t *testing.T) {
	t.Parallel()
	db := apitest.OpenDB(t, store.SQLite)
	plan := explainSQLite(t, db, booking.Query{MemberID: "m", Limit: 10, Offset: 10, Desc: true, ActiveAt: new(time.Time), AirportCode: "HND"})
	text := strings.Join(plan, "\n")
	t.Log(text)
	if n := strings.Count(text, "SEARCH r USING COVERING INDEX reservations_member_search (member_id=?)"); n != 2 {
		t.Errorf("plan searches the member's covering index %d times, want 2 (count and page):\n%s", n, text)
	}
	sorts := 0
	for _, line := range plan {
		if strings.Contains(line, "TEMP B-TREE") {
			sorts++
		}
		if strings.HasPrefix(line, "SCAN ") && !strings.HasPrefix(line, "SCAN c") && !strings.HasPrefix(line, "SCAN p") ||
			strings.Contains(line, "TEMP B-TREE") && !strings.Contains(line, "FOR group_concat(ORDER BY)") ||
			strings.Contains(line, "reservation_passengers") {
			t.Errorf("plan step %q:\n%s", line, text)
		}
	}
	if sorts != 1 {
		t.Errorf("%d sorts, want the page aggregate's only:\n%s", sorts, text)
	}
	// without the airport filter, no segment is read at all
	if text := strings.Join(explainSQLite(t, db, booking.Query{MemberID: "m", Limit: 10}), "\n"); strings.Contains(text, "reservation_segments") {
		t.Errorf("plan without the airport filter reads segments:\n%s", text)
	}
}

// explainSQLite is the query plan of q's search statement, a line a step.
func explainSQLite(t *testing.T, db *store.DB, q booking.Query) []string {
	t.Helper()
	query, args := store.SearchPageSQL(store.SQLite, q)
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
