package httpapi_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/booking"
	"members/internal/push"
	"members/internal/push/pushtest"
	"members/internal/store"
)

// pushEnv is a server whose Web Push admits the stand-in push service,
// with the sender the server would run in the background.
type pushEnv struct {
	*apitest.Env
	svc    *pushtest.Service
	sender *push.Sender
	key    string
}

func newPushEnv(t *testing.T, engine store.Engine, more ...func(*app.Config)) pushEnv {
	t.Helper()
	svc := pushtest.Start(t, "")
	cfg := func(c *app.Config) {
		c.TestPushService = svc.URL
		for _, f := range more {
			f(c)
		}
	}
	env := apitest.New(t, engine, cfg)
	c := app.Config{Demo: true}
	cfg(&c)
	keys, err := env.App.PushKeys(context.Background(), c)
	if err != nil || keys == nil {
		t.Fatalf("keys %v %v", keys, err)
	}
	sender, err := env.App.PushSender(c, keys)
	if err != nil {
		t.Fatal(err)
	}
	return pushEnv{Env: env, svc: svc, sender: sender, key: keys.Public}
}

// send runs the sender once and returns how many pushes went.
func (e pushEnv) send(t *testing.T) int {
	t.Helper()
	n, err := e.sender.SendDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (e pushEnv) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := e.App.DB.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func subscribe(t *testing.T, c *apitest.Client, d *pushtest.Device) map[string]any {
	t.Helper()
	r := c.Do(http.MethodPut, "/api/push/subscription", d.Subscription())
	if r.Status != http.StatusOK {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	return r.Map(t)
}

func devices(t *testing.T, c *apitest.Client) []any {
	t.Helper()
	r := c.Get("/api/push/devices")
	if r.Status != http.StatusOK {
		t.Fatalf("devices: %d %s", r.Status, r.Body)
	}
	return r.Map(t)["devices"].([]any)
}

func TestPushSubscriptions(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := newPushEnv(t, engine)
		c := e.Member(t)

		r := c.Get("/api/push/vapid_key")
		key, _ := base64.RawURLEncoding.DecodeString(r.Map(t)["publicKey"].(string))
		if r.Status != http.StatusOK || len(key) != 65 || key[0] != 4 {
			t.Fatalf("vapid key: %d %s", r.Status, r.Body)
		}
		if r := e.Client(t).Get("/api/push/vapid_key"); r.Status != http.StatusForbidden {
			t.Fatalf("without a session: %d", r.Status)
		}

		d := e.svc.NewDevice(t)
		noCSRF := e.Member(t)
		noCSRF.NoCSRF = true
		if r := noCSRF.Do(http.MethodPut, "/api/push/subscription", d.Subscription()); r.Status != http.StatusForbidden {
			t.Fatalf("without CSRF: %d", r.Status)
		}
		got := subscribe(t, c, d)
		if got["current"] != true || got["device"] == nil || got["switchedOnAt"] == nil {
			t.Fatalf("subscribed %v", got)
		}
		// Again: the same device, renewed.
		subscribe(t, c, d)
		if list := devices(t, c); len(list) != 1 {
			t.Fatalf("devices after a renewal: %v", list)
		}

		// Endpoints only at the browsers' push services; well-formed keys.
		sub := func(endpoint, p256dh, auth string) map[string]any {
			return map[string]any{"endpoint": endpoint, "expirationTime": nil, "keys": map[string]string{"p256dh": p256dh, "auth": auth}}
		}
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{sub("https://evil.example/push", d.P256dh(), d.Auth()), "endpoint"},
			{sub("https://169.254.169.254/latest/meta-data", d.P256dh(), d.Auth()), "endpoint"},
			{sub("http://fcm.googleapis.com/fcm/send/x", d.P256dh(), d.Auth()), "endpoint"},
			{sub("https://fcm.googleapis.com.evil.example/x", d.P256dh(), d.Auth()), "endpoint"},
			{sub(strings.Replace(e.svc.URL, "127.0.0.1", "localhost", 1)+"x", d.P256dh(), d.Auth()), "endpoint"},
			{sub("", d.P256dh(), d.Auth()), "endpoint"},
			{sub("https://fcm.googleapis.com/fcm/send/"+strings.Repeat("x", 2100), d.P256dh(), d.Auth()), "endpoint"},
			{sub("https://fcm.googleapis.com/fcm/send/x", "AAAA", d.Auth()), "keys.p256dh"},
			{sub("https://fcm.googleapis.com/fcm/send/x", "BP"+strings.Repeat("A", 85), d.Auth()), "keys.p256dh"},
			{sub("https://fcm.googleapis.com/fcm/send/x", d.P256dh(), "c2hvcnQ"), "keys.auth"},
			{sub("https://fcm.googleapis.com/fcm/send/x", d.P256dh(), ""), "keys.auth"},
		} {
			r := c.Do(http.MethodPut, "/api/push/subscription", tc.body)
			if r.Status != http.StatusBadRequest || r.Map(t)["validationErrors"].(map[string]any)[tc.field] == nil {
				t.Errorf("%v: %d %s, want 400 on %s", tc.body["endpoint"], r.Status, r.Body, tc.field)
			}
		}
		if r := c.Do(http.MethodPut, "/api/push/subscription", map[string]any{"endpoint": d.Endpoint, "keys": map[string]string{}, "other": 1}); r.Status != http.StatusBadRequest {
			t.Errorf("an unknown field: %d", r.Status)
		}
		// The real services' addresses are taken (switched on after d: listed before it).
		e.Clock.Advance(time.Second)
		for _, ep := range []string{"https://fcm.googleapis.com/fcm/send/a:b", "https://updates.push.services.mozilla.com/wpush/v2/x",
			"https://web.push.apple.com/QGm2", "https://wns2-par02p.notify.windows.com/w/?token=x"} {
			if r := c.Do(http.MethodPut, "/api/push/subscription", sub(ep, d.P256dh(), d.Auth())); r.Status != http.StatusOK {
				t.Errorf("%s: %d %s", ep, r.Status, r.Body)
			}
		}
		if n := len(devices(t, c)); n != 5 {
			t.Fatalf("%d devices", n)
		}
		// The member's data export lists them, never their endpoints or keys.
		export := c.Get("/api/me/export")
		if parts := export.Map(t)["parts"].(map[string]any); len(parts["pushDevices"].([]any)) != 5 {
			t.Fatalf("export: %v", parts["pushDevices"])
		}
		for _, secret := range []string{"fcm.googleapis.com", d.P256dh(), d.Auth(), "endpoint"} {
			if strings.Contains(string(export.Body), secret) {
				t.Fatalf("the export holds %q", secret)
			}
		}

		// Member 2 sees none of them and can switch none off.
		m2 := e.Member2(t)
		if list := devices(t, m2); len(list) != 0 {
			t.Fatalf("member 2 sees %v", list)
		}
		id := devices(t, c)[0].(map[string]any)["id"].(string)
		if r := m2.Do(http.MethodDelete, "/api/push/devices/"+id, nil); r.Status != http.StatusNotFound {
			t.Fatalf("member 2 removes a device: %d", r.Status)
		}
		if r := m2.Do(http.MethodDelete, "/api/push/subscription", map[string]string{"endpoint": d.Endpoint}); r.Status != http.StatusNotFound {
			t.Fatalf("member 2 unsubscribes an endpoint: %d", r.Status)
		}
		// The security centre's switch-off, and the page's own.
		if r := c.Do(http.MethodDelete, "/api/push/devices/"+id, nil); r.Status != http.StatusNoContent {
			t.Fatalf("remove a device: %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodDelete, "/api/push/devices/"+id, nil); r.Status != http.StatusNotFound {
			t.Fatalf("remove it again: %d", r.Status)
		}
		if r := c.Do(http.MethodDelete, "/api/push/subscription", map[string]string{"endpoint": d.Endpoint}); r.Status != http.StatusNoContent {
			t.Fatalf("unsubscribe: %d %s", r.Status, r.Body)
		}
		if n := len(devices(t, c)); n != 3 {
			t.Fatalf("%d devices left", n)
		}
		// A renewal (the page after a login) renews what the member still
		// has, and makes nothing for a device switched off meanwhile.
		again := e.Member(t)
		if r := again.Do(http.MethodPut, "/api/push/subscription?renew=true", d.Subscription()); r.Status != http.StatusNotFound {
			t.Fatalf("renewal of a device switched off: %d %s", r.Status, r.Body)
		}
		if n := len(devices(t, c)); n != 3 {
			t.Fatalf("a renewal made a device: %d", n)
		}
		d3 := e.svc.NewDevice(t)
		subscribe(t, c, d3)
		if r := again.Do(http.MethodPut, "/api/push/subscription?renew=true", d3.Subscription()); r.Status != http.StatusOK || r.Map(t)["current"] != true {
			t.Fatalf("renewal: %d %s", r.Status, r.Body)
		}
		if n := len(devices(t, c)); n != 4 {
			t.Fatalf("%d devices after the renewal", n)
		}
		// A device that changes hands: member 2 subscribes the same endpoint.
		d2 := e.svc.NewDevice(t)
		subscribe(t, c, d2)
		subscribe(t, m2, d2)
		if n, n2 := len(devices(t, c)), len(devices(t, m2)); n != 4 || n2 != 1 {
			t.Fatalf("after the change of hands: %d and %d", n, n2)
		}
	})
}

// A flight change reaches each device of each member on the flight once,
// encrypted to the device, signed with the server's VAPID key, in the
// member's mail language; a resent event pushes nothing more.
func TestPushOnFlightChange(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := newPushEnv(t, engine)
		c := e.Member(t)
		phone, laptop := e.svc.NewDevice(t), e.svc.NewDevice(t)
		subscribe(t, c, phone)
		subscribe(t, e.Member(t), laptop)
		other := e.svc.NewDevice(t)
		subscribe(t, e.Member2(t), other) // member 2 is not on MM001

		now := e.Clock.Now()
		ev := eventJSON("push-1", "delay", "2026-11-20T05:00:00Z", `,"departure":"2026-11-30T10:40:00+09:00","gate":"31"`)
		if status, m := postEvent(t, e.Env, app.DemoOpsSecret, now, ev); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("event: %d %v", status, m)
		}
		// Queued with the change, one per device: none for member 2.
		if n := e.count(t, `SELECT COUNT(*) FROM push_queue WHERE status = 'pending'`); n != 2 {
			t.Fatalf("%d pushes queued, want 2", n)
		}
		if n := e.send(t); n != 2 {
			t.Fatalf("sent %d\n%s", n, e.Log.String())
		}
		pushes := e.svc.Wait(t, 2, 5*time.Second)
		seen := map[string]bool{}
		for _, p := range pushes {
			seen[p.Device] = true
			if p.Key != e.key {
				t.Errorf("VAPID key %q, want the server's %q", p.Key, e.key)
			}
			if sub := p.Claims["sub"].(string); sub != "mailto:no-reply@members.example.com" {
				t.Errorf("sub %q", sub)
			}
			// ten days ahead: held a day, no hurry
			if p.TTL != 86400 || p.Urgency != "normal" || p.Topic != "MM001-2026-11-30" {
				t.Errorf("TTL %d, Urgency %q, Topic %q", p.TTL, p.Urgency, p.Topic)
			}
			m := p.Message(t)
			if m["title"] != "MM001 delayed" || m["body"] != "KIX → ICN: now departs 10:40, scheduled 08:30. Terminal 1, gate 31." {
				t.Errorf("text %q %q", m["title"], m["body"])
			}
			if m["url"] != "http://127.0.0.1:8080/bookings?lang=en&pnr=HNK7Q2" || m["tag"] != "flight-MM001-2026-11-30" || m["kind"] != "delay" || m["sequence"] != 1.0 {
				t.Errorf("payload %v", m)
			}
			seg := m["segment"].(map[string]any)
			if seg["estimatedDepartDateTime"] != "2026-11-30T10:40:00+09:00" || seg["originGate"] != "31" || seg["originTerminal"] != "1" || seg["isIrregular"] != true {
				t.Errorf("segment %v", seg)
			}
		}
		if !seen[phone.ID] || !seen[laptop.ID] || seen[other.ID] {
			t.Fatalf("pushed to %v", seen)
		}
		// Sent once: a resend of the event and another pass push nothing.
		if status, m := postEvent(t, e.Env, app.DemoOpsSecret, now, ev); status != http.StatusOK || m["outcome"] != "duplicate" {
			t.Fatalf("resend: %d %v", status, m)
		}
		if n := e.send(t); n != 0 || len(e.svc.Pushes()) != 2 {
			t.Fatalf("a second pass sent %d (%d in all)", n, len(e.svc.Pushes()))
		}
		var last int64
		if err := e.App.DB.QueryRow(`SELECT last_push_at FROM push_subscriptions WHERE endpoint = $1`, phone.Endpoint).Scan(&last); err != nil || last == 0 {
			t.Fatalf("last push not recorded: %v %d", err, last)
		}

		// In the member's mail language, a gate change names the terminal
		// and the gate; the day of departure makes it urgent.
		if r := c.Do(http.MethodPut, "/api/user/notification_settings", map[string]any{"flightChanges": true, "pointsReminders": true, "mailLang": "jp"}); r.Status != http.StatusOK {
			t.Fatalf("mail language: %d %s", r.Status, r.Body)
		}
		e.Clock.Set(time.Date(2026, 11, 29, 21, 30, 0, 0, time.UTC)) // 06:30 at Kansai on the day
		ev = eventJSON("push-2", "gate", "2026-11-29T21:29:00Z", `,"gate":"7","terminal":"2"`)
		if status, m := postEvent(t, e.Env, app.DemoOpsSecret, e.Clock.Now(), ev); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("gate event: %d %v", status, m)
		}
		e.send(t)
		pushes = e.svc.Wait(t, 4, 5*time.Second)[2:]
		for _, p := range pushes {
			m := p.Message(t)
			if m["title"] != "MM001便 搭乗口・ターミナル変更" || m["body"] != "KIX → ICN：10:40発。ターミナル2、搭乗口7。" || m["lang"] != "jp" ||
				m["url"] != "http://127.0.0.1:8080/bookings?lang=jp&pnr=HNK7Q2" || m["sequence"] != 2.0 {
				t.Errorf("gate change %v", m)
			}
			// 4 h 10 min to the delayed departure
			if p.Urgency != "high" || p.TTL != 4*3600+10*60 {
				t.Errorf("TTL %d, Urgency %q", p.TTL, p.Urgency)
			}
		}
	})
}

// counter is the value of a counter of reg (with label=value, when given).
func counter(t *testing.T, reg *prometheus.Registry, name string, label ...string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			ok := len(label) == 0
			for _, l := range m.GetLabel() {
				ok = ok || len(label) == 2 && l.GetName() == label[0] && l.GetValue() == label[1]
			}
			if ok {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no metric %s %v", name, label)
	return 0
}

// A push service's 410 deletes the device with what was owed to it; a
// failing one is tried again with backoff, and the push goes once it
// answers. The metrics count each.
func TestPushGoneAndRetried(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		reg := prometheus.NewRegistry()
		e := newPushEnv(t, engine, func(c *app.Config) { c.Metrics = reg })
		c := e.Member(t)
		gone, flaky := e.svc.NewDevice(t), e.svc.NewDevice(t)
		subscribe(t, c, gone)
		subscribe(t, e.Member(t), flaky)
		e.svc.Answer(gone, http.StatusGone)
		e.svc.Answer(flaky, http.StatusInternalServerError)
		ev := eventJSON("push-g", "cancellation", "2026-11-20T05:00:00Z", "")
		if status, m := postEvent(t, e.Env, app.DemoOpsSecret, e.Clock.Now(), ev); status != http.StatusOK {
			t.Fatalf("event: %d %v", status, m)
		}
		if n := e.send(t); n != 0 {
			t.Fatalf("sent %d", n)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM push_subscriptions WHERE endpoint = $1`, gone.Endpoint); n != 0 {
			t.Fatalf("the gone device is still subscribed")
		}
		if n := e.count(t, `SELECT COUNT(*) FROM push_queue q JOIN push_subscriptions s ON s.id = q.subscription_id WHERE s.endpoint = $1`, gone.Endpoint); n != 0 {
			t.Fatalf("pushes still owed to the gone device")
		}
		if list := devices(t, c); len(list) != 1 {
			t.Fatalf("devices %v", list)
		}
		var attempts int
		var status, lastErr string
		check := func() {
			t.Helper()
			if err := e.App.DB.QueryRow(`SELECT q.attempts, q.status, q.last_error FROM push_queue q JOIN push_subscriptions s ON s.id = q.subscription_id
				WHERE s.endpoint = $1`, flaky.Endpoint).Scan(&attempts, &status, &lastErr); err != nil {
				t.Fatal(err)
			}
		}
		check()
		if attempts != 1 || status != "pending" || !strings.Contains(lastErr, "500") {
			t.Fatalf("after a 500: %d %s %q", attempts, status, lastErr)
		}
		// Not before its backoff.
		if n := e.send(t); n != 0 {
			t.Fatalf("retried at once")
		}
		e.svc.Answer(flaky, http.StatusCreated)
		e.Clock.Advance(push.Backoff(1))
		if n := e.send(t); n != 1 {
			t.Fatalf("retry sent %d", n)
		}
		check()
		if status != "sent" || attempts != 2 {
			t.Fatalf("after the retry: %d %s", attempts, status)
		}
		if m := e.svc.Wait(t, 1, 5*time.Second)[0].Message(t); m["title"] != "MM001 cancelled" {
			t.Fatalf("push %v", m)
		}
		for _, m := range []struct {
			name  string
			label []string
			want  float64
		}{
			{"members_push_sent_total", nil, 1},
			{"members_push_expired_total", nil, 1},
			{"members_push_failed_total", []string{"outcome", "retry"}, 1},
			{"members_push_failed_total", []string{"outcome", "failed"}, 0},
		} {
			if got := counter(t, reg, m.name, m.label...); got != m.want {
				t.Errorf("%s%v = %v, want %v", m.name, m.label, got, m.want)
			}
		}
	})
}

// The deliberate endings of sessions switch the alerts off: a logout its
// device's, "sign out" of a device from the security centre that device's,
// "sign out everywhere" every other device's (its session alive or run
// out), a password change every device's, and the account's deletion all.
func TestPushRemovedWhenSessionsEnd(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := newPushEnv(t, engine)
		ctx := context.Background()
		n := func(member string) int {
			t.Helper()
			return e.count(t, `SELECT COUNT(*) FROM push_subscriptions s JOIN members m ON m.id = s.member_id WHERE m.email_key = $1`, member)
		}
		a, b, gone := e.Member(t), e.Member(t), e.Member(t)
		for _, c := range []*apitest.Client{a, b, gone} {
			subscribe(t, c, e.svc.NewDevice(t))
		}
		other := e.Member2(t)
		subscribe(t, other, e.svc.NewDevice(t))

		// A logout: that device's alone.
		if r := gone.Do(http.MethodDelete, "/api/session", nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout: %d", r.Status)
		}
		if got := n(apitest.DemoEmail); got != 2 {
			t.Fatalf("after a logout: %d devices, want 2", got)
		}
		// One device signed out from the security centre.
		var sessions struct {
			Sessions []struct {
				ID      string
				Current bool
			}
		}
		a.Get("/api/security/sessions").JSON(t, &sessions)
		for _, s := range sessions.Sessions {
			if !s.Current {
				if r := a.Do(http.MethodDelete, "/api/security/sessions/"+s.ID, nil); r.Status != http.StatusNoContent {
					t.Fatalf("sign out a device: %d", r.Status)
				}
			}
		}
		if got := n(apitest.DemoEmail); got != 1 {
			t.Fatalf("after signing out a device: %d devices, want 1", got)
		}
		// Everywhere: a device whose session ran out goes too; this one stays.
		expired, dev := e.Member(t), e.svc.NewDevice(t)
		subscribe(t, expired, dev)
		if _, err := e.App.DB.ExecContext(ctx, `DELETE FROM sessions WHERE id_hash = (SELECT session_hash FROM push_subscriptions WHERE endpoint = $1)`, dev.Endpoint); err != nil {
			t.Fatal(err)
		}
		if got := n(apitest.DemoEmail); got != 2 {
			t.Fatalf("a session that ran out keeps its device: %d", got)
		}
		if r := a.Do(http.MethodDelete, "/api/security/sessions", nil); r.Status != http.StatusNoContent {
			t.Fatalf("sign out everywhere: %d", r.Status)
		}
		if got := n(apitest.DemoEmail); got != 1 || len(devices(t, a)) != 1 || devices(t, a)[0].(map[string]any)["current"] != true {
			t.Fatalf("after signing out everywhere: %d devices, want this one", got)
		}
		// A password change: every device, this one's too.
		if r := a.Do(http.MethodPut, "/api/user/password", map[string]string{"passwordOld": apitest.DemoPassword, "passwordNew": "Another123", "passwordReenter": "Another123"}); r.Status != http.StatusOK {
			t.Fatalf("password change: %d %s", r.Status, r.Body)
		}
		if got := n(apitest.DemoEmail); got != 0 {
			t.Fatalf("after a password change: %d devices", got)
		}
		// The deletion of member 2's account.
		var id string
		if err := e.App.DB.QueryRowContext(ctx, `SELECT id FROM members WHERE email_key = $1`, apitest.Demo2Email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if err := store.NewPrivacyStore(e.App.DB).Erase(ctx, id, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		if got := e.count(t, `SELECT COUNT(*) FROM push_subscriptions WHERE member_id = $1`, id); got != 0 {
			t.Fatalf("after the deletion: %d devices", got)
		}
	})
}

// A booking snapshot that moves the flight's schedule (the bookings
// feed's retime path) pushes the time change as the operations feed's
// events do.
func TestPushOnBookingSnapshotRetime(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := newPushEnv(t, engine)
		d := e.svc.NewDevice(t)
		subscribe(t, e.Member(t), d)
		r, err := store.NewBookingStore(e.App.DB).FindByPNR(t.Context(), demoPNR)
		if err != nil {
			t.Fatal(err)
		}
		s := snapOf(r, 2)
		g := s["segments"].([]any)[0].(map[string]any)
		g["departDateTime"] = r.Segments[0].DepartAt.Add(35 * time.Minute).In(booking.JST).Format(time.RFC3339)
		g["arrivalDateTime"] = r.Segments[0].ArrivalAt.Add(35 * time.Minute).In(booking.JST).Format(time.RFC3339)
		if status, m := putSnap(t, e.Env, demoPNR, s); status != http.StatusOK || m["outcome"] != "applied" {
			t.Fatalf("snapshot: %d %v", status, m)
		}
		if n := e.send(t); n != 1 {
			t.Fatalf("sent %d", n)
		}
		m := e.svc.Wait(t, 1, 5*time.Second)[0].Message(t)
		if m["title"] != "MM001: new schedule" || m["body"] != "KIX → ICN: departs 09:05 (was 08:30), arrives 10:55. Terminal 1, gate 12." || m["kind"] != "time_change" {
			t.Fatalf("push %v", m)
		}
	})
}
