package httpapi_test

import (
	"bytes"
	"database/sql"
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
	"members/internal/i18n"
	"members/internal/store"
)

// postEvent sends body to the flight events feed of e signed with secret at t.
func postEvent(t *testing.T, e *apitest.Env, secret string, at time.Time, body []byte) (int, map[string]any) {
	t.Helper()
	return apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/flight-events", http.MethodPost, secret, at, body)
}

// MM001 KIX-ICN, demo member 1's booking HNK7Q2, departs 2026-11-30 08:30 Japan time.
const demoFlight, demoDate, demoPNR = "MM001", "2026-11-30", "HNK7Q2"

func eventJSON(id, kind, occurred string, extra string) []byte {
	return []byte(fmt.Sprintf(`{"id":%q,"flight":%q,"date":%q,"kind":%q,"occurredAt":%q%s}`, id, demoFlight, demoDate, kind, occurred, extra))
}

func countEvents(t *testing.T, e *apitest.Env) int {
	t.Helper()
	var n int
	if err := e.App.DB.QueryRow(`SELECT COUNT(*) FROM flight_events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func firstSegment(t *testing.T, c *apitest.Client) map[string]any {
	t.Helper()
	r := c.Get("/api/reservations/" + demoPNR)
	if r.Status != http.StatusOK {
		t.Fatalf("reservation: %d %s", r.Status, r.Body)
	}
	return r.Map(t)["segments"].([]any)[0].(map[string]any)
}

func TestFlightEventsFeed(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		now := e.Clock.Now()
		member := e.Member(t)

		// A delay: applied to the member's booking.
		status, m := postEvent(t, e, app.DemoOpsSecret, now, eventJSON("ev-1", "delay", "2026-11-20T05:00:00Z",
			`,"departure":"2026-11-30T10:40:00+09:00","gate":"31"`))
		if status != http.StatusOK || m["outcome"] != "applied" || m["bookings"] != 1.0 || m["eventId"] != "ev-1" {
			t.Fatalf("delay: %d %v", status, m)
		}
		seg := firstSegment(t, member)
		if seg["estimatedDepartDateTime"] != "2026-11-30T10:40:00+09:00" || seg["estimatedArrivalDateTime"] != "2026-11-30T12:30:00+09:00" ||
			seg["departDateTime"] != "2026-11-30T08:30:00+09:00" || seg["flightStatus"] != "NOT_YET_DEPARTED_WITH_DELAY" ||
			seg["originGate"] != "31" || seg["isIrregular"] != true {
			t.Fatalf("segment after the delay: %v", seg)
		}

		// The same id again: nothing more happens.
		status, m = postEvent(t, e, app.DemoOpsSecret, now, eventJSON("ev-1", "cancellation", "2026-11-20T05:30:00Z", ""))
		if status != http.StatusOK || m["outcome"] != "duplicate" || m["bookings"] != 1.0 {
			t.Fatalf("resend: %d %v", status, m)
		}
		if seg := firstSegment(t, member); seg["flightStatus"] != "NOT_YET_DEPARTED_WITH_DELAY" {
			t.Fatalf("a resend changed the segment: %v", seg)
		}

		// A newer delay, then an older one arriving late: the newer stays.
		postEvent(t, e, app.DemoOpsSecret, now, eventJSON("ev-3", "delay", "2026-11-20T05:40:00Z", `,"departure":"2026-11-30T11:00:00+09:00"`))
		status, m = postEvent(t, e, app.DemoOpsSecret, now, eventJSON("ev-2", "delay", "2026-11-20T05:20:00Z", `,"departure":"2026-11-30T09:00:00+09:00"`))
		if status != http.StatusOK || m["outcome"] != "stale" || m["bookings"] != 0.0 {
			t.Fatalf("late older event: %d %v", status, m)
		}
		if seg := firstSegment(t, member); seg["estimatedDepartDateTime"] != "2026-11-30T11:00:00+09:00" {
			t.Fatalf("the late older event overwrote the newer: %v", seg)
		}
		ch, _ := firstSegment(t, member)["flightChange"].(map[string]any)
		if ch["kind"] != "delay" || ch["sequence"] != 2.0 || ch["previousDepartDateTime"] != "2026-11-30T08:30:00+09:00" ||
			ch["previousArrivalDateTime"] != "2026-11-30T10:20:00+09:00" {
			t.Fatalf("flightChange after two delays: %v", ch)
		}
		// A time change: the schedule moves, the estimates go, the first
		// schedule stays as the previous one; the search shows it too.
		postEvent(t, e, app.DemoOpsSecret, now, eventJSON("ev-4", "time_change", "2026-11-20T05:50:00Z", `,"departure":"2026-11-30T09:05:00+09:00"`))
		r := member.Get("/api/reservations?pnr=" + demoPNR + "&withFlightStatus=true")
		found := r.Map(t)["reservations"].([]any)[0].(map[string]any)["segments"].([]any)[0].(map[string]any)
		ch, _ = found["flightChange"].(map[string]any)
		if found["departDateTime"] != "2026-11-30T09:05:00+09:00" || found["estimatedDepartDateTime"] != nil ||
			ch["kind"] != "time_change" || ch["previousDepartDateTime"] != "2026-11-30T08:30:00+09:00" {
			t.Fatalf("search after the time change: %v", found)
		}
		st, found2, events, err := e.App.FlightOps().Show(t.Context(), demoFlight, demoDate)
		if err != nil || !found2 || st.Sequence != 3 || len(events) != 4 {
			t.Fatalf("state %+v %v, %d events, %v", st, found, len(events), err)
		}

		// Refusals: a clear 4xx each, nothing stored.
		before := countEvents(t, e)
		refusals := []struct {
			name   string
			secret string
			at     time.Time
			body   []byte
			status int
			code   string
		}{
			{"unknown flight", app.DemoOpsSecret, now, []byte(`{"id":"x1","flight":"MM999","date":"2026-11-30","kind":"cancellation","occurredAt":"2026-11-20T05:00:00Z"}`), 422, "unknown_flight"},
			{"flight on another day", app.DemoOpsSecret, now, []byte(`{"id":"x2","flight":"MM001","date":"2026-12-01","kind":"cancellation","occurredAt":"2026-11-20T05:00:00Z"}`), 422, "unknown_flight"},
			{"bad signature", "wrong-secret", now, eventJSON("x3", "cancellation", "2026-11-20T05:00:00Z", ""), 401, "bad_signature"},
			{"no signature", "", now, eventJSON("x4", "cancellation", "2026-11-20T05:00:00Z", ""), 401, "bad_signature"},
			{"stale timestamp", app.DemoOpsSecret, now.Add(-6 * time.Minute), eventJSON("x5", "cancellation", "2026-11-20T05:00:00Z", ""), 401, "stale_timestamp"},
			{"timestamp ahead", app.DemoOpsSecret, now.Add(6 * time.Minute), eventJSON("x5b", "cancellation", "2026-11-20T05:00:00Z", ""), 401, "stale_timestamp"},
			{"not JSON", app.DemoOpsSecret, now, []byte(`{"id":`), 400, "malformed"},
			{"unknown field", app.DemoOpsSecret, now, eventJSON("x6", "cancellation", "2026-11-20T05:00:00Z", `,"colour":"red"`), 400, "malformed"},
			{"bad time", app.DemoOpsSecret, now, eventJSON("x7", "delay", "2026-11-20T05:00:00Z", `,"departure":"10:40"`), 400, "malformed"},
			{"delay without time", app.DemoOpsSecret, now, eventJSON("x8", "delay", "2026-11-20T05:00:00Z", ""), 400, "invalid"},
			{"unknown kind", app.DemoOpsSecret, now, eventJSON("x9", "boarding", "2026-11-20T05:00:00Z", ""), 400, "invalid"},
			{"delay to before the schedule", app.DemoOpsSecret, now, eventJSON("x10", "delay", "2026-11-20T06:00:00Z", `,"departure":"2026-11-30T00:30:00+09:00"`), 400, "invalid"},
			{"cancellation with a gate", app.DemoOpsSecret, now, eventJSON("x11", "cancellation", "2026-11-20T06:00:00Z", `,"gate":"5"`), 400, "invalid"},
		}
		for _, c := range refusals {
			status, m := postEvent(t, e, c.secret, c.at, c.body)
			if status != c.status || m["error"] != c.code || m["message"] == "" {
				t.Errorf("%s: %d %v, want %d %s", c.name, status, m, c.status, c.code)
			}
		}
		if n := countEvents(t, e); n != before {
			t.Errorf("refused events stored: %d, was %d", n, before)
		}
		// each refused signature is a WARN line with its reason
		if n := countLogLines(e.Log.String(), "WARN", "flight event signature refused", "no valid signature"); n != 2 {
			t.Errorf("%d WARN lines for the bad signatures, want 2", n)
		}
		if n := countLogLines(e.Log.String(), "WARN", "flight event signature refused", "tolerance"); n != 2 {
			t.Errorf("%d WARN lines for the stale signatures, want 2", n)
		}
		if seg := firstSegment(t, member); seg["flightStatus"] != "ON_TIME" || seg["departDateTime"] != "2026-11-30T09:05:00+09:00" {
			t.Errorf("a refused event changed the segment: %v", seg)
		}

		// A cancelled flight takes no gate change: refused, nothing stored.
		if status, m := postEvent(t, e, app.DemoOpsSecret, now, eventJSON("ev-5", "cancellation", "2026-11-20T06:10:00Z", "")); status != http.StatusOK {
			t.Fatalf("cancellation: %d %v", status, m)
		}
		before = countEvents(t, e)
		status, m = postEvent(t, e, app.DemoOpsSecret, now, eventJSON("x12", "gate", "2026-11-20T06:20:00Z", `,"gate":"5"`))
		if status != http.StatusBadRequest || m["error"] != "invalid" || !strings.Contains(fmt.Sprint(m["message"]), "cancelled") {
			t.Errorf("gate on a cancelled flight: %d %v", status, m)
		}
		if n := countEvents(t, e); n != before {
			t.Errorf("the refused gate change was stored: %d, was %d", n, before)
		}
		if seg := firstSegment(t, member); seg["flightStatus"] != "CANCELLED" || seg["originGate"] == "5" {
			t.Errorf("the refused gate change reached the segment: %v", seg)
		}
	})
}

func TestFlightEventsFeedWithoutSecret(t *testing.T) {
	e := apitest.New(t, store.SQLite, func(c *app.Config) { c.Demo = false })
	status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), eventJSON("n1", "cancellation", "2026-11-20T05:00:00Z", ""))
	if status != http.StatusServiceUnavailable || m["error"] != "not_configured" {
		t.Fatalf("no secret: %d %v", status, m)
	}
}

func TestFlightEventsConfiguredSecret(t *testing.T) {
	e := apitest.New(t, store.SQLite, func(c *app.Config) { c.OpsSecret = "configured" })
	if status, _ := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), eventJSON("s1", "cancellation", "2026-11-20T05:00:00Z", "")); status != http.StatusUnauthorized {
		t.Fatalf("the demo secret is accepted beside a configured one: %d", status)
	}
	if status, m := postEvent(t, e, "configured", e.Clock.Now(), eventJSON("s2", "cancellation", "2026-11-20T05:00:00Z", "")); status != http.StatusOK || m["outcome"] != "applied" {
		t.Fatalf("configured secret: %d %v", status, m)
	}
}

// Two instances on one database receive the same event at once: it is
// applied once.
func TestFlightEventsRace(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		other := e.Instance(t)
		body := eventJSON("race-1", "delay", "2026-11-20T05:00:00Z", `,"departure":"2026-11-30T10:40:00+09:00"`)
		outcomes := make([]string, 2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, env := range []*apitest.Env{e, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				req, _ := http.NewRequest(http.MethodPost, env.Server.URL+"/ops/v1/flight-events", bytes.NewReader(body))
				req.Header.Set(flightops.SignatureHeader, flightops.Sign([]byte(app.DemoOpsSecret), e.Clock.Now(), body))
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				var m map[string]any
				_ = json.NewDecoder(resp.Body).Decode(&m)
				outcomes[i], _ = m["outcome"].(string)
			}()
		}
		close(start)
		wg.Wait()
		applied, dup := 0, 0
		for _, o := range outcomes {
			switch o {
			case "applied":
				applied++
			case "duplicate":
				dup++
			}
		}
		if applied != 1 || dup != 1 {
			t.Fatalf("outcomes %v, want one applied and one duplicate", outcomes)
		}
		st, _, events, err := e.App.FlightOps().Show(t.Context(), demoFlight, demoDate)
		if err != nil || st.Sequence != 1 || len(events) != 1 {
			t.Fatalf("state %+v, %d events, %v", st, len(events), err)
		}
		// Past the coalescing window both senders run at once: one mail.
		e.Clock.Advance(flightops.CoalesceWindow + time.Minute)
		if n := sendConcurrently(t, e, other); n != 1 {
			t.Fatalf("mails sent by the two instances: %d, want 1", n)
		}
		if mails := flightMails(t, e); len(mails) != 1 || mails[0].to != apitest.DemoEmail {
			t.Fatalf("mails in the outbox: %+v", mails)
		}
		if n := sendConcurrently(t, e, other); n != 0 {
			t.Fatalf("mailed again: %d", n)
		}
	})
}

// The booking's calendar file follows the feed: new times, a SEQUENCE that
// grows with each change, and a cancellation as STATUS:CANCELLED.
func TestFlightEventsCalendar(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		member := e.Member(t)
		event := func() goical.Event {
			t.Helper()
			r := member.Get("/api/reservations/" + demoPNR + "/calendar.ics")
			if r.Status != http.StatusOK {
				t.Fatalf("calendar: %d %s", r.Status, r.Body)
			}
			for _, ev := range parseICS(t, r.Body).Events() {
				if strings.Contains(text(t, ev, goical.PropSummary), demoFlight) {
					return ev
				}
			}
			t.Fatalf("no %s event:\n%s", demoFlight, r.Body)
			return goical.Event{}
		}
		seq := func(ev goical.Event) string {
			if p := ev.Props.Get(goical.PropSequence); p != nil {
				return p.Value
			}
			return ""
		}
		if s := seq(event()); s != "0" {
			t.Fatalf("SEQUENCE before any change: %q", s)
		}
		now := e.Clock.Now()
		postEvent(t, e, app.DemoOpsSecret, now, eventJSON("cal-1", "delay", "2026-11-20T05:00:00Z", `,"departure":"2026-11-30T10:40:00+09:00"`))
		ev := event()
		if s := seq(ev); s != "1" || ev.Props.Get(goical.PropDateTimeStart).Value != "20261130T104000" {
			t.Fatalf("after the delay: SEQUENCE %q DTSTART %q", s, ev.Props.Get(goical.PropDateTimeStart).Value)
		}
		postEvent(t, e, app.DemoOpsSecret, now, eventJSON("cal-2", "diversion", "2026-11-20T05:10:00Z", `,"divertedTo":"GMP"`))
		postEvent(t, e, app.DemoOpsSecret, now, eventJSON("cal-3", "cancellation", "2026-11-20T05:20:00Z", ""))
		ev = event()
		st, _ := ev.Status()
		if s := seq(ev); s != "3" || st != goical.EventCancelled || !strings.Contains(text(t, ev, goical.PropDescription), "Diverted to Seoul (Gimpo) (GMP)") {
			t.Fatalf("after the cancellation: SEQUENCE %q STATUS %q\n%s", s, st, text(t, ev, goical.PropDescription))
		}
	})
}

// sendConcurrently runs the mail sender of every instance at once and
// returns how many mails they sent together.
func sendConcurrently(t *testing.T, envs ...*apitest.Env) int {
	t.Helper()
	var wg sync.WaitGroup
	counts := make([]int, len(envs))
	for i, env := range envs {
		alerts, err := env.App.FlightAlerts(app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := alerts.SendDue(t.Context())
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	return total
}

type outboxMail struct{ to, lang, subject, text string }

func flightMails(t *testing.T, e *apitest.Env) []outboxMail {
	t.Helper()
	rows, err := e.App.DB.Query(`SELECT to_addr, lang, subject, text_body FROM mail_outbox WHERE kind = 'flight_change' ORDER BY created_at, id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []outboxMail
	for rows.Next() {
		var m outboxMail
		if err := rows.Scan(&m.to, &m.lang, &m.subject, &m.text); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// Flight change mails: a burst of one delay gives one mail with the latest
// time, after the coalescing window, in the member's language; a member
// with two bookings on the flight gets one; two instances send it once;
// nothing for a cancelled segment or a flown one.
func TestFlightEventsMail(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		other := e.Instance(t)
		ctx := t.Context()
		// A second booking of member 1 on the same flight, and member 1
		// reads mail in Japanese.
		dep := time.Date(2026, 11, 29, 23, 30, 0, 0, time.UTC) // 08:30 on the 30th in Osaka
		if err := e.App.DB.Tx(ctx, func(tx *sql.Tx) error {
			return store.InsertReservations(ctx, tx, e.Clock.Now(), []booking.Reservation{{MemberID: demo.Member1, PNR: "TWO2BK",
				StatusCode: booking.StatusConfirmed, BookedAt: e.Clock.Now(), Currency: "JPY", TotalAmount: 1000,
				Passengers: []booking.Passenger{{Lastname: "YAMADA", Firstname: "JIRO", PassengerType: "ADULT"}},
				Segments: []booking.Segment{{Key: "1", StatusCode: booking.StatusConfirmed, Flight: "MM001", FlightNumber: "001",
					OriginAirportCode: "KIX", DestinationAirportCode: "ICN", DepartAt: dep, ArrivalAt: dep.Add(110 * time.Minute), FlightStatus: booking.FlightOnTime}}}})
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.App.DB.Exec(`UPDATE members SET lang = 'jp' WHERE id = $1`, demo.Member1); err != nil {
			t.Fatal(err)
		}
		sendBoth := func() int {
			t.Helper()
			return sendConcurrently(t, e, other)
		}

		for i, hhmm := range []string{"09:10", "09:40", "10:05"} {
			status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), eventJSON(fmt.Sprintf("burst-%d", i), "delay",
				e.Clock.Now().UTC().Format(time.RFC3339), `,"departure":"2026-11-30T`+hhmm+`:00+09:00"`))
			if status != http.StatusOK || m["bookings"] != 2.0 {
				t.Fatalf("delay %d: %d %v", i, status, m)
			}
			if n := sendBoth(); n != 0 {
				t.Fatalf("mailed inside the coalescing window: %d", n)
			}
			e.Clock.Advance(3 * time.Minute)
		}
		e.Clock.Advance(2 * time.Minute) // ten minutes after the first update
		if n := sendBoth(); n != 1 {
			t.Fatalf("mails after the window: %d, want 1", n)
		}
		mails := flightMails(t, e)
		if len(mails) != 1 || mails[0].to != apitest.DemoEmail || mails[0].lang != "jp" || !strings.Contains(mails[0].subject, "MM001") ||
			!strings.Contains(mails[0].subject, "遅延") || !strings.Contains(mails[0].text, "2026年11月30日 10:05 (KIX)") ||
			!strings.Contains(mails[0].text, "2026年11月30日 08:30 (KIX)") || !strings.Contains(mails[0].text, "HNK7Q2, TWO2BK") ||
			!strings.Contains(mails[0].text, "/bookings?lang=jp") {
			t.Fatalf("mails: %+v", mails)
		}
		if n := sendBoth(); n != 0 {
			t.Fatalf("mailed again: %d", n)
		}
		// A cancellation goes at once.
		postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), eventJSON("cancel", "cancellation", e.Clock.Now().UTC().Format(time.RFC3339), ""))
		if n := sendBoth(); n != 1 {
			t.Fatalf("cancellation mails: %d", n)
		}
		mails = flightMails(t, e)
		if len(mails) != 2 {
			t.Fatalf("cancellation mail: %+v", mails)
		}
		// Each mail opens with what happened: a cancellation is not "a change".
		for _, m := range mails {
			lead := "MM001便は遅延しています"
			if strings.Contains(m.subject, "欠航") {
				lead = "MM001便は欠航となりました"
			}
			if !strings.Contains(m.text, lead) || strings.Contains(m.text, "変更がありました") {
				t.Errorf("mail %q not worded by its kind: %s", m.subject, m.text)
			}
		}

		// No mail for a cancelled segment (HND-OKA, in 40 days) nor a flown
		// one (KIX-HKG, 5 days ago).
		for _, f := range []struct{ flight, date string }{{"MM551", "2026-12-30"}, {"MM071", "2026-11-15"}} {
			body := []byte(fmt.Sprintf(`{"id":"x-%s","flight":%q,"date":%q,"kind":"cancellation","occurredAt":%q}`,
				f.flight, f.flight, f.date, e.Clock.Now().UTC().Format(time.RFC3339)))
			if status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), body); status != http.StatusOK || m["outcome"] != "applied" {
				t.Fatalf("%s: %d %v", f.flight, status, m)
			}
		}
		e.Clock.Advance(time.Hour)
		if n := sendBoth(); n != 0 {
			t.Fatalf("mailed a cancelled or flown segment: %d", n)
		}
	})
}

// The home page's list of disrupted trips (changed=true): every booking
// with a flight the airline changed that has not left, whatever its date;
// none before a change, and not a flight changed but already flown.
func TestChangedBookingsSearch(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		member := e.Member(t)
		changed := func() []string {
			t.Helper()
			r := member.Get("/api/reservations?changed=true&status=all&perPage=50&withFlightStatus=true")
			if r.Status != http.StatusOK {
				t.Fatalf("changed search: %d %s", r.Status, r.Body)
			}
			var pnrs []string
			for _, x := range r.Map(t)["reservations"].([]any) {
				pnrs = append(pnrs, x.(map[string]any)["pnr"].(string))
			}
			return pnrs
		}
		if got := changed(); len(got) != 0 {
			t.Fatalf("changed before any event: %v", got)
		}
		// CTS4EF: MM171 KIX-CTS sixty days out, far beyond the five nearest.
		date := e.Clock.Now().In(booking.JST).AddDate(0, 0, 60).Format(booking.DateLayout)
		occurred := e.Clock.Now().UTC().Format(time.RFC3339)
		body := []byte(fmt.Sprintf(`{"id":"far-delay","flight":"MM171","date":%q,"kind":"delay","occurredAt":%q,"departure":"%sT23:45:00+09:00"}`, date, occurred, date))
		if status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), body); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("delay of MM171: %d %v", status, m)
		}
		// MM071 (HKG6GH) flew five days ago: a change to it is no disruption to come.
		past := e.Clock.Now().In(booking.JST).AddDate(0, 0, -5).Format(booking.DateLayout)
		body = []byte(fmt.Sprintf(`{"id":"past-gate","flight":"MM071","date":%q,"kind":"gate","occurredAt":%q,"gate":"9"}`, past, occurred))
		if status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), body); status != http.StatusOK {
			t.Fatalf("gate of MM071: %d %v", status, m)
		}
		if got := changed(); len(got) != 1 || got[0] != "CTS4EF" {
			t.Fatalf("changed = %v, want [CTS4EF]", got)
		}
		// Once the delayed flight has left, it is no longer listed.
		e.Clock.Advance(61 * 24 * time.Hour)
		member = e.Member(t) // the session ended meanwhile
		if got := changed(); len(got) != 0 {
			t.Fatalf("changed after the flight left: %v", got)
		}
	})
}

// The itinerary mail printed after a delay gives the new times first, with
// "+1" past midnight, and the schedule beside them (its PDF: internal/pdf).
func TestItineraryMailAfterDelay(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		member := e.Member(t)
		date := e.Clock.Now().In(booking.JST).AddDate(0, 0, 60).Format(booking.DateLayout)
		body := []byte(fmt.Sprintf(`{"id":"mail-delay","flight":"MM171","date":%q,"kind":"delay","occurredAt":%q,"departure":"%sT23:45:00+09:00"}`,
			date, e.Clock.Now().UTC().Format(time.RFC3339), date))
		if status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), body); status != http.StatusOK {
			t.Fatalf("delay: %d %v", status, m)
		}
		if r := member.Do(http.MethodPost, "/api/reservations/CTS4EF/sendmail", nil); r.Status != http.StatusOK {
			t.Fatalf("sendmail = %d %s", r.Status, r.Body)
		}
		var text string
		if err := e.App.DB.QueryRow(`SELECT text_body FROM mail_outbox WHERE kind = 'itinerary'`).Scan(&text); err != nil {
			t.Fatal(err)
		}
		// MM171 KIX 07:05 → CTS 09:10, delayed to 23:45: lands 01:50 the next day.
		// It links to the booking on the bookings page (a whole search: browser test web/e2e/mailedlinks.test.mjs).
		for _, want := range []string{"now 23:45 → 01:50 +1 (scheduled 07:05 → 09:10)", "/bookings?lang=en&pnr=CTS4EF"} {
			if !strings.Contains(text, want) {
				t.Fatalf("itinerary mail lacks %q:\n%s", want, text)
			}
		}
		// Delayed past midnight: the flight's line is on the new date, its
		// times without "+1", the schedule with its own date.
		e.Clock.Advance(time.Minute)
		day, _ := time.Parse(booking.DateLayout, date)
		next := day.AddDate(0, 0, 1).Format(booking.DateLayout)
		body = []byte(fmt.Sprintf(`{"id":"mail-delay-2","flight":"MM171","date":%q,"kind":"delay","occurredAt":%q,"departure":"%sT00:40:00+09:00"}`,
			date, e.Clock.Now().UTC().Format(time.RFC3339), next))
		if status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), body); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("delay past midnight: %d %v", status, m)
		}
		if r := member.Do(http.MethodPost, "/api/reservations/CTS4EF/sendmail", nil); r.Status != http.StatusOK {
			t.Fatalf("sendmail = %d %s", r.Status, r.Body)
		}
		if err := e.App.DB.QueryRow(`SELECT text_body FROM mail_outbox WHERE kind = 'itinerary' ORDER BY created_at DESC LIMIT 1`).Scan(&text); err != nil {
			t.Fatal(err)
		}
		want := "MM171 KIX-CTS " + i18n.FormatDate(i18n.EN, day.AddDate(0, 0, 1), false) + " Delayed (not yet departed): now 00:40 → 02:45 (scheduled " +
			i18n.FormatDate(i18n.EN, day, false) + " 07:05 → 09:10)"
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Fatalf("itinerary mail lacks %q:\n%s", want, text)
		}
	})
}
