package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// TestBookingSearchAcrossInstances: two instances of the server on one
// database. Each keeps the answers of recent searches (searchcache.go);
// whatever changes a booking, on the other instance, straight in the
// database, or by the passing of time, shows in the next answer at once,
// and a logout on one instance ends the session on the other.
func TestBookingSearchAcrossInstances(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		a := apitest.New(t, engine)
		b := a.Instance(t)
		onA := a.Member(t)
		onB := b.Client(t)
		onB.SetCookie("members_session", onA.Cookie("members_session"))

		all := url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(a, 0)},
			"status": {"all"}, "order": {"desc"}, "perPage": {"50"}}
		first, r1 := search(t, onA, all)
		again, r2 := search(t, onA, all)
		if r1.Status != http.StatusOK || first.Total != 16 || !bytes.Equal(r1.Body, r2.Body) || again.Total != 16 {
			t.Fatalf("search twice on A = %d %d / %d %d", r1.Status, first.Total, r2.Status, again.Total)
		}

		// A booking added on B: A's next answer has it.
		if r := onB.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.AddablePNR1, "lastname": "Yamada"}); r.Status != http.StatusOK {
			t.Fatalf("add on B = %d %s", r.Status, r.Body)
		}
		res, _ := search(t, onA, all)
		if res.Total != 17 || !slices.Contains(res.pnrs(), demo.AddablePNR1) {
			t.Fatalf("A after an add on B = %d %v", res.Total, res.pnrs())
		}

		// Another writer (a flight status feed, say) changes a passenger and
		// a segment straight in the database.
		if _, err := b.App.DB.ExecContext(ctx, `UPDATE reservation_passengers SET firstname = 'Renamed'
			WHERE reservation_id = (SELECT id FROM reservations WHERE pnr = $1)`, demo.DemoPNRPast); err != nil {
			t.Fatal(err)
		}
		if _, r := search(t, onA, all); !bytes.Contains(r.Body, []byte(`"Renamed"`)) {
			t.Fatalf("A after a passenger change = %s", r.Body)
		}
		withStatus := url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(a, 0)},
			"status": {"all"}, "pnr": {demo.DemoPNRFuture}, "withFlightStatus": {"true"}}
		before, _ := search(t, onA, withStatus)
		if _, err := b.App.DB.ExecContext(ctx, `UPDATE reservation_segments SET flight_status = 'CANCELLED'
			WHERE reservation_id = (SELECT id FROM reservations WHERE pnr = $1)`, demo.DemoPNRFuture); err != nil {
			t.Fatal(err)
		}
		after, _ := search(t, onA, withStatus)
		if len(before.Reservations) != 1 || len(after.Reservations) != 1 ||
			before.Reservations[0].Segments[0].FlightStatus == "CANCELLED" || after.Reservations[0].Segments[0].FlightStatus != "CANCELLED" {
			t.Fatalf("flight status before/after = %+v / %+v", before.Reservations, after.Reservations)
		}

		// Time: an ACTIVE booking leaves the list once its last flight has
		// departed, though nothing in the database changed.
		active := url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(a, 0)},
			"status": {"ACTIVE"}, "order": {"asc"}, "perPage": {"50"}}
		soon := a.Clock.Now().Add(10 * time.Minute).UnixMilli() // a flight 10 minutes from now (within the session's idle time)
		if _, err := b.App.DB.ExecContext(ctx, `UPDATE reservations SET first_depart_at = $1, last_depart_at = $1 WHERE pnr = $2`,
			soon, demo.DemoPNRDelayed); err != nil {
			t.Fatal(err)
		}
		now, _ := search(t, onA, active)
		if again, r := search(t, onA, active); !slices.Equal(again.pnrs(), now.pnrs()) || !slices.Contains(now.pnrs(), demo.DemoPNRDelayed) {
			t.Fatalf("ACTIVE = %v then %v (%d)", now.pnrs(), again.pnrs(), r.Status)
		}
		a.Clock.Advance(11 * time.Minute)
		later, _ := search(t, onA, active)
		if later.Total != now.Total-1 || slices.Contains(later.pnrs(), demo.DemoPNRDelayed) {
			t.Fatalf("ACTIVE after a last departure = %v (was %v)", later.pnrs(), now.pnrs())
		}

		// A logout on B ends the session on A at once.
		if r := onB.Do(http.MethodDelete, "/api/session", nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout on B = %d %s", r.Status, r.Body)
		}
		if _, r := search(t, onA, all); r.Status != http.StatusForbidden {
			t.Fatalf("search on A after logout on B = %d", r.Status)
		}
	})
}
