package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	netmail "net/mail"
	"net/url"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

const settingsPath = "/api/user/notification_settings"

func settingsBody(flight, points bool, lang string) map[string]any {
	return map[string]any{"flightChanges": flight, "pointsReminders": points, "mailLang": lang}
}

// The settings: all on and the account's language until changed; the
// member's own only; every rule a field error that changes nothing; CSRF
// on PUT; in the data export; gone with the account.
func TestNotificationSettings(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		r := c.Get(settingsPath)
		if r.Status != http.StatusOK {
			t.Fatalf("get: %d %s", r.Status, r.Body)
		}
		want := map[string]any{"flightChanges": true, "pointsReminders": true, "securityAlerts": true, "mailLang": "en", "mailLangChosen": false}
		if got := r.Map(t); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("defaults %v, want %v", got, want)
		}

		r = c.Do(http.MethodPut, settingsPath, settingsBody(false, true, "jp"))
		if r.Status != http.StatusOK || r.Map(t)["flightChanges"] != false || r.Map(t)["mailLang"] != "jp" {
			t.Fatalf("put: %d %s", r.Status, r.Body)
		}
		saved := map[string]any{"flightChanges": false, "pointsReminders": true, "securityAlerts": true, "mailLang": "jp", "mailLangChosen": true}
		if got := c.Get(settingsPath).Map(t); fmt.Sprint(got) != fmt.Sprint(saved) {
			t.Fatalf("after put %v", got)
		}

		for _, tc := range []struct {
			name, field string
			body        map[string]any
		}{
			{"unknown language", "mailLang", settingsBody(true, true, "fr")},
			{"security off", "securityAlerts", map[string]any{"flightChanges": true, "pointsReminders": true, "securityAlerts": false, "mailLang": "en"}},
			{"switch missing", "pointsReminders", map[string]any{"flightChanges": true, "mailLang": "en"}},
			{"unknown field", "emailMagazine", map[string]any{"flightChanges": true, "pointsReminders": true, "mailLang": "en", "emailMagazine": true}},
		} {
			r := c.Do(http.MethodPut, settingsPath, tc.body)
			var v struct{ ValidationErrors map[string][]string }
			_ = json.Unmarshal(r.Body, &v)
			if r.Status != http.StatusBadRequest || len(v.ValidationErrors[tc.field]) == 0 {
				t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
			}
		}
		c.Lang = "jp"
		if r := c.Do(http.MethodPut, settingsPath, map[string]any{"flightChanges": true, "pointsReminders": true, "securityAlerts": false, "mailLang": "en"}); !strings.Contains(string(r.Body), "セキュリティのお知らせは停止できません") {
			t.Errorf("the refusal in the request's language: %s", r.Body)
		}
		c.Lang = "en"
		// securityAlerts true is accepted (the page may send what it got).
		if r := c.Do(http.MethodPut, settingsPath, map[string]any{"flightChanges": false, "pointsReminders": true, "securityAlerts": true, "mailLang": "jp"}); r.Status != http.StatusOK {
			t.Errorf("securityAlerts true: %d %s", r.Status, r.Body)
		}
		if got := c.Get(settingsPath).Map(t); fmt.Sprint(got) != fmt.Sprint(saved) {
			t.Fatalf("a refused change changed something: %v", got)
		}

		c.NoCSRF = true
		if r := c.Do(http.MethodPut, settingsPath, settingsBody(true, true, "en")); r.Status != http.StatusForbidden {
			t.Errorf("without CSRF: %d", r.Status)
		}
		c.NoCSRF = false
		if r := env.Client(t).Get(settingsPath); r.Status != http.StatusForbidden {
			t.Errorf("anonymous: %d", r.Status)
		}
		// Member 2 has its own settings, untouched.
		if got := env.Member2(t).Get(settingsPath).Map(t); got["flightChanges"] != true || got["mailLang"] != "en" {
			t.Errorf("member 2: %v", got)
		}

		var ex dataExport
		c.Get("/api/me/export").JSON(t, &ex)
		exported := with(saved)
		delete(exported, "mailLangChosen") // the export holds the settings, not the page's state
		if got := fmt.Sprint(ex.Parts["notificationSettings"]); got != fmt.Sprint(exported) {
			t.Errorf("export: %s", got)
		}

		// The language can go back to "same as the site": the account's language.
		r = c.Do(http.MethodPut, settingsPath, settingsBody(false, true, ""))
		if got := r.Map(t); r.Status != http.StatusOK || got["mailLang"] != "en" || got["mailLangChosen"] != false {
			t.Errorf("back to the site's language: %d %s", r.Status, r.Body)
		}

		if err := store.NewPrivacyStore(env.App.DB).Erase(t.Context(), demo.Member1, env.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM notification_settings WHERE member_id = $1`, demo.Member1).Scan(&n); err != nil || n != 0 {
			t.Errorf("settings after erasure: %d %v", n, err)
		}
	})
}

// headerMail is a mail of the outbox with its extra headers.
type headerMail struct {
	kind, lang, subject, text string
	headers                   map[string]string
}

func outboxMails(t *testing.T, e *apitest.Env, kind string) []headerMail {
	t.Helper()
	ms, err := store.NewMailOutbox(e.App.DB).List(t.Context(), 500)
	if err != nil {
		t.Fatal(err)
	}
	var out []headerMail
	for _, m := range ms {
		if m.Kind == kind {
			out = append(out, headerMail{kind: m.Kind, lang: string(m.Lang), subject: m.Subject, text: m.Text, headers: m.Headers})
		}
	}
	return out
}

// smtpHeaders returns the headers of the message received whose subject
// holds part.
func smtpHeaders(t *testing.T, srv *mailtest.Server, part string) netmail.Header {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, r := range srv.Messages() {
			m, err := netmail.ReadMessage(bytes.NewReader(r.Raw))
			if err != nil {
				t.Fatal(err)
			}
			var dec mime.WordDecoder
			if s, _ := dec.DecodeHeader(m.Header.Get("Subject")); strings.Contains(s, part) {
				return m.Header
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no mail with %q in its subject", part)
	return nil
}

// The senders honour the settings: a member who switched flight changes or
// points reminders off gets none (a log line says so); switched on, the
// mails come in the chosen mail language with List-Unsubscribe and
// List-Unsubscribe-Post (in the outbox and over SMTP); security mails come
// in that language without them.
func TestNotificationSettingsMails(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		e := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
		ctx := t.Context()
		c := e.Member(t)
		alerts, err := e.App.FlightAlerts(app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		reminders, err := e.App.PointsService(app.Config{PointsReminderDays: []int{30, 7}})
		if err != nil {
			t.Fatal(err)
		}
		delay := func(id, hhmm string) {
			t.Helper()
			status, m := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), eventJSON(id, "delay",
				e.Clock.Now().UTC().Format(time.RFC3339), `,"departure":"2026-11-30T`+hhmm+`:00+09:00"`))
			if status != http.StatusOK || m["outcome"] != "applied" {
				t.Fatalf("delay %s: %d %v", id, status, m)
			}
			e.Clock.Advance(11 * time.Minute)
		}

		// Both optional kinds off, mails in Japanese.
		if r := c.Do(http.MethodPut, settingsPath, settingsBody(false, false, "jp")); r.Status != http.StatusOK {
			t.Fatalf("put: %d %s", r.Status, r.Body)
		}
		delay("off-1", "09:10")
		if n, err := alerts.SendDue(ctx); n != 0 || err != nil {
			t.Fatalf("flight change mailed to a member who switched it off: %d %v", n, err)
		}
		if n, err := reminders.SendReminders(ctx); n != 0 || err != nil {
			t.Fatalf("reminder mailed to a member who switched it off: %d %v", n, err)
		}
		if got := len(outboxMails(t, e, "flight_change")) + len(outboxMails(t, e, "points_reminder")); got != 0 {
			t.Fatalf("%d optional mails queued", got)
		}
		for _, line := range []string{"switched flight change mails off", "switched points reminders off"} {
			if !strings.Contains(e.Log.String(), line) {
				t.Errorf("no log line %q", line)
			}
		}
		// On when the change comes, off before its mail is due: dropped too
		// (the setting counts when the mail would go).
		if r := c.Do(http.MethodPut, settingsPath, settingsBody(true, false, "jp")); r.Status != http.StatusOK {
			t.Fatal(r.Status)
		}
		status, _ := postEvent(t, e, app.DemoOpsSecret, e.Clock.Now(), eventJSON("window-1", "delay",
			e.Clock.Now().UTC().Format(time.RFC3339), `,"departure":"2026-11-30T09:20:00+09:00"`))
		if status != http.StatusOK {
			t.Fatal(status)
		}
		if r := c.Do(http.MethodPut, settingsPath, settingsBody(false, false, "jp")); r.Status != http.StatusOK {
			t.Fatal(r.Status)
		}
		e.Clock.Advance(11 * time.Minute)
		if n, err := alerts.SendDue(ctx); n != 0 || err != nil || len(outboxMails(t, e, "flight_change")) != 0 {
			t.Fatalf("switched off inside the window, mailed: %d %v", n, err)
		}

		// Back on: the next change and the next reminder threshold are mailed.
		if r := c.Do(http.MethodPut, settingsPath, settingsBody(true, true, "jp")); r.Status != http.StatusOK {
			t.Fatalf("put: %d %s", r.Status, r.Body)
		}
		delay("on-1", "09:40")
		if n, err := alerts.SendDue(ctx); n != 1 || err != nil {
			t.Fatalf("flight change mails: %d %v", n, err)
		}
		e.Clock.Advance(4 * 24 * time.Hour) // the JPY voucher reaches its 7-day threshold
		if n, err := reminders.SendReminders(ctx); n != 1 || err != nil {
			t.Fatalf("reminders: %d %v", n, err)
		}
		for kind, wantKind := range map[string]string{"flight_change": "flight_changes", "points_reminder": "points_reminders"} {
			ms := outboxMails(t, e, kind)
			if len(ms) != 1 || ms[0].lang != "jp" {
				t.Fatalf("%s: %+v", kind, ms)
			}
			h := ms[0].headers
			u, err := url.Parse(strings.Trim(h["List-Unsubscribe"], "<>"))
			if err != nil || u.Path != "/mail/unsubscribe" || u.Query().Get("k") != wantKind || u.Query().Get("m") != demo.Member1 ||
				u.Query().Get("s") == "" || h["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
				t.Errorf("%s headers: %v", kind, h)
			}
			// The same link under the footer, for readers whose mail program shows no button.
			if !strings.Contains(ms[0].text, "このメールの配信停止: "+u.String()) {
				t.Errorf("%s text has no unsubscribe line:\n%s", kind, ms[0].text)
			}
		}
		fh := smtpHeaders(t, srv, "MM001")
		if !strings.Contains(fh.Get("List-Unsubscribe"), "/mail/unsubscribe?") || fh.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Errorf("SMTP flight change headers: %v", fh)
		}

		// A security mail (password changed): the chosen language, no
		// unsubscribe, though the page is in English.
		c = e.Member(t) // the session ended in the days gone by
		r := c.Do(http.MethodPut, "/api/user/password", map[string]any{"passwordOld": apitest.DemoPassword, "passwordNew": "Abcd1234x", "passwordReenter": "Abcd1234x"})
		if r.Status != http.StatusOK {
			t.Fatalf("password: %d %s", r.Status, r.Body)
		}
		sec := outboxMails(t, e, "password_changed")
		if len(sec) != 1 || sec[0].lang != "jp" || len(sec[0].headers) != 0 || strings.Contains(sec[0].text, "配信停止") {
			t.Fatalf("security mail: %+v", sec)
		}
		sh := smtpHeaders(t, srv, sec[0].subject)
		if sh.Get("List-Unsubscribe") != "" || sh.Get("List-Unsubscribe-Post") != "" {
			t.Errorf("SMTP security mail carries unsubscribe headers: %v", sh)
		}
		// An account mail caused by a page in English: Japanese all the same.
		c.Do(http.MethodPost, "/api/user/passengers", map[string]any{"firstname": "JIRO", "lastname": "YAMADA", "gender": "male", "birth": "1990-01-01"})
		if ms := outboxMails(t, e, "passenger_added"); len(ms) != 1 || ms[0].lang != "jp" {
			t.Errorf("passenger mail: %+v", ms)
		}
	})
}

// The one-click link: GET asks in the member's mail language, POST (RFC
// 8058's body, no session, no CSRF token) switches the kind off; a link
// whose signature, member or kind was changed is refused and changes
// nothing.
func TestUnsubscribeLink(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		c := e.Member(t)
		if r := c.Do(http.MethodPut, settingsPath, settingsBody(true, true, "jp")); r.Status != http.StatusOK {
			t.Fatal(r.Status)
		}
		svc, err := e.App.Notify(t.Context(), app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		link, _ := url.Parse(svc.UnsubscribeURL(demo.Member1, "flight_changes"))
		base := e.Server.URL + link.Path
		do := func(method string, q url.Values) (int, string, http.Header) {
			t.Helper()
			var body io.Reader
			if method == http.MethodPost {
				body = strings.NewReader("List-Unsubscribe=One-Click")
			}
			req, _ := http.NewRequest(method, base+"?"+q.Encode(), body)
			if body != nil {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b), resp.Header
		}
		with := func(k, v string) url.Values {
			q := url.Values{}
			for kk, vv := range link.Query() {
				q[kk] = vv
			}
			q.Set(k, v)
			return q
		}
		sig := link.Query().Get("s")
		forged := map[string]url.Values{
			"signature changed":  with("s", strings.Repeat("A", len(sig))),
			"signature missing":  with("s", ""),
			"other member":       with("m", demo.Member2),
			"other kind":         with("k", "points_reminders"),
			"security mails":     with("k", "security"),
			"unknown kind":       with("k", "newsletter"),
			"member id too long": with("m", strings.Repeat("x", 500)),
		}
		for name, q := range forged {
			for _, m := range []string{http.MethodGet, http.MethodPost} {
				if status, body, _ := do(m, q); status != http.StatusForbidden || strings.Contains(body, "<form") {
					t.Errorf("%s %s: %d", m, name, status)
				}
			}
		}
		for _, id := range []string{demo.Member1, demo.Member2} {
			if got := settingsOf(t, e, id); got["flightChanges"] != true || got["pointsReminders"] != true {
				t.Fatalf("a refused link changed %s: %v", id, got)
			}
		}

		status, body, h := do(http.MethodGet, link.Query())
		if status != http.StatusOK || !strings.Contains(body, "<form method=\"post\">") || !strings.Contains(body, "配信を停止する") ||
			!strings.Contains(body, "ご予約便の変更") || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") ||
			h.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("GET: %d %v\n%s", status, h, body)
		}
		if got := settingsOf(t, e, demo.Member1); got["flightChanges"] != true {
			t.Fatal("GET switched the kind off")
		}
		for range 2 { // a repeat changes nothing more
			if status, body, _ := do(http.MethodPost, link.Query()); status != http.StatusOK || !strings.Contains(body, "配信を停止しました") {
				t.Fatalf("POST: %d %s", status, body)
			}
		}
		if got := settingsOf(t, e, demo.Member1); got["flightChanges"] != false || got["pointsReminders"] != true || got["mailLang"] != "jp" {
			t.Fatalf("after the link: %v", got)
		}
		// A member without settings yet: the link makes them, the rest on.
		l2, _ := url.Parse(svc.UnsubscribeURL(demo.Member2, "points_reminders"))
		base = e.Server.URL + l2.Path
		if status, _, _ := do(http.MethodPost, l2.Query()); status != http.StatusOK {
			t.Fatal(status)
		}
		if got := settingsOf(t, e, demo.Member2); got["flightChanges"] != true || got["pointsReminders"] != false || got["mailLang"] != "en" {
			t.Fatalf("member 2 after the link: %v", got)
		}
	})
}

// settingsOf reads a member's settings as the API gives them.
func settingsOf(t *testing.T, e *apitest.Env, memberID string) map[string]any {
	t.Helper()
	svc, err := e.App.Notify(t.Context(), app.Config{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := svc.Get(t.Context(), memberID)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"flightChanges": st.FlightChanges, "pointsReminders": st.PointsReminders, "mailLang": string(st.MailLang)}
}
