package main

import (
	"net/http/httptest"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/store"
	"members/internal/stripe/stripefake"
)

// TestPaymentCrashSafetyOverStripe is TestPaymentCrashSafety with the
// Stripe adapter in place of the sandbox, over the stateful Stripe
// stand-in (which sends its signed webhooks to the server): the real
// server is killed with SIGKILL after the tentative order, while a
// confirmation is out at Stripe, after a 3-D Secure challenge passed at
// Stripe before its webhook reached the server, and before and after the
// confirmation of a burst of continues; after each restart every process
// settles, with one voucher and one paid PaymentIntent.
func TestPaymentCrashSafetyOverStripe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	dsn := apitest.DSN(t, store.SQLite)
	fake := stripefake.New(stripefake.Options{})
	api := httptest.NewServer(fake)
	defer api.Close()
	srv := newServer(t, dsn, "--gateway", "stripe", "--stripe-secret-key", "sk_test_crash", "--stripe-publishable-key", "pk_test_crash",
		"--stripe-webhook-secret", "whsec_crash", "--stripe-api-url", api.URL)
	fake.SetWebhook(srv.base()+"/webhooks/stripe", "whsec_crash")
	srv.start()
	t.Cleanup(srv.kill)
	m := newMember(t, srv.base())
	var ids []string

	// 1. killed after the tentative order: it resumes as prepared
	id := m.buy("pm_card_visa")
	ids = append(ids, id)
	srv.restart()
	if st := m.settle(id, 20*time.Second); st != "settled" {
		t.Fatalf("after crash at prepared: %s", st)
	}

	// 2. killed while the confirmation is out at Stripe (the stand-in
	// pays it but answers 3 s late): found again by its reference
	id = m.crashDuringAuthorize(srv, func() string { return "pm_card_visa_slow" })
	ids = append(ids, id)

	// 3. 3-D Secure passed at Stripe while the server is down: the
	// webhook is lost, the server learns it from Stripe
	id = m.buy("pm_card_threeDSecureRequired")
	ids = append(ids, id)
	if code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil); code != 200 || p["status"] != "pending" {
		t.Fatalf("3DS continue: %d %v", code, p)
	}
	pi := gatewayPaymentOf(t, dsn, id)
	srv.kill()
	if _, ok := fake.Step(pi, true); !ok {
		t.Fatalf("no challenge for %s", pi)
	}
	fake.Wait()
	srv.start()
	if st := m.settle(id, 45*time.Second); st != "settled" {
		t.Fatalf("after crash before the webhook: %s", st)
	}

	// 4. a burst of continues, killed before the confirmation is sent and
	// after Stripe answered it, before the settlement was recorded
	for _, point := range []string{"before-authorize", "after-authorize"} {
		ids = append(ids, burstKilledAt(t, srv, m, "pm_card_visa", point))
	}
	srv.kill()

	db := srv.db()
	for _, id := range ids {
		var status string
		var vouchers int
		if err := db.QueryRow(`SELECT status FROM payment_processes WHERE id = $1`, id).Scan(&status); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE payment_process_id = $1`, id).Scan(&vouchers); err != nil {
			t.Fatal(err)
		}
		payments, paid := fake.ByReference(id)
		if status != "settled" || vouchers != 1 || payments != 1 || paid != 1 {
			t.Errorf("process %s: %s, %d vouchers, %d PaymentIntents (%d paid)", id, status, vouchers, payments, paid)
		}
	}
}
