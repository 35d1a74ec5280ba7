package gateway_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// Purge deletes idempotency keys and delivered events (with their
// attempts) past their keeping time; fresh ones and events still being
// sent stay.
func TestPurgeOldKeysAndEvents(t *testing.T) {
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
		g := startOn(t, db, clock, func(o *gateway.Options) {
			o.WebhookURL = hook.URL
			o.KeepKeys, o.KeepEvents = 24*time.Hour, 7*24*time.Hour
		})
		rc.secret = g.G.Keys().WebhookSecret
		ctx := t.Context()
		count := func(q string) int {
			t.Helper()
			var n int
			if err := db.QueryRow(q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		// day 0: an old payment, its event delivered
		old := g.create("card", g.tokenize("4242424242424242"), 1000)
		g.action(old.ID, "authorize", map[string]string{"capture": "automatic"}, 200)
		if _, err := g.G.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		// day 2: a payment whose event the receiver refuses (still being sent)
		clock.Advance(2 * 24 * time.Hour)
		rc.mu.Lock()
		rc.failFirst = rc.calls + 1000
		rc.mu.Unlock()
		stuck := g.create("card", g.tokenize("4242424242424242"), 1000)
		g.action(stuck.ID, "authorize", map[string]string{"capture": "automatic"}, 200)
		if _, err := g.G.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		keysBefore := count(`SELECT COUNT(*) FROM gw_idempotency`)
		if keysBefore != 4 || count(`SELECT COUNT(*) FROM gw_events`) != 2 || count(`SELECT COUNT(*) FROM gw_deliveries`) != 2 {
			t.Fatalf("setup: %d keys", keysBefore)
		}
		// day 8: the first day's keys (older than 1 day) and its delivered
		// event (older than 7 days) go; the refused event stays
		clock.Advance(6*24*time.Hour + time.Minute)
		fresh := g.create("card", g.tokenize("4242424242424242"), 1000)
		keys, events, err := g.G.Purge(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if keys != 4 || events != 1 {
			t.Errorf("purged %d keys, %d events; want 4 and 1", keys, events)
		}
		var left string
		if err := db.QueryRow(`SELECT payment_id FROM gw_events`).Scan(&left); err != nil || left != stuck.ID {
			t.Errorf("events left: %q %v", left, err)
		}
		if n := count(`SELECT COUNT(*) FROM gw_deliveries`); n != 1 {
			t.Errorf("%d delivery attempts left, want the stuck event's 1", n)
		}
		if n := count(`SELECT COUNT(*) FROM gw_idempotency`); n != 1 {
			t.Errorf("%d keys left, want the fresh create's", n)
		}
		// the payments themselves are kept, and a second purge finds nothing
		if got := g.get(old.ID); got.Status != "captured" || g.get(fresh.ID).Status != "created" {
			t.Errorf("payments after the purge: %s", got.Status)
		}
		if k, e, err := g.G.Purge(ctx); err != nil || k != 0 || e != 0 {
			t.Errorf("second purge: %d %d %v", k, e, err)
		}
	})
}
