package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/flightops"
	"members/internal/importer"
	"members/internal/store"
)

func putSnap(t *testing.T, e *apitest.Env, pnr string, snap map[string]any) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(snap)
	return apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/reservations/"+pnr, http.MethodPut, app.DemoBookingsFeedSecret, e.Clock.Now(), body)
}

// newSnap is a valid snapshot: one adult KIMURA, MM205 KIX-CTS in 20 days.
func newSnap(now time.Time, version int) map[string]any {
	dep := now.In(booking.JST).AddDate(0, 0, 20).Truncate(time.Hour)
	return map[string]any{
		"version": version, "bookingDate": now.Add(-time.Hour).In(booking.JST).Format(time.RFC3339), "statusCode": "CONFIRMED",
		"currency": "JPY", "totalAmount": 12800, "contactEmail": "kimura@example.com",
		"passengers": []any{map[string]any{"lastname": "KIMURA", "firstname": "AOI", "passengerType": "ADULT"}},
		"segments": []any{map[string]any{"key": "1", "flight": "MM205", "originAirportCode": "KIX", "destinationAirportCode": "CTS",
			"departDateTime": dep.Format(time.RFC3339), "arrivalDateTime": dep.Add(2 * time.Hour).Format(time.RFC3339),
			"statusCode": "CONFIRMED", "originTerminal": "1", "destinationTerminal": ""}},
	}
}

// snapOf is the snapshot of a stored booking, at version.
func snapOf(r booking.Reservation, version int) map[string]any {
	var pax, segs []any
	for _, p := range r.Passengers {
		pax = append(pax, map[string]any{"lastname": p.Lastname, "firstname": p.Firstname, "passengerType": p.PassengerType})
	}
	for _, g := range r.Segments {
		segs = append(segs, map[string]any{"key": g.Key, "flight": g.Flight, "originAirportCode": g.OriginAirportCode,
			"destinationAirportCode": g.DestinationAirportCode,
			"departDateTime":         g.DepartAt.In(booking.AirportZone(g.OriginAirportCode)).Format(time.RFC3339),
			"arrivalDateTime":        g.ArrivalAt.In(booking.AirportZone(g.DestinationAirportCode)).Format(time.RFC3339),
			"statusCode":             strings.ToUpper(g.StatusCode), "originTerminal": g.OriginTerminal, "destinationTerminal": g.DestinationTerminal})
	}
	return map[string]any{"version": version, "bookingDate": r.BookedAt.Format(time.RFC3339), "statusCode": r.StatusCode,
		"currency": r.Currency, "totalAmount": r.TotalAmount, "contactEmail": "demo@example.com", "passengers": pax, "segments": segs}
}

func feedRows(t *testing.T, e *apitest.Env) (n int) {
	t.Helper()
	if err := e.App.DB.QueryRow(`SELECT COUNT(*) FROM reservation_feed`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func bookingsVersion(t *testing.T, e *apitest.Env, member string) (v int64) {
	t.Helper()
	if err := e.App.DB.QueryRow(`SELECT bookings_version FROM members WHERE id = $1`, member).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The feed's signature, version order, refusals, and an unowned booking
// a member adds by its number and a last name.
func TestBookingsFeed(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		now := e.Clock.Now()
		body, _ := json.Marshal(newSnap(now, 1))
		for _, c := range []struct {
			name, secret string
			at           time.Time
			code         string
		}{
			{"no signature", "", now, "bad_signature"},
			{"wrong secret", "wrong", now, "bad_signature"},
			{"the flight feed's secret", app.DemoOpsSecret, now, "bad_signature"},
			{"six minutes old", app.DemoBookingsFeedSecret, now.Add(-6 * time.Minute), "stale_timestamp"},
			{"six minutes ahead", app.DemoBookingsFeedSecret, now.Add(6 * time.Minute), "stale_timestamp"},
		} {
			if status, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/reservations/FEED01", http.MethodPut, c.secret, c.at, body); status != http.StatusUnauthorized || m["error"] != c.code {
				t.Errorf("%s: %d %v, want 401 %s", c.name, status, m, c.code)
			}
		}
		if n := feedRows(t, e); n != 0 {
			t.Fatalf("a refused call stored %d rows", n)
		}
		// Four minutes either way is inside the window.
		status, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/reservations/FEED01", http.MethodPut, app.DemoBookingsFeedSecret, now.Add(-4*time.Minute), body)
		if status != http.StatusOK || m["outcome"] != "applied" || m["pnr"] != "FEED01" || m["version"] != 1.0 {
			t.Fatalf("first snapshot: %d %v", status, m)
		}
		if status, m := putSnap(t, e, "FEED01", newSnap(now, 1)); status != http.StatusOK || m["outcome"] != "duplicate" {
			t.Fatalf("same version: %d %v", status, m)
		}
		// Version 3 replaces it whole: another passenger, two segments.
		v3 := newSnap(now, 3)
		v3["passengers"] = []any{map[string]any{"lastname": "SATO", "firstname": "REN", "passengerType": "ADULT"},
			map[string]any{"lastname": "SATO", "firstname": "MIO", "passengerType": "CHILD"}}
		back := now.In(booking.JST).AddDate(0, 0, 25).Truncate(time.Hour)
		v3["segments"] = append(v3["segments"].([]any), map[string]any{"key": "2", "flight": "MM206", "originAirportCode": "CTS",
			"destinationAirportCode": "KIX", "departDateTime": back.Format(time.RFC3339), "arrivalDateTime": back.Add(2 * time.Hour).Format(time.RFC3339),
			"statusCode": "CONFIRMED", "originTerminal": "", "destinationTerminal": "1"})
		if status, m := putSnap(t, e, "FEED01", v3); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("version 3: %d %v", status, m)
		}
		// Version 2, late: stale, recorded, not applied.
		if status, m := putSnap(t, e, "FEED01", newSnap(now, 2)); status != http.StatusOK || m["outcome"] != "stale" || m["version"] != 2.0 {
			t.Fatalf("version 2 after 3: %d %v", status, m)
		}
		var staleCount, lastStale, held int64
		if err := e.App.DB.QueryRow(`SELECT stale_count, last_stale_version, version FROM reservation_feed WHERE pnr = 'FEED01'`).Scan(&staleCount, &lastStale, &held); err != nil ||
			staleCount != 1 || lastStale != 2 || held != 3 {
			t.Fatalf("stale record: %d %d %d %v", staleCount, lastStale, held, err)
		}
		// Nobody's booking: the old passenger's name does not add it, SATO does.
		member := e.Member(t)
		if r := member.Do(http.MethodPost, "/api/reservations", map[string]any{"pnr": "FEED01", "lastname": "KIMURA"}); r.Status != http.StatusNotFound {
			t.Fatalf("added with the replaced passenger's name: %d %s", r.Status, r.Body)
		}
		if r := member.Do(http.MethodPost, "/api/reservations", map[string]any{"pnr": "FEED01", "lastname": "Sato"}); r.Status != http.StatusOK {
			t.Fatalf("add by number and name: %d %s", r.Status, r.Body)
		}
		got := member.Get("/api/reservations/FEED01").Map(t)
		if segs := got["segments"].([]any); len(segs) != 2 || segs[1].(map[string]any)["flight"] != "MM206" {
			t.Fatalf("the booking after version 3: %v", got)
		}
		// A newer snapshot without a member number keeps the member who added it.
		if status, m := putSnap(t, e, "FEED01", v3Again(v3, 4)); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("version 4: %d %v", status, m)
		}
		if r := member.Get("/api/reservations/FEED01"); r.Status != http.StatusOK {
			t.Fatalf("the member lost the booking at version 4: %d", r.Status)
		}

		// Refusals: 400 / 413, nothing stored.
		before := feedRows(t, e)
		put := func(b []byte) (int, map[string]any) {
			return apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/reservations/FEED02", http.MethodPut, app.DemoBookingsFeedSecret, now, b)
		}
		if status, m := put([]byte(`{"version":`)); status != http.StatusBadRequest || m["error"] != "malformed" {
			t.Errorf("not JSON: %d %v", status, m)
		}
		unknown := newSnap(now, 1)
		unknown["colour"] = "red"
		b, _ := json.Marshal(unknown)
		if status, m := put(b); status != http.StatusBadRequest || m["error"] != "malformed" {
			t.Errorf("unknown field: %d %v", status, m)
		}
		big := newSnap(now, 1)
		big["contactEmail"] = strings.Repeat("a", 70<<10) + "@example.com"
		b, _ = json.Marshal(big)
		if status, m := put(b); status != http.StatusRequestEntityTooLarge || m["error"] != "too_large" {
			t.Errorf("over the limit: %d %v", status, m)
		}
		if n := feedRows(t, e); n != before {
			t.Errorf("refusals stored rows: %d, was %d", n, before)
		}
	})
}

func v3Again(v3 map[string]any, version int) map[string]any {
	out := map[string]any{}
	for k, v := range v3 {
		out[k] = v
	}
	out["version"] = version
	out["totalAmount"] = 25600
	return out
}

// Every field rule of a snapshot: 400 invalid naming the field, nothing stored.
func TestBookingsFeedFieldRules(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		addMemberNumbers(t, e)
		now := e.Clock.Now()
		seg := func(s map[string]any) map[string]any { return s["segments"].([]any)[0].(map[string]any) }
		pax := func(s map[string]any) map[string]any { return s["passengers"].([]any)[0].(map[string]any) }
		dep := now.In(booking.JST).AddDate(0, 0, 20).Truncate(time.Hour)
		cases := []struct {
			name, pnr, field string
			edit             func(s map[string]any)
		}{
			{"pnr not alphanumeric", "AB-12", "pnr", func(map[string]any) {}},
			{"pnr too long", strings.Repeat("A", 21), "pnr", func(map[string]any) {}},
			{"no version", "", "version", func(s map[string]any) { delete(s, "version") }},
			{"version zero", "", "version", func(s map[string]any) { s["version"] = 0 }},
			{"version not an integer", "", "version", func(s map[string]any) { s["version"] = 1.5 }},
			{"member number with a space", "", "memberNumber", func(s map[string]any) { s["memberNumber"] = "M 1" }},
			{"unknown member number", "", "memberNumber", func(s map[string]any) { s["memberNumber"] = "NOBODY1" }},
			{"no booking date", "", "bookingDate", func(s map[string]any) { delete(s, "bookingDate") }},
			{"booking date without offset", "", "bookingDate", func(s map[string]any) { s["bookingDate"] = "2026-11-01T10:00:00" }},
			{"booking date in the future", "", "bookingDate", func(s map[string]any) { s["bookingDate"] = now.Add(time.Hour).Format(time.RFC3339) }},
			{"unknown status", "", "statusCode", func(s map[string]any) { s["statusCode"] = "HELD" }},
			{"unknown currency", "", "currency", func(s map[string]any) { s["currency"] = "EUR" }},
			{"negative amount", "", "totalAmount", func(s map[string]any) { s["totalAmount"] = -1 }},
			{"amount with decimals", "", "totalAmount", func(s map[string]any) { s["totalAmount"] = 128.5 }},
			{"bad contact e-mail", "", "contactEmail", func(s map[string]any) { s["contactEmail"] = "kimura" }},
			{"no passengers", "", "passengers", func(s map[string]any) { s["passengers"] = []any{} }},
			{"lastname not Latin", "", "passengers[0].lastname", func(s map[string]any) { pax(s)["lastname"] = "木村" }},
			{"no firstname", "", "passengers[0].firstname", func(s map[string]any) { pax(s)["firstname"] = "" }},
			{"unknown passenger type", "", "passengers[0].passengerType", func(s map[string]any) { pax(s)["passengerType"] = "SENIOR" }},
			{"no segments", "", "segments", func(s map[string]any) { s["segments"] = []any{} }},
			{"no key", "", "segments[0].key", func(s map[string]any) { seg(s)["key"] = "" }},
			{"keys twice", "", "segments[1].key", func(s map[string]any) {
				s["segments"] = append(s["segments"].([]any), s["segments"].([]any)[0])
			}},
			{"bad flight", "", "segments[0].flight", func(s map[string]any) { seg(s)["flight"] = "MM 205" }},
			{"unknown origin", "", "segments[0].originAirportCode", func(s map[string]any) { seg(s)["originAirportCode"] = "LHR" }},
			{"unknown destination", "", "segments[0].destinationAirportCode", func(s map[string]any) { seg(s)["destinationAirportCode"] = "XXX" }},
			{"same airports", "", "segments[0].destinationAirportCode", func(s map[string]any) { seg(s)["destinationAirportCode"] = "KIX" }},
			{"departure not RFC 3339", "", "segments[0].departDateTime", func(s map[string]any) { seg(s)["departDateTime"] = "2026-12-01 08:30" }},
			{"departure in UTC", "", "segments[0].departDateTime", func(s map[string]any) { seg(s)["departDateTime"] = dep.UTC().Format(time.RFC3339) }},
			{"arrival at another offset", "", "segments[0].arrivalDateTime", func(s map[string]any) {
				seg(s)["arrivalDateTime"] = dep.Add(2 * time.Hour).In(time.FixedZone("", 8*3600)).Format(time.RFC3339)
			}},
			{"arrival before departure", "", "segments[0].arrivalDateTime", func(s map[string]any) { seg(s)["arrivalDateTime"] = dep.Add(-time.Hour).Format(time.RFC3339) }},
			{"unknown segment status", "", "segments[0].statusCode", func(s map[string]any) { seg(s)["statusCode"] = "WAITLIST" }},
			{"bad terminal", "", "segments[0].originTerminal", func(s map[string]any) { seg(s)["originTerminal"] = "Terminal 1" }},
			{"bad arrival terminal", "", "segments[0].destinationTerminal", func(s map[string]any) { seg(s)["destinationTerminal"] = "T/2" }},
		}
		for _, c := range cases {
			s := newSnap(now, 1)
			c.edit(s)
			pnr := c.pnr
			if pnr == "" {
				pnr = "RULE01"
			}
			status, m := putSnap(t, e, pnr, s)
			if status != http.StatusBadRequest || m["error"] != "invalid" || m["field"] != c.field || m["message"] == "" {
				t.Errorf("%s: %d %v, want 400 invalid %s", c.name, status, m, c.field)
			}
		}
		if n := feedRows(t, e); n != 0 {
			t.Errorf("refused snapshots stored %d rows", n)
		}
		// The same snapshot, unedited, is taken.
		if status, m := putSnap(t, e, "RULE01", newSnap(now, 1)); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("valid snapshot: %d %v", status, m)
		}
	})
}

func TestBookingsFeedSecrets(t *testing.T) {
	e := apitest.New(t, store.SQLite, func(c *app.Config) { c.Demo = false })
	body, _ := json.Marshal(newSnap(e.Clock.Now(), 1))
	if status, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/reservations/SEC001", http.MethodPut, app.DemoBookingsFeedSecret, e.Clock.Now(), body); status != http.StatusServiceUnavailable || m["error"] != "not_configured" {
		t.Fatalf("no secret: %d %v", status, m)
	}
	r := apitest.New(t, store.SQLite, func(c *app.Config) {
		c.BookingsFeedSecret, c.BookingsFeedSecretPrevious = "current-secret", "previous-secret"
	})
	now := r.Clock.Now()
	if status, _ := apitest.SignedFeedCall(t, r.Server.URL+"/ops/v1/reservations/SEC001", http.MethodPut, app.DemoBookingsFeedSecret, now, body); status != http.StatusUnauthorized {
		t.Fatalf("the demo secret beside a configured one: %d", status)
	}
	if status, m := apitest.SignedFeedCall(t, r.Server.URL+"/ops/v1/reservations/SEC001", http.MethodPut, "previous-secret", now, body); status != http.StatusOK || m["outcome"] != "applied" {
		t.Fatalf("previous secret: %d %v", status, m)
	}
	if status, m := apitest.SignedFeedCall(t, r.Server.URL+"/ops/v1/reservations/SEC001", http.MethodPut, "current-secret", now, body); status != http.StatusOK || m["outcome"] != "duplicate" {
		t.Fatalf("current secret: %d %v", status, m)
	}
	if status, m := apitest.SignedFeedCall(t, r.Server.URL+"/ops/v1/reservations/SEC001", http.MethodPut, "previous-secret", now.Add(-10*time.Minute), body); status != http.StatusUnauthorized || m["error"] != "stale_timestamp" {
		t.Fatalf("previous secret, stale: %d %v", status, m)
	}
}

// addMemberNumbers gives member 1 the member number M0001 (the column
// of the members provisioning feed, migration 00260).
func addMemberNumbers(t *testing.T, e *apitest.Env) {
	t.Helper()
	if _, err := e.App.DB.Exec(`UPDATE members SET member_number = 'M0001' WHERE id = $1`, demo.Member1); err != nil {
		t.Fatal(err)
	}
}

// A snapshot naming a member number is in that member's account at once;
// cancelled, it leaves the upcoming list and stays under all; purged, it
// is gone, and an older snapshot after the purge is stale.
func TestBookingsFeedOwnerCancelPurge(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		addMemberNumbers(t, e)
		member := e.Member(t)
		list := func(status string) string {
			t.Helper()
			r := member.Get("/api/reservations?status=" + status + "&perPage=50")
			if r.Status != http.StatusOK {
				t.Fatalf("search: %d %s", r.Status, r.Body)
			}
			return string(r.Body)
		}
		// The search is cached by the bookings version: ask first, so a
		// stale cache would show.
		if strings.Contains(list("ACTIVE"), "OWN001") {
			t.Fatal("listed before the feed")
		}
		s := newSnap(e.Clock.Now(), 1)
		s["memberNumber"] = "M0001"
		if status, m := putSnap(t, e, "OWN001", s); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("owned snapshot: %d %v", status, m)
		}
		if !strings.Contains(list("ACTIVE"), "OWN001") {
			t.Fatal("the member's booking is not in the account at once")
		}
		if r := e.Member2(t).Get("/api/reservations/OWN001"); r.Status != http.StatusNotFound {
			t.Fatalf("another member sees it: %d", r.Status)
		}
		s["version"], s["statusCode"] = 2, "CANCELLED"
		seg := s["segments"].([]any)[0].(map[string]any)
		seg["statusCode"] = "CANCELLED"
		if status, m := putSnap(t, e, "OWN001", s); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("cancellation: %d %v", status, m)
		}
		if strings.Contains(list("ACTIVE"), "OWN001") || !strings.Contains(list("all"), "OWN001") {
			t.Fatal("a cancelled booking: out of the upcoming list, kept under all")
		}
		before := bookingsVersion(t, e, demo.Member1)
		del := func(version string) (int, map[string]any) {
			return apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/reservations/OWN001?version="+version, http.MethodDelete, app.DemoBookingsFeedSecret, e.Clock.Now(), nil)
		}
		if status, m := del("1"); status != http.StatusOK || m["outcome"] != "stale" {
			t.Fatalf("purge at an older version: %d %v", status, m)
		}
		if status, m := del("x"); status != http.StatusBadRequest || m["field"] != "version" {
			t.Fatalf("purge without a version: %d %v", status, m)
		}
		if status, m := del("3"); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("purge: %d %v", status, m)
		}
		if status, m := del("3"); status != http.StatusOK || m["outcome"] != "duplicate" {
			t.Fatalf("purge again: %d %v", status, m)
		}
		if bookingsVersion(t, e, demo.Member1) == before || strings.Contains(list("all"), "OWN001") {
			t.Fatal("the purged booking is still listed")
		}
		if r := member.Get("/api/reservations/OWN001"); r.Status != http.StatusNotFound {
			t.Fatalf("purged booking: %d", r.Status)
		}
		s["version"] = 2
		if status, m := putSnap(t, e, "OWN001", s); status != http.StatusOK || m["outcome"] != "stale" {
			t.Fatalf("older snapshot after the purge: %d %v", status, m)
		}
		if strings.Contains(list("all"), "OWN001") {
			t.Fatal("a stale snapshot brought the purged booking back")
		}
	})
}

// A snapshot that moves a flight's schedule is a time change of the
// flight: the booking's times, flightChange and calendar SEQUENCE move,
// the bookings version moves, and the member gets the flight change mail.
func TestBookingsFeedScheduleChange(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		member := e.Member(t)
		r, err := store.NewBookingStore(e.App.DB).FindByPNR(t.Context(), demoPNR)
		if err != nil {
			t.Fatal(err)
		}
		// The same schedule first: applied, no flight change.
		if status, m := putSnap(t, e, demoPNR, snapOf(r, 1)); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("version 1: %d %v", status, m)
		}
		if seg := firstSegment(t, member); seg["flightChange"] != nil || countEvents(t, e) != 0 {
			t.Fatalf("an unchanged schedule made a change: %v", seg)
		}
		before := bookingsVersion(t, e, demo.Member1)
		s := snapOf(r, 2)
		g := s["segments"].([]any)[0].(map[string]any)
		dep := r.Segments[0].DepartAt.Add(35 * time.Minute)
		g["departDateTime"] = dep.In(booking.JST).Format(time.RFC3339)
		g["arrivalDateTime"] = r.Segments[0].ArrivalAt.Add(35 * time.Minute).In(booking.AirportZone(r.Segments[0].DestinationAirportCode)).Format(time.RFC3339)
		if status, m := putSnap(t, e, demoPNR, s); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("version 2: %d %v", status, m)
		}
		seg := firstSegment(t, member)
		ch, _ := seg["flightChange"].(map[string]any)
		if seg["departDateTime"] != "2026-11-30T09:05:00+09:00" || ch["kind"] != "time_change" || ch["sequence"] != 1.0 ||
			ch["previousDepartDateTime"] != "2026-11-30T08:30:00+09:00" {
			t.Fatalf("segment after the retime: %v", seg)
		}
		if bookingsVersion(t, e, demo.Member1) == before {
			t.Fatal("the bookings version did not move")
		}
		st, _, events, err := e.App.FlightOps().Show(t.Context(), demoFlight, demoDate)
		if err != nil || st.Sequence != 1 || len(events) != 1 || events[0].Source != flightops.SourceReservations {
			t.Fatalf("flight state %+v, events %+v, %v", st, events, err)
		}
		cal := member.Get("/api/reservations/" + demoPNR + "/calendar.ics")
		found := false
		for _, ev := range parseICS(t, cal.Body).Events() {
			if strings.Contains(text(t, ev, goical.PropSummary), demoFlight) {
				found = true
				if p := ev.Props.Get(goical.PropSequence); p == nil || p.Value != "1" || ev.Props.Get(goical.PropDateTimeStart).Value != "20261130T090500" {
					t.Fatalf("calendar event after the retime:\n%s", cal.Body)
				}
			}
		}
		if !found {
			t.Fatalf("no %s event", demoFlight)
		}
		// The same snapshot again changes nothing more; a third version
		// with the same times keeps the change (no second flight event).
		if status, m := putSnap(t, e, demoPNR, s); status != http.StatusOK || m["outcome"] != "duplicate" {
			t.Fatalf("resend: %d %v", status, m)
		}
		s["version"] = 3
		if status, m := putSnap(t, e, demoPNR, s); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("version 3: %d %v", status, m)
		}
		if seg := firstSegment(t, member); seg["flightChange"].(map[string]any)["sequence"] != 1.0 || countEvents(t, e) != 1 {
			t.Fatalf("an unchanged version 3 moved the flight again: %v", seg)
		}
		e.Clock.Advance(flightops.CoalesceWindow + time.Minute)
		if n := sendConcurrently(t, e); n != 1 {
			t.Fatalf("flight change mails: %d, want 1", n)
		}
		if mails := flightMails(t, e); len(mails) != 1 || mails[0].to != apitest.DemoEmail || !strings.Contains(mails[0].text, "09:05") {
			t.Fatalf("mails: %+v", mails)
		}
	})
}

// Two instances receive the same snapshot at once: one applies it, the
// other answers duplicate.
func TestBookingsFeedRace(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		other := e.Instance(t)
		for round := range 3 {
			body, _ := json.Marshal(newSnap(e.Clock.Now(), round+1))
			outcomes := make([]string, 2)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, env := range []*apitest.Env{e, other} {
				wg.Go(func() {
					<-start
					_, m := apitest.SignedFeedCall(t, env.Server.URL+"/ops/v1/reservations/RACE01", http.MethodPut, app.DemoBookingsFeedSecret, e.Clock.Now(), body)
					outcomes[i], _ = m["outcome"].(string)
				})
			}
			close(start)
			wg.Wait()
			if fmt.Sprint(outcomes) != "[applied duplicate]" && fmt.Sprint(outcomes) != "[duplicate applied]" {
				t.Fatalf("round %d: outcomes %v, want one applied and one duplicate", round, outcomes)
			}
		}
		var n int
		if err := e.App.DB.QueryRow(`SELECT COUNT(*) FROM reservation_segments s JOIN reservations r ON r.id = s.reservation_id WHERE r.pnr = 'RACE01'`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("segments of RACE01: %d %v", n, err)
		}
	})
}

// The import's batch: one transaction, one result per line; a refused
// line writes nothing and does not stop the others; a dry run writes
// nothing at all.
func TestBookingsFeedBatch(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		addMemberNumbers(t, e)
		feed := e.App.ReservationFeed()
		mk := func(line int, pnr, number string, version int) flightops.Incoming {
			t.Helper()
			raw, _ := json.Marshal(newSnap(e.Clock.Now(), version))
			var s booking.Snapshot
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			s.PNR, s.MemberNumber = pnr, number
			in, err := feed.Check(s)
			if err != nil {
				t.Fatal(err)
			}
			in.Line = line
			return in
		}
		batch := []flightops.Incoming{mk(1, "BAT001", "", 1), mk(2, "BAT002", "NOBODY", 1), mk(3, "BAT003", "M0001", 1), mk(4, "BAT001", "", 1)}
		res, err := feed.ApplyBatch(t.Context(), batch, true)
		if err != nil || len(res) != 4 || res[0].Outcome != "applied" || res[1].Err == nil || res[3].Outcome != "duplicate" {
			t.Fatalf("dry run: %+v %v", res, err)
		}
		if n := feedRows(t, e); n != 0 {
			t.Fatalf("the dry run wrote %d rows", n)
		}
		res, err = feed.ApplyBatch(t.Context(), batch, false)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"applied", "", "applied", "duplicate"}
		for i, r := range res {
			if r.Outcome != want[i] || r.Line != i+1 || (i == 1) != (r.Err != nil) {
				t.Errorf("line %d: %+v, want %q", i+1, r, want[i])
			}
		}
		var n int
		if err := e.App.DB.QueryRow(`SELECT COUNT(*) FROM reservations WHERE pnr IN ('BAT001', 'BAT002', 'BAT003')`).Scan(&n); err != nil || n != 2 {
			t.Fatalf("bookings written: %d %v", n, err)
		}
		if feedRows(t, e) != 2 {
			t.Fatal("the refused line left its feed row")
		}
		if r := e.Member(t).Get("/api/reservations/BAT003"); r.Status != http.StatusOK {
			t.Fatalf("the owned line's booking: %d", r.Status)
		}
	})
}

// The bookings import runs against a serving site: the member's searches
// answer while its batches commit, and the member's own booking in the
// file is in the account when it ends.
func TestImportBookingsWhileServing(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		addMemberNumbers(t, e)
		member := e.Member(t)
		var file bytes.Buffer
		const n = 600
		for i := 1; i <= n; i++ {
			s := newSnap(e.Clock.Now(), 1)
			s["pnr"] = fmt.Sprintf("SRV%04d", i)
			if i == n {
				s["memberNumber"] = "M0001"
			}
			raw, _ := json.Marshal(s)
			file.Write(raw)
			file.WriteByte('\n')
		}
		done := make(chan error, 1)
		go func() {
			sum, err := e.App.ImportBookings(t.Context(), &file, importer.Options{Batch: 50})
			if err == nil && sum.String() != fmt.Sprintf("applied %d, stale 0, duplicate 0, rejected 0", n) {
				err = fmt.Errorf("summary %q", sum.String())
			}
			done <- err
		}()
		searches := 0
		for running := true; running; {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				running = false
			default:
				if searches == 100 { // enough to overlap the batches; then wait for the end
					if err := <-done; err != nil {
						t.Fatal(err)
					}
					running = false
					continue
				}
				if r := member.Get("/api/reservations?status=all&perPage=5"); r.Status != http.StatusOK {
					t.Fatalf("search during the import: %d %s", r.Status, r.Body)
				}
				searches++
			}
		}
		if r := member.Get(fmt.Sprintf("/api/reservations/SRV%04d", n)); r.Status != http.StatusOK {
			t.Fatalf("the member's imported booking: %d", r.Status)
		}
		t.Logf("%d searches answered during the import", searches)
	})
}
