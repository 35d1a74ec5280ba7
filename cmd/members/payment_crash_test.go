package main

import (
	"sync"
	"testing"
	"time"

	"members/internal/store"
)

// TestPaymentCrashSafety kills the real server with SIGKILL after each
// step of a purchase (prepared; while the slow card's authorise is out;
// a challenge approved at the gateway before the webhook went out; before
// and after the gateway call of a burst of continues), each at a point
// the run is asserted to have reached, restarts it and finds every
// process settled, with one voucher per settled process and one captured
// payment per process.
func TestPaymentCrashSafety(t *testing.T) {
	forEachServer(t, nil, func(t *testing.T, engine store.Engine, srv *realServer) {
		dsn := srv.dsn
		restart := srv.restart
		m := newMember(t, srv.base())
		var visa string
		_, list := m.do("GET", "/api/cc", nil)
		for _, c := range list["creditcards"].([]any) {
			card := c.(map[string]any)
			if card["brand"] == "visa" && card["isValid"] == true {
				visa = card["token"].(string)
			}
		}
		if visa == "" {
			t.Fatalf("no demo visa: %v", list)
		}
		var ids []string

		// 1. killed after the tentative order: it resumes as prepared
		id := m.buy(visa)
		ids = append(ids, id)
		restart()
		if st := m.settle(id, 20*time.Second); st != "settled" {
			t.Fatalf("after crash at prepared: %s", st)
		}

		// 2. killed while the slow card's authorise is out at the gateway
		// (its answer takes 3 s): the run must end at that point
		id = m.crashDuringAuthorize(srv, func() string { return m.tokenize("4000000000000119") })
		ids = append(ids, id)

		// 3. the challenge is approved at the gateway; killed before the
		// webhook reaches the members side
		challenge := m.tokenize("4000000000003220")
		id = m.buy(challenge)
		ids = append(ids, id)
		code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
		if code != 200 || p["status"] != "pending" {
			t.Fatalf("challenge continue: %d %v", code, p)
		}
		gw := gatewayPaymentOf(t, dsn, id)
		srv.kill()
		srv.command("gateway", "settle", gw)
		srv.start()
		if st := m.settle(id, 40*time.Second); st != "settled" {
			t.Fatalf("after crash before the webhook: %s", st)
		}

		// 4. a burst of continues (double clicks, tabs), killed at a named
		// point of one of them: before the card's authorise (and capture)
		// is sent, and after the gateway captured it but before the
		// settlement was recorded
		for _, point := range []string{"before-authorize", "after-authorize"} {
			ids = append(ids, burstKilledAt(t, srv, m, visa, point))
		}
		srv.kill()

		db := srv.db()
		for _, id := range ids {
			var status string
			var vouchers, payments, captured int
			if err := db.QueryRow(`SELECT status FROM payment_processes WHERE id = $1`, id).Scan(&status); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE payment_process_id = $1`, id).Scan(&vouchers); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = 'captured' THEN 1 ELSE 0 END), 0) FROM gw_payments WHERE reference = $1`, id).
				Scan(&payments, &captured); err != nil {
				t.Fatal(err)
			}
			if status != "settled" || vouchers != 1 || payments != 1 || captured != 1 {
				t.Errorf("process %s: %s, %d vouchers, %d gateway payments (%d captured)", id, status, vouchers, payments, captured)
			}
		}
	})
}

// burstKilledAt buys with token, sends four continues at once (double
// clicks, tabs), asserts the server killed itself at the named crash
// point of one of them, restarts it and asserts the process settles. It
// returns the process id.
func burstKilledAt(t *testing.T, srv *realServer, m *member, token, point string) string {
	t.Helper()
	srv.crashAt(point)
	id := m.buy(token)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil) }()
	}
	srv.crashed(20*time.Second, point)
	wg.Wait()
	srv.start()
	if st := m.settle(id, 40*time.Second); st != "settled" {
		t.Fatalf("burst killed at %s: %s", point, st)
	}
	return id
}
