package store_test

import (
	"context"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

// TestPreviousGateMigration: migration 00291's previous gate reaches the
// search through the bookings' views and the booking's own read; a view
// written before it (a segment without the column) reads as no previous
// gate; and the migration goes down and up again on both engines.
func TestPreviousGateMigration(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db, _ := apitest.OpenDemoDB(t, engine)
		now := time.Now().Truncate(time.Millisecond)
		r := booking.Reservation{PNR: "GATE01", MemberID: demo.Member1, BookedAt: now, StatusCode: booking.StatusConfirmed, Currency: "JPY",
			Segments: []booking.Segment{{Key: "1", StatusCode: booking.StatusConfirmed, Flight: "MM1", FlightNumber: "1", OriginAirportCode: "HND",
				DestinationAirportCode: "CTS", OriginGate: "12", DepartAt: now.Add(24 * time.Hour), ArrivalAt: now.Add(26 * time.Hour)}}}
		if err := store.InsertReservations(ctx, db, now, []booking.Reservation{r}); err != nil {
			t.Fatal(err)
		}
		setGate := func(gate, previous string) {
			t.Helper()
			if _, err := db.ExecContext(ctx, `UPDATE reservation_segments SET origin_gate = $1, previous_gate = $2, change_seq = change_seq + 1
				WHERE reservation_id = (SELECT id FROM reservations WHERE pnr = 'GATE01')`, gate, previous); err != nil {
				t.Fatal(err)
			}
		}
		st := store.NewBookingStore(db)
		read := func(step, want string) {
			t.Helper()
			got, err := st.FindByPNR(ctx, "GATE01")
			if err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			page, err := st.SearchPage(ctx, booking.Query{MemberID: demo.Member1, PNR: "GATE01", Limit: 10})
			if err != nil || len(page.List) != 1 {
				t.Fatalf("%s: search %+v, %v", step, page, err)
			}
			if g, v := got.Segments[0], page.List[0].Segments[0]; g.PreviousGate != want || v.PreviousGate != want || g.OriginGate != v.OriginGate {
				t.Fatalf("%s: previous gate %q (table), %q (view); want %q", step, g.PreviousGate, v.PreviousGate, want)
			}
		}
		setGate("31", "12")
		read("a gate change", "12")
		if err := store.MigrationDown(ctx, db, 291); err != nil {
			t.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		read("down and up again, before any write", "")
		setGate("35", "31")
		read("down and up again, after a write", "31")
	})
}
