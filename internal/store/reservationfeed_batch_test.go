package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/flightops"
	"members/internal/store"
)

// batchSnap is a snapshot of pnr at version for the member of number
// (none when empty): one segment of flight on the day days ahead at
// hour, and the passengers named.
func batchSnap(now time.Time, pnr string, version int, number, flight string, days, hour int, pax ...string) booking.Snapshot {
	day := now.In(booking.JST).AddDate(0, 0, days)
	dep := time.Date(day.Year(), day.Month(), day.Day(), hour, 0, 0, 0, booking.JST)
	s := booking.Snapshot{PNR: pnr, Version: json.Number(fmt.Sprint(version)), MemberNumber: number,
		BookingDate: now.Add(-time.Hour).In(booking.JST).Format(time.RFC3339), StatusCode: "CONFIRMED", Currency: "JPY",
		TotalAmount: "12800", ContactEmail: "traveller@example.com",
		Segments: []booking.SnapshotSegment{{Key: "1", Flight: flight, OriginAirportCode: "KIX", DestinationAirportCode: "CTS",
			DepartDateTime: dep.Format(time.RFC3339), ArrivalDateTime: dep.Add(2 * time.Hour).Format(time.RFC3339), StatusCode: "CONFIRMED"}}}
	for _, p := range pax {
		s.Passengers = append(s.Passengers, booking.SnapshotPassenger{Lastname: p, Firstname: "AOI", PassengerType: "ADULT"})
	}
	return s
}

// TestBookingsBatch: a batch of the bookings import applies each snapshot
// as one at a time would: new, replaced in part, unchanged (the version
// moves, nothing else), duplicate, stale, a schedule moved (through the
// flight-change path) and a line refused in the middle (nothing of it
// written, the others written). After it the search views hold what the
// tables hold, and the bookings version moved for the members whose
// bookings changed and only for them.
func TestBookingsBatch(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		now := time.Now()
		if err := demo.SeedBench(ctx, db, "!", 4, 0, 0, now, nil); err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if _, err := db.ExecContext(ctx, `UPDATE members SET member_number = $1 WHERE id = $2`, fmt.Sprintf("N%d", i), demo.BenchMemberID(i)); err != nil {
				t.Fatal(err)
			}
		}
		feed := flightops.NewReservationFeed(store.NewReservationFeedStore(db), store.NewMemberNumbers(db), db.Now)
		apply := func(dry bool, snaps ...booking.Snapshot) []flightops.ItemResult {
			t.Helper()
			var batch []flightops.Incoming
			for i, s := range snaps {
				in, err := feed.Check(s)
				if err != nil {
					t.Fatalf("snapshot %d: %v", i, err)
				}
				in.Line = i + 1
				batch = append(batch, in)
			}
			res, err := feed.ApplyBatch(ctx, batch, dry)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		outcomes := func(res []flightops.ItemResult) []string {
			var out []string
			for _, r := range res {
				if r.Err != nil {
					out = append(out, "refused")
					continue
				}
				out = append(out, r.Outcome)
			}
			return out
		}
		versions := func() map[string]int64 {
			t.Helper()
			out := map[string]int64{}
			for i := range 4 {
				var v int64
				if err := db.QueryRowContext(ctx, `SELECT bookings_version FROM members WHERE id = $1`, demo.BenchMemberID(i)).Scan(&v); err != nil {
					t.Fatal(err)
				}
				out[fmt.Sprintf("N%d", i)] = v
			}
			return out
		}
		st := store.NewBookingStore(db)
		sameViews := func(step string) {
			t.Helper()
			for i := range 4 {
				q := booking.Query{MemberID: demo.BenchMemberID(i), Limit: 50}
				got, err := st.SearchPage(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				want, err := st.SearchPageStatements(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: member %d's page from the views\n got %+v\nwant %+v", step, i, got, want)
				}
			}
		}

		first := apply(false,
			batchSnap(now, "BA1", 1, "N0", "MM101", 10, 9, "KIMURA", "SATO"),
			batchSnap(now, "BA2", 1, "N1", "MM102", 11, 9, "TANAKA"),
			batchSnap(now, "BA3", 1, "N2", "MM103", 12, 9, "SUZUKI"),
			batchSnap(now, "BA4", 3, "N3", "MM104", 13, 9, "ITO"),
			batchSnap(now, "BA5", 1, "N3", "MM105", 14, 9, "ITO"),
			batchSnap(now, "BA6", 1, "", "MM106", 15, 9, "NOMURA"))
		if got, want := outcomes(first), []string{"applied", "applied", "applied", "applied", "applied", "applied"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("first batch: %v, want %v", got, want)
		}
		sameViews("first batch")
		before := versions()

		// A dry run says what the batch would do and writes nothing.
		second := []booking.Snapshot{
			batchSnap(now, "BA1", 2, "N0", "MM101", 10, 9, "KIMURA"),           // a passenger less
			batchSnap(now, "BA2", 1, "N1", "MM102", 11, 9, "TANAKA"),           // duplicate
			batchSnap(now, "BA3", 2, "N2", "MM103", 12, 9, "SUZUKI"),           // newer, the same booking
			batchSnap(now, "BX9", 1, "NOBODY", "MM109", 16, 9, "NOMURA"),       // refused: no such member
			batchSnap(now, "BA4", 2, "N3", "MM104", 13, 11, "ITO"),             // stale (3 held)
			batchSnap(now, "BA5", 2, "N3", "MM105", 14, 11, "ITO"),             // the flight moved two hours
			batchSnap(now, "BA7", 1, "N1", "MM107", 17, 9, "TANAKA", "TANAKA"), // new
			batchSnap(now, "BA6", 2, "N1", "MM108", 18, 9, "NOMURA", "SUZUKI"), // another flight, an owner now
		}
		want := []string{"applied", "duplicate", "applied", "refused", "stale", "applied", "applied", "applied"}
		if got := outcomes(apply(true, second...)); !reflect.DeepEqual(got, want) {
			t.Fatalf("dry run: %v, want %v", got, want)
		}
		if !reflect.DeepEqual(versions(), before) {
			t.Fatalf("the dry run moved versions: %v, want %v", versions(), before)
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM reservations`).Scan(&n); err != nil || n != 6 {
			t.Fatalf("after the dry run %d bookings (%v), want 6", n, err)
		}

		res := apply(false, second...)
		if got := outcomes(res); !reflect.DeepEqual(got, want) {
			t.Fatalf("second batch: %v, want %v", got, want)
		}
		if !errors.Is(res[3].Err, booking.ErrUnknownMember) {
			t.Errorf("the refused line: %v, want the unknown member", res[3].Err)
		}
		sameViews("second batch")
		after := versions()
		// N2's one booking came again unchanged: its version stays
		for number, moved := range map[string]bool{"N0": true, "N1": true, "N2": false, "N3": true} {
			if got := after[number] != before[number]; got != moved {
				t.Errorf("member %s's bookings version moved %v, want %v (%d → %d)", number, got, moved, before[number], after[number])
			}
		}

		// what each line left
		var pax, refused, stale int
		var held int64
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM reservation_passengers p JOIN reservations r ON r.id = p.reservation_id
			WHERE r.pnr = 'BA1'`).Scan(&pax); err != nil || pax != 1 {
			t.Errorf("BA1 has %d passengers (%v), want 1", pax, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM reservations WHERE pnr = 'BX9') + (SELECT COUNT(*) FROM reservation_feed WHERE pnr = 'BX9')`).Scan(&refused); err != nil || refused != 0 {
			t.Errorf("the refused line left %d rows (%v)", refused, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT version, stale_count FROM reservation_feed WHERE pnr = 'BA4'`).Scan(&held, &stale); err != nil || held != 3 || stale != 1 {
			t.Errorf("BA4: version %d, %d stale (%v), want 3 and 1", held, stale, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT version FROM reservation_feed WHERE pnr = 'BA3'`).Scan(&held); err != nil || held != 2 {
			t.Errorf("BA3 (the same booking, newer): version %d (%v), want 2", held, err)
		}
		// The moved schedule went through the flight-change path: a flight
		// event of the reservations' source, the segment's change counted.
		var events, seq int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM flight_events WHERE source = $1 AND flight = 'MM105'`,
			flightops.SourceReservations).Scan(&events); err != nil || events != 1 {
			t.Errorf("flight events of MM105: %d (%v), want 1", events, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT s.change_seq FROM reservation_segments s JOIN reservations r ON r.id = s.reservation_id
			WHERE r.pnr = 'BA5'`).Scan(&seq); err != nil || seq != 1 {
			t.Errorf("BA5's segment: change %d (%v), want 1", seq, err)
		}
		// BA6 moved to another flight and got an owner; its calendar
		// event is a new revision of the booking's.
		var owner, flight string
		if err := db.QueryRowContext(ctx, `SELECT r.member_id, s.flight, s.change_seq FROM reservations r JOIN reservation_segments s ON s.reservation_id = r.id
			WHERE r.pnr = 'BA6'`).Scan(&owner, &flight, &seq); err != nil || owner != demo.BenchMemberID(1) || flight != "MM108" || seq != 1 {
			t.Errorf("BA6: owner %s, flight %s, change %d (%v)", owner, flight, seq, err)
		}

		// The same batch again: all duplicate (or stale), nothing moves.
		before = versions()
		if got, want := outcomes(apply(false, second...)), []string{"duplicate", "duplicate", "duplicate", "refused", "stale", "duplicate",
			"duplicate", "duplicate"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("the batch again: %v, want %v", got, want)
		}
		if !reflect.DeepEqual(versions(), before) {
			t.Errorf("the batch again moved versions: %v, want %v", versions(), before)
		}
	})
}

// TestBookingsBatchUnchanged: a newer version of a booking equal to the
// one held moves the version held and nothing else, in a batch of its own
// too: its member's bookings version stays.
func TestBookingsBatchUnchanged(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		now := time.Now()
		if err := demo.SeedBench(ctx, db, "!", 1, 0, 0, now, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `UPDATE members SET member_number = 'N0'`); err != nil {
			t.Fatal(err)
		}
		feed := flightops.NewReservationFeed(store.NewReservationFeedStore(db), store.NewMemberNumbers(db), db.Now)
		put := func(version int) {
			t.Helper()
			in, err := feed.Check(batchSnap(now, "UN1", version, "N0", "MM101", 10, 9, "KIMURA"))
			if err != nil {
				t.Fatal(err)
			}
			in2, err := feed.Check(batchSnap(now, "UN2", version, "", "MM102", 10, 9, "KIMURA"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := feed.ApplyBatch(ctx, []flightops.Incoming{in, in2}, false)
			if err != nil || res[0].Outcome != booking.FeedApplied || res[1].Outcome != booking.FeedApplied {
				t.Fatalf("version %d: %+v %v", version, res, err)
			}
		}
		version := func() (v int64) {
			t.Helper()
			if err := db.QueryRowContext(ctx, `SELECT bookings_version FROM members`).Scan(&v); err != nil {
				t.Fatal(err)
			}
			return v
		}
		put(1)
		v1 := version()
		put(2)
		if v2 := version(); v2 != v1 {
			t.Errorf("an unchanged booking moved the bookings version: %d → %d", v1, v2)
		}
		var held int64
		if err := db.QueryRowContext(ctx, `SELECT version FROM reservation_feed WHERE pnr = 'UN1'`).Scan(&held); err != nil || held != 2 {
			t.Errorf("version held %d (%v), want 2", held, err)
		}
	})
}
