package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/app"
	"members/internal/flightops"
	"members/internal/push/pushtest"
	"members/internal/store"
)

// TestPushCrashSafety: the real server is killed (SIGKILL) just after
// the transaction that applied a flight change and queued its push
// committed, before the sender sent it. After the restart the sender
// delivers it to the stand-in push service exactly once, and records it
// sent.
func TestPushCrashSafety(t *testing.T) {
	svc := pushtest.Start(t, "")
	forEachServer(t, []string{"--test-push-service", svc.URL}, func(t *testing.T, engine store.Engine, srv *realServer) {
		db := srv.db()
		m := newMember(t, srv.base())
		device := svc.NewDevice(t)
		if code, body := m.do("PUT", "/api/push/subscription", device.Subscription()); code != 200 {
			t.Fatalf("subscribe: %d %v", code, body)
		}
		code, booking := m.do("GET", "/api/reservations/HNK7Q2", nil)
		if code != 200 {
			t.Fatalf("booking: %d", code)
		}
		seg := booking["segments"].([]any)[0].(map[string]any)
		date := seg["departDateTime"].(string)[:10]

		srv.crashAt("after-pushqueue")
		raw, _ := json.Marshal(map[string]any{"id": "crash-push-1", "flight": "MM001", "date": date, "kind": "delay",
			"occurredAt": time.Now().UTC().Format(time.RFC3339), "departure": date + "T10:40:00+09:00", "gate": "31"})
		req, _ := http.NewRequest(http.MethodPost, srv.base()+"/ops/v1/flight-events", bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(flightops.SignatureHeader, flightops.Sign([]byte(app.DemoOpsSecret), time.Now(), raw))
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			t.Fatalf("the event answered %d: the server did not crash", res.StatusCode)
		}
		srv.crashed(30*time.Second, "after-pushqueue")
		status := func() string {
			t.Helper()
			var s string
			if err := db.QueryRow(`SELECT q.status FROM push_queue q JOIN push_subscriptions s ON s.id = q.subscription_id
				WHERE s.endpoint = $1`, device.Endpoint).Scan(&s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		mine := func() int {
			n := 0
			for _, p := range svc.Pushes() {
				if p.Device == device.ID {
					n++
				}
			}
			return n
		}
		if s := status(); s != "pending" || mine() != 0 {
			t.Fatalf("after the crash: the push is %s, %d delivered; want it queued, none delivered", s, mine())
		}

		srv.restart()
		for deadline := time.Now().Add(30 * time.Second); status() != "sent"; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the queued push was not sent after the restart:\n%s", srv.out.String()[srv.from:])
			}
		}
		// recorded sent after the push service took it: the count is final
		if n := mine(); n != 1 {
			t.Fatalf("%d deliveries to the device, want 1", n)
		}
		for _, p := range svc.Pushes() {
			if p.Device == device.ID {
				msg := p.Message(t)
				if msg["title"] != "MM001 delayed" || !strings.Contains(msg["body"].(string), "now departs 10:40") {
					t.Errorf("push %v", msg)
				}
			}
		}
	})
}

// --test-push-service is for tests on loopback only.
func TestTestPushServiceLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		addr, url string
		ok        bool
	}{
		{"127.0.0.1:8080", "http://127.0.0.1:9000/push/", true},
		{"localhost:8080", "http://localhost:9000/push/", true},
		{"0.0.0.0:8080", "http://127.0.0.1:9000/push/", false},
		{"127.0.0.1:8080", "http://10.0.0.2:9000/push/", false},
		{"127.0.0.1:8080", "https://fcm.googleapis.com/", false},
		{"127.0.0.1:8080", "not a url", false},
	} {
		if err := testPushServiceAllowed(tc.addr, tc.url); (err == nil) != tc.ok {
			t.Errorf("--addr %s --test-push-service %s: %v", tc.addr, tc.url, err)
		}
	}
}

// `members push vapid-keys` prints a key pair that the server takes.
func TestPushVapidKeys(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"push", "vapid-keys"}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	private, public, ok := strings.Cut(strings.TrimSpace(out.String()), "\t")
	if !ok || len(private) != 43 || len(public) != 87 {
		t.Fatalf("printed %q", out.String())
	}
	if err := serve(t.Context(), []string{"--addr", "127.0.0.1:0", "--vapid-private-key", "short", "--demo"}, &out, &errOut, nil); err == nil ||
		!strings.Contains(err.Error(), "--vapid-private-key") {
		t.Fatalf("a bad key: %v", err)
	}
}
