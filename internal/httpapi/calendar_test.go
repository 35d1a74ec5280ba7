package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/store"
)

// parseICS reads a calendar with a second, independent iCalendar library
// (emersion/go-ical) and re-encodes it, which checks the RFC 5545 structure
// (PRODID and VERSION once, UID and DTSTAMP once per event…).
func parseICS(t *testing.T, body []byte) *goical.Calendar {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\r\n")) || bytes.Contains(bytes.ReplaceAll(body, []byte("\r\n"), nil), []byte("\n")) {
		t.Fatalf("lines must end in CRLF:\n%s", body)
	}
	for _, line := range strings.Split(string(body), "\r\n") {
		if len(line) > 75 {
			t.Fatalf("line longer than 75 octets: %q", line)
		}
	}
	cal, err := goical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, body)
	}
	if err := goical.NewEncoder(&bytes.Buffer{}).Encode(cal); err != nil {
		t.Fatalf("not valid iCalendar: %v\n%s", err, body)
	}
	if v, _ := cal.Props.Text(goical.PropVersion); v != "2.0" {
		t.Fatalf("VERSION %q", v)
	}
	return cal
}

func text(t *testing.T, e goical.Event, name string) string {
	t.Helper()
	p := e.Props.Get(name)
	if p == nil {
		return ""
	}
	s, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// eventsByUID indexes a calendar's events.
func eventsByUID(t *testing.T, cal *goical.Calendar) map[string]goical.Event {
	out := map[string]goical.Event{}
	for _, e := range cal.Events() {
		out[text(t, e, goical.PropUID)] = e
	}
	return out
}

// tzids lists the VTIMEZONE ids of a calendar.
func tzids(cal *goical.Calendar) map[string]bool {
	out := map[string]bool{}
	for _, c := range cal.Children {
		if c.Name == goical.CompTimezone {
			id, _ := c.Props.Text(goical.PropTimezoneID)
			out[id] = true
		}
	}
	return out
}

// demoAt is the demo seeder's departure d days after the test clock's start
// at hh:mm Japan time.
func demoAt(d, hh, mm int) time.Time {
	t := apitest.Start.In(booking.JST).AddDate(0, 0, d)
	return time.Date(t.Year(), t.Month(), t.Day(), hh, mm, 0, 0, booking.JST)
}

func TestBookingCalendarFile(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)

		// A delayed flight between two time zones: local times with TZID,
		// the estimated times, terminal, flight number and PNR.
		r := c.Get("/api/reservations/" + demo.DemoPNRDelayed + "/calendar.ics")
		if r.Status != http.StatusOK {
			t.Fatalf("status %d %s", r.Status, r.Body)
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/calendar") {
			t.Fatalf("content type %q", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, "booking-"+demo.DemoPNRDelayed+".ics") {
			t.Fatalf("disposition %q", cd)
		}
		cal := parseICS(t, r.Body)
		events := cal.Events()
		if len(events) != 1 {
			t.Fatalf("%d events", len(events))
		}
		e := events[0]
		start, end := e.Props.Get(goical.PropDateTimeStart), e.Props.Get(goical.PropDateTimeEnd)
		if start.Params.Get(goical.ParamTimezoneID) != "Asia/Tokyo" || end.Params.Get(goical.ParamTimezoneID) != "Asia/Taipei" {
			t.Fatalf("zones %v %v", start.Params, end.Params)
		}
		wantStart := demoAt(3, 9, 15).Add(95 * time.Minute)
		if start.Value != wantStart.Format("20060102T150405") {
			t.Fatalf("DTSTART %s, want %s local Tokyo", start.Value, wantStart.Format("20060102T150405"))
		}
		gotStart, _ := e.DateTimeStart(nil)
		gotEnd, _ := e.DateTimeEnd(nil)
		if !gotStart.Equal(wantStart) || !gotEnd.Equal(wantStart.Add(240*time.Minute)) {
			t.Fatalf("instants %v %v", gotStart, gotEnd)
		}
		taipei, _ := time.LoadLocation("Asia/Taipei")
		if end.Value != wantStart.Add(240*time.Minute).In(taipei).Format("20060102T150405") {
			t.Fatalf("DTEND %s is not Taipei local time", end.Value)
		}
		if !tzids(cal)["Asia/Tokyo"] || !tzids(cal)["Asia/Taipei"] {
			t.Fatalf("VTIMEZONEs %v", tzids(cal))
		}
		if s := text(t, e, goical.PropSummary); !strings.Contains(s, "MM101") || !strings.Contains(s, "Taipei") {
			t.Fatalf("summary %q", s)
		}
		if l := text(t, e, goical.PropLocation); l != "Tokyo (Narita), Terminal 3, Gate 148" {
			t.Fatalf("location %q", l)
		}
		desc := text(t, e, goical.PropDescription)
		for _, want := range []string{"Booking number (PNR): " + demo.DemoPNRDelayed, "Flight: MM101", "Departure terminal: 3",
			"Arrival terminal: 1", "Originally scheduled departure: " + i18n.FormatDate(i18n.EN, demoAt(3, 9, 15), false) + " " + demoAt(3, 9, 15).Format("15:04")} {
			if !strings.Contains(desc, want) {
				t.Fatalf("description lacks %q:\n%s", want, desc)
			}
		}
		if st, _ := e.Status(); st != goical.EventConfirmed {
			t.Fatalf("status %q", st)
		}

		// A cancelled segment is in the file, marked CANCELLED; the other is confirmed.
		r = c.Get("/api/reservations/" + strings.ToLower(demo.DemoPNRSegCanc) + "/calendar.ics")
		if r.Status != http.StatusOK {
			t.Fatalf("status %d", r.Status)
		}
		events = parseICS(t, r.Body).Events()
		if len(events) != 2 {
			t.Fatalf("%d events", len(events))
		}
		st0, _ := events[0].Status()
		st1, _ := events[1].Status()
		if st0 != goical.EventCancelled || st1 != goical.EventConfirmed {
			t.Fatalf("statuses %q %q", st0, st1)
		}

		// Text in the request's language.
		c.Lang = "jp"
		r = c.Get("/api/reservations/" + demo.DemoPNRFuture + "/calendar.ics")
		jp := parseICS(t, r.Body).Events()
		if len(jp) != 2 || !strings.Contains(text(t, jp[0], goical.PropDescription), "予約番号: "+demo.DemoPNRFuture) ||
			!strings.Contains(text(t, jp[0], goical.PropSummary), "大阪(関西)") {
			t.Fatalf("japanese event %q", text(t, jp[0], goical.PropDescription))
		}

		// Somebody else's booking, an unknown one and a malformed PNR are
		// the same 404; without a session, 403.
		for _, p := range []string{demo.DemoPNRMember2, "NOPE99", "a%20b", demo.AddablePNR1} {
			if r := c.Get("/api/reservations/" + p + "/calendar.ics"); r.Status != http.StatusNotFound {
				t.Fatalf("%s: status %d", p, r.Status)
			}
		}
		if r := env.Client(t).Get("/api/reservations/" + demo.DemoPNRFuture + "/calendar.ics"); r.Status != http.StatusForbidden {
			t.Fatalf("anonymous: status %d", r.Status)
		}
	})
}

type newSubscription struct {
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"createdAt"`
}

// feedPath is the path and query of a subscription URL.
func feedPath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Path != "/api/calendar/feed.ics" || u.Query().Get("token") == "" {
		t.Fatalf("subscription url %q", raw)
	}
	return u.RequestURI()
}

func TestCalendarSubscription(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine, apitestPublicURL("https://members.example.com"))
		c := env.Member(t)

		var st map[string]any
		c.Get("/api/calendar/subscription").JSON(t, &st)
		if st["active"] != false {
			t.Fatalf("state %v", st)
		}
		noCSRF := env.Member(t)
		noCSRF.NoCSRF = true
		if r := noCSRF.Do(http.MethodPost, "/api/calendar/subscription", nil); r.Status != http.StatusForbidden {
			t.Fatalf("without CSRF: %d", r.Status)
		}

		r := c.Do(http.MethodPost, "/api/calendar/subscription", nil)
		if r.Status != http.StatusOK {
			t.Fatalf("renew: %d %s", r.Status, r.Body)
		}
		var sub newSubscription
		r.JSON(t, &sub)
		if !strings.HasPrefix(sub.URL, "https://members.example.com/api/calendar/feed.ics?") || !strings.Contains(sub.URL, "lang=en") {
			t.Fatalf("url %q", sub.URL)
		}
		path := feedPath(t, sub.URL)
		token, _ := url.ParseQuery(strings.SplitN(path, "?", 2)[1])

		// Only a hash of the token is stored.
		var stored string
		if err := env.App.DB.QueryRowContext(context.Background(), `SELECT token_hash FROM calendar_feeds`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored == token.Get("token") || strings.Contains(stored, token.Get("token")) || len(stored) != 64 {
			t.Fatalf("stored %q for token %q", stored, token.Get("token"))
		}

		// The feed works without a session: the member's flights from 30 days
		// back, cancelled ones marked, nobody else's.
		anon := env.Client(t)
		r = anon.Get(path)
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/calendar") {
			t.Fatalf("feed: %d %s", r.Status, r.Body)
		}
		cal := parseICS(t, r.Body)
		if ri, _ := cal.Props.Text(goical.PropRefreshInterval); ri != "PT1H" && cal.Props.Get(goical.PropRefreshInterval) == nil {
			t.Fatalf("no refresh interval")
		}
		byPNR := map[string]goical.EventStatus{}
		for _, e := range cal.Events() {
			desc := text(t, e, goical.PropDescription)
			for _, p := range []string{demo.DemoPNRFuture, demo.DemoPNRDelayed, demo.DemoPNRFlightCanc, demo.DemoPNRSegCanc, demo.DemoPNROutdated, demo.DemoPNRMember2, "HKG6GH", "CTS4EF"} {
				if strings.Contains(desc, ": "+p) {
					s, _ := e.Status()
					if byPNR[p] != goical.EventCancelled {
						byPNR[p] = s
					}
				}
			}
		}
		for _, p := range []string{demo.DemoPNRFuture, demo.DemoPNRDelayed, "HKG6GH", "CTS4EF"} {
			if byPNR[p] != goical.EventConfirmed {
				t.Fatalf("%s: %q in %v", p, byPNR[p], byPNR)
			}
		}
		if byPNR[demo.DemoPNRFlightCanc] != goical.EventCancelled || byPNR[demo.DemoPNRSegCanc] != goical.EventCancelled {
			t.Fatalf("cancelled flights not marked: %v", byPNR)
		}
		if _, ok := byPNR[demo.DemoPNROutdated]; ok {
			t.Fatal("a booking flown 250 days ago is in the feed")
		}
		if _, ok := byPNR[demo.DemoPNRMember2]; ok {
			t.Fatal("another member's booking is in the feed")
		}

		// A change (the airline moves a flight) keeps the event's UID and
		// moves its start.
		before := eventsByUID(t, cal)
		moved := demoAt(10, 11, 0)
		if _, err := env.App.DB.ExecContext(context.Background(),
			`UPDATE reservation_segments SET depart_at = $1 WHERE seg_key = '1' AND reservation_id = (SELECT id FROM reservations WHERE pnr = $2)`,
			moved.UnixMilli(), demo.DemoPNRFuture); err != nil {
			t.Fatal(err)
		}
		after := eventsByUID(t, parseICS(t, anon.Get(path).Body))
		if len(after) != len(before) {
			t.Fatalf("%d events, then %d", len(before), len(after))
		}
		changed := 0
		for uid, e := range after {
			b := before[uid]
			s1, _ := b.DateTimeStart(nil)
			s2, _ := e.DateTimeStart(nil)
			if !s1.Equal(s2) {
				changed++
				if !s2.Equal(moved) {
					t.Fatalf("moved to %v, want %v", s2, moved)
				}
			}
		}
		if changed != 1 {
			t.Fatalf("%d events changed", changed)
		}

		// The state shows the last fetch, never the URL.
		env.Clock.Advance(time.Minute)
		anon.Get(path)
		r = c.Get("/api/calendar/subscription")
		r.JSON(t, &st)
		if st["active"] != true || st["lastUsedAt"] == nil || strings.Contains(string(r.Body), token.Get("token")) {
			t.Fatalf("state %s", r.Body)
		}

		// Renewing ends the old URL; a wrong or missing token is a 404/400.
		var renewed newSubscription
		c.Do(http.MethodPost, "/api/calendar/subscription", nil).JSON(t, &renewed)
		if renewed.URL == sub.URL {
			t.Fatal("same url after renewal")
		}
		if r := anon.Get(path); r.Status != http.StatusNotFound {
			t.Fatalf("old url: %d", r.Status)
		}
		if r := anon.Get(feedPath(t, renewed.URL)); r.Status != http.StatusOK {
			t.Fatalf("new url: %d", r.Status)
		}
		bad := strings.Replace(feedPath(t, renewed.URL), "token=", "token=x", 1)
		for p, want := range map[string]int{bad: 404, "/api/calendar/feed.ics?token=short": 404, "/api/calendar/feed.ics": 400} {
			if r := anon.Get(p); r.Status != want {
				t.Fatalf("%s: %d, want %d", p, r.Status, want)
			}
		}

		// Another member cannot see or end this subscription.
		var st2 map[string]any
		env.Member2(t).Get("/api/calendar/subscription").JSON(t, &st2)
		if st2["active"] != false {
			t.Fatalf("member 2 sees %v", st2)
		}

		// Stopping ends it.
		if r := c.Do(http.MethodDelete, "/api/calendar/subscription", nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %d", r.Status)
		}
		if r := anon.Get(feedPath(t, renewed.URL)); r.Status != http.StatusNotFound {
			t.Fatalf("after delete: %d", r.Status)
		}
	})
}

// apitestPublicURL sets the site's public address.
func apitestPublicURL(u string) func(*app.Config) {
	return func(c *app.Config) { c.PublicURL = u }
}
