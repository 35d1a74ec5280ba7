package httpapi_test

import (
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// TestFlightEventsRememberThePreviousGate: each gate change keeps the gate
// the booking showed before it (flightChange.previousGate), in the booking's
// own answer, the search (read from the bookings' views) and the home
// page's list of changed flights alike; an event that leaves the gate as it
// is keeps it; a snapshot of the booking from the reservation system on
// the same flight carries it over. A delay past midnight keeps the
// schedule and gives the estimate on its new date.
func TestFlightEventsRememberThePreviousGate(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		now := e.Clock.Now()
		member := e.Member(t)
		post := func(id, kind, occurred, extra string) {
			t.Helper()
			if status, m := postEvent(t, e, app.DemoOpsSecret, now, eventJSON(id, kind, occurred, extra)); status != http.StatusOK || m["outcome"] != "applied" {
				t.Fatalf("%s: %d %v", id, status, m)
			}
		}
		// Every way the pages read the segment says the same.
		check := func(step, gate, previous string) map[string]any {
			t.Helper()
			var seg map[string]any
			for _, path := range []string{
				"/api/reservations/" + demoPNR,
				"/api/reservations?pnr=" + demoPNR + "&withFlightStatus=true",
				"/api/reservations?changed=true&status=all&withFlightStatus=true",
			} {
				r := member.Get(path)
				if r.Status != http.StatusOK {
					t.Fatalf("%s: %s: %d %s", step, path, r.Status, r.Body)
				}
				m := r.Map(t)
				if list, ok := m["reservations"].([]any); ok {
					m = nil
					for _, x := range list {
						if x.(map[string]any)["pnr"] == demoPNR {
							m = x.(map[string]any)
						}
					}
					if m == nil {
						t.Fatalf("%s: %s: no %s in %s", step, path, demoPNR, r.Body)
					}
				}
				seg = m["segments"].([]any)[0].(map[string]any)
				ch, _ := seg["flightChange"].(map[string]any)
				got, _ := ch["previousGate"].(string)
				if seg["originGate"] != gate || got != previous {
					t.Fatalf("%s: %s: gate %v, previous %q; want %q, %q (%v)", step, path, seg["originGate"], got, gate, previous, seg)
				}
			}
			return seg
		}
		if seg := firstSegment(t, member); seg["originGate"] != "12" || seg["flightChange"] != nil {
			t.Fatalf("the demo booking before any event: %v", seg)
		}
		post("g-1", "gate", "2026-11-20T05:00:00Z", `,"gate":"31"`)
		check("a gate change", "31", "12")
		post("g-2", "gate", "2026-11-20T05:10:00Z", `,"gate":"31","terminal":"2"`)
		check("the same gate again, a new terminal", "31", "12")
		post("g-3", "gate", "2026-11-20T05:20:00Z", `,"gate":"35"`)
		check("a second gate change", "35", "31")
		// A delay past midnight: the schedule stays, the estimate is on the next day.
		post("d-1", "delay", "2026-11-20T05:30:00Z", `,"departure":"2026-12-01T00:40:00+09:00"`)
		seg := check("a delay past midnight", "35", "31")
		if seg["departDateTime"] != "2026-11-30T08:30:00+09:00" || seg["estimatedDepartDateTime"] != "2026-12-01T00:40:00+09:00" ||
			seg["estimatedArrivalDateTime"] != "2026-12-01T02:30:00+09:00" {
			t.Fatalf("the delay past midnight: %v", seg)
		}
		// An older gate event arriving late changes nothing.
		if status, m := postEvent(t, e, app.DemoOpsSecret, now, eventJSON("g-0", "gate", "2026-11-20T04:00:00Z", `,"gate":"7"`)); status != http.StatusOK || m["outcome"] != "stale" {
			t.Fatalf("late older gate: %d %v", status, m)
		}
		check("a late older gate event", "35", "31")
		// The reservation system resends the booking on the same flight.
		r, err := store.NewBookingStore(e.App.DB).FindByPNR(t.Context(), demoPNR)
		if err != nil {
			t.Fatal(err)
		}
		if status, m := putSnap(t, e, demoPNR, snapOf(r, 1)); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("snapshot: %d %v", status, m)
		}
		check("a snapshot on the same flight", "35", "31")
		// Cancelled: the answer still says what was; the pages show no gate (their rule).
		post("c-1", "cancellation", "2026-11-20T05:40:00Z", "")
		if seg := check("cancelled", "35", "31"); seg["flightStatus"] != "CANCELLED" {
			t.Fatalf("cancelled: %v", seg)
		}
	})
}
