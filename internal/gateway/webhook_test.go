package gateway_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// receiver is a webhook endpoint that fails its first failFirst calls,
// checks every signature and records what it acknowledged.
type receiver struct {
	mu        sync.Mutex
	secret    string
	now       func() time.Time
	failFirst int
	calls     int
	badSigs   int
	got       []gateway.Event
	seen      map[string]int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.calls++
	if err := gateway.Verify(rc.secret, r.Header.Get("Gateway-Signature"), b, rc.now(), 5*time.Minute); err != nil {
		rc.badSigs++
		w.WriteHeader(400)
		return
	}
	if rc.calls <= rc.failFirst {
		w.WriteHeader(503)
		return
	}
	var ev gateway.Event
	if err := json.Unmarshal(b, &ev); err != nil {
		w.WriteHeader(400)
		return
	}
	if rc.seen == nil {
		rc.seen = map[string]int{}
	}
	rc.seen[ev.ID]++
	rc.got = append(rc.got, ev)
	w.WriteHeader(204)
}

func TestWebhooksSignedAndRetried(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		clock := apitest.NewClock(apitest.Start)
		rc := &receiver{now: clock.Now, failFirst: 3}
		hook := httptest.NewServer(rc)
		defer hook.Close()
		db, err := store.Open(t.Context(), apitest.DSN(t, engine))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		g := startOn(t, db, clock, func(o *gateway.Options) { o.WebhookURL = hook.URL })
		rc.secret = g.G.Keys().WebhookSecret

		p := g.create("card", g.tokenize("4242424242424242"), 1000)
		g.action(p.ID, "authorize", nil, 200)
		ctx := t.Context()
		// Attempt 1 fails (503): retried after 10 s, then 20 s, then 40 s.
		for i, wait := range []time.Duration{0, 10 * time.Second, 20 * time.Second, 40 * time.Second} {
			clock.Advance(wait - time.Millisecond)
			if n, _ := g.G.DeliverDue(ctx); n != 0 {
				t.Fatalf("attempt %d delivered before its time", i+1)
			}
			if i > 0 && rc.calls != i {
				t.Fatalf("attempt %d: %d calls before its time", i+1, rc.calls)
			}
			clock.Advance(time.Millisecond)
			n, err := g.G.DeliverDue(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rc.calls != i+1 {
				t.Fatalf("attempt %d: %d calls", i+1, rc.calls)
			}
			if want := 0; i < 3 && n != want {
				t.Fatalf("attempt %d acknowledged", i+1)
			}
			if i == 3 && n != 1 {
				t.Fatalf("attempt 4: %d acknowledged", n)
			}
		}
		clock.Advance(time.Hour)
		if n, _ := g.G.DeliverDue(ctx); n != 0 || rc.calls != 4 {
			t.Fatalf("acknowledged event sent again: %d calls", rc.calls)
		}
		if rc.badSigs != 0 || len(rc.got) != 1 {
			t.Fatalf("bad signatures %d, got %d", rc.badSigs, len(rc.got))
		}
		ev := rc.got[0]
		if ev.Type != "payment.authorized" || ev.Data.Payment.ID != p.ID || ev.Data.Payment.Status != "authorized" ||
			len(ev.ID) < 8 || ev.ID[:4] != "evt_" || ev.Created != apitest.Start.Unix() {
			t.Fatalf("event %+v", ev)
		}
		// Every change sends its own event with its own id.
		g.action(p.ID, "capture", nil, 200)
		g.action(p.ID, "refund", map[string]any{"amount": 10}, 200)
		g.action(g.create("card", g.tokenize("4000000000000002"), 5).ID, "authorize", nil, 200)
		if n, _ := g.G.DeliverDue(ctx); n != 3 {
			t.Fatalf("delivered %d", n)
		}
		types := map[string]bool{}
		for _, e := range rc.got {
			types[e.Type] = true
			if rc.seen[e.ID] != 1 {
				t.Fatalf("event %s seen %d times", e.ID, rc.seen[e.ID])
			}
		}
		for _, typ := range []string{"payment.authorized", "payment.captured", "payment.refunded", "payment.failed"} {
			if !types[typ] {
				t.Fatalf("no %s in %v", typ, types)
			}
		}
		// The attempts are on record, one row each.
		var attempts int
		if err := db.QueryRow(`SELECT COUNT(*) FROM gw_deliveries`).Scan(&attempts); err != nil || attempts != 7 {
			t.Fatalf("attempts recorded: %d %v", attempts, err)
		}
	})
}

func TestSignature(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"evt_1"}`)
	h := gateway.Sign("whsec_x", now, body)
	if h[:13] != "t=1800000000," {
		t.Fatalf("header %s", h)
	}
	if err := gateway.Verify("whsec_x", h, body, now.Add(4*time.Minute), 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"other secret": gateway.Verify("whsec_y", h, body, now, 5*time.Minute),
		"other body":   gateway.Verify("whsec_x", h, []byte(`{"id":"evt_2"}`), now, 5*time.Minute),
		"late":         gateway.Verify("whsec_x", h, body, now.Add(6*time.Minute), 5*time.Minute),
		"garbage":      gateway.Verify("whsec_x", "v1=zz", body, now, 5*time.Minute),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Two gateway instances on one database share the queue and never send
// the same attempt twice.
func TestTwoWorkers(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		clock := apitest.NewClock(apitest.Start)
		rc := &receiver{now: clock.Now}
		hook := httptest.NewServer(rc)
		defer hook.Close()
		db, err := store.Open(t.Context(), apitest.DSN(t, engine))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		opt := func(o *gateway.Options) { o.WebhookURL = hook.URL }
		a := startOn(t, db, clock, opt)
		b := startOn(t, db, clock, opt)
		rc.secret = a.G.Keys().WebhookSecret
		const n = 30
		for range n {
			a.action(a.create("konbini", "", 100).ID, "authorize", nil, 200)
		}
		// Expire them all after their slips' 3 days: 30 payment.expired
		// events, expired by both at once.
		clock.Advance(72*time.Hour + time.Minute)
		var wg sync.WaitGroup
		expired := make([]int, 2)
		for i, g := range []*gw{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k, err := g.G.ExpireDue(t.Context())
				if err != nil {
					t.Error(err)
				}
				expired[i] = k
			}()
		}
		wg.Wait()
		if expired[0]+expired[1] != n {
			t.Fatalf("expired %v, want %d in all", expired, n)
		}
		delivered := make([]int, 2)
		for i, g := range []*gw{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k, err := g.G.DeliverDue(t.Context())
				if err != nil {
					t.Error(err)
				}
				delivered[i] = k
			}()
		}
		wg.Wait()
		if delivered[0]+delivered[1] != n || rc.calls != n || len(rc.seen) != n {
			t.Fatalf("delivered %v, receiver called %d times for %d events", delivered, rc.calls, len(rc.seen))
		}
		for id, k := range rc.seen {
			if k != 1 {
				t.Fatalf("%s sent %d times", id, k)
			}
		}
		for _, e := range rc.got {
			if e.Type != "payment.expired" || e.Data.Payment.Status != "expired" {
				t.Fatalf("event %+v", e)
			}
		}
	})
}

func TestExpiry(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine, func(o *gateway.Options) {
			o.ExpireAfter, o.QRExpireAfter, o.SlipExpireAfter = 10*time.Minute, 10*time.Minute, 48*time.Hour
		})
		ctx := t.Context()
		slip := g.action(g.create("konbini", "", 100).ID, "authorize", nil, 200)
		if slip.ExpiresAt == nil || !slip.ExpiresAt.Equal(g.Clock.Now().Add(48*time.Hour).Truncate(time.Millisecond)) {
			t.Fatalf("a slip's deadline: %v, want 48 h from now", slip.ExpiresAt)
		}
		if slip.Slip == nil || slip.Slip.InstitutionNumber != "58191" || slip.Slip.ReceiptNumber == "" {
			t.Fatalf("a slip's numbers: %+v", slip.Slip)
		}
		ch := g.action(g.create("card", g.tokenize("4000000000003220"), 100).ID, "authorize", nil, 200)
		qr := g.action(g.create("wechat", "", 100).ID, "authorize", nil, 200)
		paid := g.action(g.create("konbini", "", 100).ID, "authorize", nil, 200)
		created := g.create("konbini", "", 100)
		ok := g.action(g.create("card", g.tokenize("4242424242424242"), 100).ID, "authorize", nil, 200)
		if _, err := g.G.Settle(ctx, paid.ID); err != nil {
			t.Fatal(err)
		}
		g.Clock.Advance(10*time.Minute - time.Second)
		if n, err := g.G.ExpireDue(ctx); n != 0 || err != nil {
			t.Fatalf("expired %d early (%v)", n, err)
		}
		g.Clock.Advance(time.Second)
		if n, err := g.G.ExpireDue(ctx); n != 2 || err != nil {
			t.Fatalf("expired %d (%v)", n, err)
		}
		for id, want := range map[string]string{ch.ID: "expired", qr.ID: "expired", paid.ID: "captured", created.ID: "created", ok.ID: "authorized"} {
			if got := g.get(id); got.Status != want {
				t.Errorf("%s: %s, want %s", id, got.Status, want)
			}
		}
		// The customer who comes back late cannot pay.
		if res := g.submit("/pay/"+qr.ID, "pay"); res.StatusCode != 303 || g.get(qr.ID).Status != "expired" {
			t.Fatalf("late pay: %d %s", res.StatusCode, g.get(qr.ID).Status)
		}
		if _, err := g.G.Settle(ctx, qr.ID); err == nil {
			t.Fatal("operator settled an expired payment")
		}
		var events int
		if err := g.DB.QueryRow(`SELECT COUNT(*) FROM gw_events WHERE type = 'payment.expired'`).Scan(&events); err != nil || events != 2 {
			t.Fatalf("expired events: %d %v", events, err)
		}
		// the slip keeps its days
		if got := g.get(slip.ID); got.Status != "pending" {
			t.Fatalf("slip after 10 minutes: %s", got.Status)
		}
		g.Clock.Advance(48 * time.Hour)
		if n, err := g.G.ExpireDue(ctx); n != 1 || err != nil || g.get(slip.ID).Status != "expired" {
			t.Fatalf("slip after its deadline: expired %d (%v), %s", n, err, g.get(slip.ID).Status)
		}
	})
}

// TestCancel: the merchant cancels a payment waiting for its customer
// under an idempotency key (a repeat answers the same); a paid one is 409.
func TestCancel(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		qr := g.action(g.create("paypay", "", 100).ID, "authorize", nil, 200)
		got := g.action(qr.ID, "cancel", nil, 200)
		if got.Status != "failed" || got.FailureCode != "canceled" {
			t.Fatalf("cancel: %+v", got)
		}
		if res := g.submit("/pay/"+qr.ID, "pay"); res.StatusCode != 303 || g.get(qr.ID).Status != "failed" {
			t.Fatalf("paid after cancel: %s", g.get(qr.ID).Status)
		}
		paid := g.action(g.create("konbini", "", 100).ID, "authorize", nil, 200)
		if _, err := g.G.Settle(t.Context(), paid.ID); err != nil {
			t.Fatal(err)
		}
		g.action(paid.ID, "cancel", nil, 409)
		if got := g.get(paid.ID); got.Status != "captured" {
			t.Fatalf("a paid slip after cancel: %s", got.Status)
		}
	})
}

// Run does the background work on its own: a queued event reaches the
// receiver without anyone calling DeliverDue, at once after the change
// (the poll period here is an hour).
func TestRunDelivers(t *testing.T) {
	rc := &receiver{now: time.Now}
	hook := httptest.NewServer(rc)
	defer hook.Close()
	db, err := store.Open(t.Context(), apitest.DSN(t, store.SQLite))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := startOn(t, db, apitest.NewClock(time.Now()), func(o *gateway.Options) { o.WebhookURL = hook.URL; o.Poll = time.Hour })
	rc.secret = g.G.Keys().WebhookSecret
	go g.G.Run(t.Context())
	g.action(g.create("card", g.tokenize("4242424242424242"), 100).ID, "authorize", nil, 200)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		rc.mu.Lock()
		n := len(rc.got)
		rc.mu.Unlock()
		if n == 1 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("Run did not deliver the event")
}
