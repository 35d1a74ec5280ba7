package main

import (
	"testing"
	"time"

	"members/internal/demo"
	"members/internal/store"
)

// TestCouponRefundCrashSafety: goods follow money in one transaction. A
// coupon pass's refund is recorded as made and the coupon disabled in the
// same transaction, so no state where the refund is recorded and the
// coupon still usable survives a crash. The real server is killed inside
// that transaction, between the refund's record and the coupon's disable
// ("after-refundrecord"): first in the member's refund request, then in
// the background work making the owed refund again after the request
// gave the coupon back (its answer lost); each time the restarted server
// finds the refund owed and the coupon as it was. Then it is killed just
// after the commit, before the member's mail ("after-refundend"): the
// refund is recorded with the coupon disabled, and the worker's sweep
// mails the member once after the restart. The gateway refunded once,
// under the refund's one key.
func TestCouponRefundCrashSafety(t *testing.T) {
	forEachServer(t, []string{"--test-clock"}, func(t *testing.T, engine store.Engine, srv *realServer) {
		openPassSales(srv)
		db := srv.db()
		m := newMember(t, srv.base())
		id := m.buyProduct("coupon_ticket", map[string]any{"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin,
			"fareType": "lite", "agreeTerms": true, "paymentMethod": "creditCard", "creditCardToken": m.tokenize("4242424242424242"),
			"additionalPassengers": []any{map[string]string{"passengerType": "adult", "lastname": "Lee", "firstname": "Mina", "gender": "female",
				"dateOfBirth": "1990-01-01", "nationalityCode": "KR", "passportNo": "M1234567", "dateOfEntry": "2026-12-03",
				"inboundTransportMethod": "air", "inboundFlightNo": "MM702"}}})
		if st := m.settleProduct("coupon_ticket", id, 30*time.Second); st != "settled" {
			t.Fatalf("coupon purchase: %s", st)
		}
		var couponID string
		if err := db.QueryRow(`SELECT id FROM coupons WHERE payment_process_id = $1`, id).Scan(&couponID); err != nil {
			t.Fatal(err)
		}
		const refund = 21600 // 39,600 yen less 9,000 a person
		// couponState is the coupon's refund state: "" usable and
		// refundable, "pending" a refund under way, "done" disabled
		couponState := func() string {
			t.Helper()
			var s string
			if err := db.QueryRow(`SELECT refund_state FROM coupons WHERE id = $1`, couponID).Scan(&s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		mails := func() (sent int, owed bool) {
			t.Helper()
			if err := db.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE kind = 'coupon_ticket_refunded'`).Scan(&sent); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT refund_mail_owed FROM payment_processes WHERE id = $1`, id).Scan(&owed); err != nil {
				t.Fatal(err)
			}
			return sent, owed
		}
		// owedNotRecorded: the gateway refunded, the members side records
		// the refund as owed (not made) and the coupon as state
		owedNotRecorded := func(when, state string) {
			t.Helper()
			p := processOf(t, db, id)
			if p.status != "settled" || p.refunded != 0 || p.refunds != 1 || p.open != 1 {
				t.Fatalf("%s: process %+v, want settled with the refund recorded as owed, not made", when, p)
			}
			if s := couponState(); s != state {
				t.Fatalf("%s: coupon %q, want %q (the transaction that would disable it did not commit)", when, s, state)
			}
			if r := recordsOf(t, db, id); r.refundedAmount != refund {
				t.Fatalf("%s: gateway %+v, want %d refunded", when, r, refund)
			}
			if sent, owed := mails(); sent != 0 || owed {
				t.Fatalf("%s: %d refund mails, owed %v; want none", when, sent, owed)
			}
		}

		// 1. the member's refund, killed between its record and the disable
		srv.crashAt("after-refundrecord")
		if code, p := m.do("POST", "/api/user/coupon_ticket/refund", map[string]string{"id": couponID}); code != 0 {
			t.Fatalf("refund answered %d %v: the server did not crash", code, p)
		}
		srv.crashed(30*time.Second, "after-refundrecord")
		owedNotRecorded("killed in the request's record", "pending")

		// 2. the request had lived on with the gateway's answer lost
		// instead: it gives the coupon back (usable, refundable) and the
		// refund stays owed. Written with the server down.
		if _, err := db.Exec(`UPDATE coupons SET refund_state = '' WHERE id = $1`, couponID); err != nil {
			t.Fatal(err)
		}

		// 3. the background work makes the owed refund (a minute after its
		// record) under its key, or the gateway's refund event confirms it,
		// and is killed at the same point
		srv.crashAt("after-refundrecord")
		srv.advanceClock(2 * time.Minute)
		srv.crashed(60*time.Second, "after-refundrecord")
		owedNotRecorded("killed in the worker's record", "")

		// 4. killed just after the commit, before the member's mail: the
		// refund recorded, the coupon disabled, the mail owed (the killed
		// run's lease has lapsed on the clock moved on)
		srv.crashAt("after-refundend")
		srv.advanceClock(3 * time.Minute)
		srv.crashed(60*time.Second, "after-refundend")
		p := processOf(t, db, id)
		if p.status != "refunded" || p.refunded != refund || p.open != 0 || couponState() != "done" {
			t.Fatalf("after the commit: process %+v, coupon %q; want refunded %d with the coupon disabled", p, couponState(), refund)
		}
		if sent, owed := mails(); sent != 0 || !owed {
			t.Fatalf("after the commit: %d refund mails, owed %v; want the mail owed", sent, owed)
		}

		// 5. restarted for good: the sweep mails the member once
		srv.restart()
		srv.advanceClock(5 * time.Minute)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if _, owed := mails(); !owed {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the owed refund mail was not sent after the restart:\n%s", srv.out.String()[srv.from:])
			}
		}
		if sent, _ := mails(); sent != 1 {
			t.Errorf("%d refund mails, want 1", sent)
		}
		r := recordsOf(t, db, id)
		if keys := r.keysOf("refund_"); r.refundedAmount != refund || len(keys) != 1 || keys[0] != "refund_coupon_refund" {
			t.Errorf("gateway %+v, refund keys %v: want %d refunded once under refund_coupon_refund", r, keys, refund)
		}
		m = newMember(t, srv.base())
		if code, p := m.do("POST", "/api/user/coupon_ticket/refund", map[string]string{"id": couponID}); code != 409 {
			t.Errorf("a second refund = %d %v, want 409", code, p)
		}
		_, list := m.do("GET", "/api/user/coupon_ticket", nil)
		for _, c := range list["couponTickets"].([]any) {
			if c := c.(map[string]any); c["id"] == couponID && (c["disabled"] != true || c["refundable"] != false) {
				t.Errorf("the refunded coupon as the member sees it: %v", c)
			}
		}
	})
}
