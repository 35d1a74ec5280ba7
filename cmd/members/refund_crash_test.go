package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"members/internal/demo"
	"members/internal/pass"
	"members/internal/payment"
	"members/internal/store"
)

// The tests here kill the real server at each step of a refund and of a
// cancel (the server kills itself at a gateway call: realServer.crashAt),
// restart it, and count what moved against the gateway's own records: its
// payments, the idempotency keys it saw and the events it sent.

// gatewayRecords is what the sandbox gateway recorded for one process.
type gatewayRecords struct {
	payments       int    // gateway payments with the process as reference
	status         string // of the (one) payment
	amount         int64
	refundedAmount int64
	keys           []string // idempotency keys pp_<process>_<step> seen
	events         map[string]int
}

func recordsOf(t *testing.T, db *store.DB, processID string) gatewayRecords {
	t.Helper()
	var r gatewayRecords
	rows, err := db.Query(`SELECT id, status, amount, refunded_amount FROM gw_payments WHERE reference = $1`, processID)
	if err != nil {
		t.Fatal(err)
	}
	var paymentID string
	for rows.Next() {
		r.payments++
		if err := rows.Scan(&paymentID, &r.status, &r.amount, &r.refundedAmount); err != nil {
			t.Fatal(err)
		}
	}
	rows.Close()
	rows, err = db.Query(`SELECT idem_key FROM gw_idempotency WHERE idem_key LIKE $1 ORDER BY idem_key`, "pp_"+processID+"_%")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		r.keys = append(r.keys, strings.TrimPrefix(k, "pp_"+processID+"_"))
	}
	rows.Close()
	r.events = map[string]int{}
	rows, err = db.Query(`SELECT type FROM gw_events WHERE payment_id = $1`, paymentID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var typ string
		if err := rows.Scan(&typ); err != nil {
			t.Fatal(err)
		}
		r.events[typ]++
	}
	rows.Close()
	return r
}

// keysOf counts the keys of one step (refund_…, cancel).
func (r gatewayRecords) keysOf(prefix string) []string {
	var out []string
	for _, k := range r.keys {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	return out
}

// processRow is the members side of a process.
type processRow struct {
	status, failureCode string
	refunded            int64
	refunds, open       int // refund records, and those not made yet
}

func processOf(t *testing.T, db *store.DB, id string) processRow {
	t.Helper()
	var p processRow
	if err := db.QueryRow(`SELECT status, failure_code, refunded_amount FROM payment_processes WHERE id = $1`, id).
		Scan(&p.status, &p.failureCode, &p.refunded); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN done THEN 0 ELSE 1 END), 0) FROM payment_refunds WHERE process_id = $1`, id).
		Scan(&p.refunds, &p.open); err != nil {
		t.Fatal(err)
	}
	return p
}

// vouchersOf counts the point vouchers a process granted.
func vouchersOf(t *testing.T, db *store.DB, id string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE payment_process_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// refusedRefundCrashes takes a capture whose goods the settlement refuses
// (reason) from a server that has just been restarted to settle it: killed
// after recording the refusal and before the refund call, then after the
// gateway refunded and before the refund was recorded as made, then
// restarted for good. The worker's claim of recorded refunds (a minute
// after they were recorded: the test clock is moved on) makes the refund
// each time, under the process's one refund key. In the end the gateway
// refunded the whole amount exactly once.
func refusedRefundCrashes(t *testing.T, srv *realServer, id, reason string) {
	t.Helper()
	db := srv.db()
	srv.crashed(60*time.Second, "before-refund")
	p := processOf(t, db, id)
	if p.status != "failed" || p.failureCode != reason || p.refunds != 1 || p.open != 1 {
		t.Fatalf("after the refusal: %+v, want failed %s with one refund recorded and not made", p, reason)
	}
	if r := recordsOf(t, db, id); r.status != "captured" || r.refundedAmount != 0 {
		t.Fatalf("gateway before the refund call: %+v", r)
	}

	srv.crashAt("after-refund")
	srv.advanceClock(2 * time.Minute)
	srv.crashed(30*time.Second, "after-refund")
	p = processOf(t, db, id)
	if r := recordsOf(t, db, id); r.status != "refunded" || r.refundedAmount != r.amount || p.open != 1 {
		t.Fatalf("after the refund call: gateway %+v, process %+v (want refunded at the gateway, not yet recorded as made)", r, p)
	}

	srv.restart()
	srv.advanceClock(2 * time.Minute)
	// made (no open refund) and recorded on the process (its refunded
	// amount, which the gateway's answer or its webhook sets a moment later)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if p = processOf(t, db, id); p.open == 0 && p.refunded != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recorded refund was not made and recorded after the restart: %+v\n%s", p, srv.out.String())
		}
	}
	r := recordsOf(t, db, id)
	if r.payments != 1 || r.status != "refunded" || r.refundedAmount != r.amount || p.refunded != r.amount {
		t.Errorf("gateway %+v, process %+v: want one payment refunded in full, once", r, p)
	}
	if keys := r.keysOf("refund_"); len(keys) != 1 || keys[0] != "refund_"+payment.RefundRefused {
		t.Errorf("refund keys at the gateway: %v, want just refund_%s", keys, payment.RefundRefused)
	}
	if r.events["payment.refunded"] != 1 {
		t.Errorf("gateway events: %v, want one payment.refunded", r.events)
	}
	if p.status != "failed" || p.failureCode != reason || p.refunds != 1 {
		t.Errorf("process at the end: %+v", p)
	}
}

// TestOnePassCrashSafety: one unlimited pass per member and period. A
// purchase priced while the period was free loses a race: another pass
// of the period (the other way in: one member cannot hold two open
// payments, so the winner is written as its settlement would) arrives
// before the capture. The server is killed just after the gateway
// captured (before settlement), after the settlement refused the goods
// (before the refund call) and after the refund call (before it was
// recorded). The member ends with exactly one pass and the losing payment
// refunded exactly once.
func TestOnePassCrashSafety(t *testing.T) {
	forEachServer(t, []string{"--test-clock"}, func(t *testing.T, engine store.Engine, srv *realServer) {
		openPassSales(srv)
		m := newMember(t, srv.base())
		id := m.buyProduct("gogo_pass", map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext,
			"fareType": "happlus", "paymentMethod": "creditCard", "creditCardToken": m.tokenize("4242424242424242")})

		// the race is won by the other pass, with the server down
		srv.kill()
		db := srv.db()
		ctx := context.Background()
		var codeID string
		if err := db.QueryRow(`SELECT id FROM gogo_pass_exchange_codes WHERE code = 'GPX-DEMO-0002'`).Scan(&codeID); err != nil {
			t.Fatal(err)
		}
		if err := store.NewPassStore(db).Redeem(ctx, codeID, pass.Pass{
			ID: store.NewID(), Code: "GPRACE0000001", MemberID: demo.Member1, PlanID: demo.DemoPlanAll, PeriodID: demo.DemoPeriodNext,
			FareType: "happlus", CurrencyCode: "JPY", Source: "exchange", PurchasedAt: time.Now(),
		}); err != nil {
			t.Fatal(err)
		}

		// killed as the card's authorise (with capture) answers. The
		// gateway's webhook of the capture may reach the server first and
		// settle: then it is killed before the refund call.
		srv.crashAt("after-authorize", "before-refund")
		if code, p := m.do("POST", "/api/gogo_pass/buy/"+id+"/continue", nil); code != 0 {
			t.Fatalf("continue answered %d %v: the server did not crash at the capture", code, p)
		}
		if srv.crashed(30*time.Second, "after-authorize", "before-refund") == "after-authorize" {
			if r := recordsOf(t, db, id); r.status != "captured" {
				t.Fatalf("gateway after the capture: %+v", r)
			}
			// pending, or already refused by the capture's webhook (which
			// may settle while the authorise answer is on its way back)
			// with the refund recorded and not made
			p := processOf(t, db, id)
			refusedFirst := p.status == "failed" && p.failureCode == pass.RefusedHeld && p.refunded == 0 && p.refunds == 1 && p.open == 1
			if p.status != "pending" && !refusedFirst {
				t.Fatalf("process after the capture: %+v", p)
			}
			// restarted: the background work finds the capture once the
			// request's lease has lapsed, and the settlement refuses the
			// pass; or, refused already, it claims the recorded refund a
			// minute after it was recorded (each run's test clock starts
			// at the real time: the refund is recorded before the move)
			srv.crashAt("before-refund")
			if refusedFirst {
				srv.advanceClock(2 * time.Minute)
			} else {
				srv.advanceClock(15 * time.Second)
			}
		}
		refusedRefundCrashes(t, srv, id, pass.RefusedHeld)

		var passes, bought int
		if err := db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN payment_process_id = $3 THEN 1 ELSE 0 END), 0)
			FROM gogo_passes WHERE member_id = $1 AND period_id = $2`, demo.Member1, demo.DemoPeriodNext, id).Scan(&passes, &bought); err != nil {
			t.Fatal(err)
		}
		if passes != 1 || bought != 0 {
			t.Errorf("the member holds %d passes of the period (%d from the refused purchase), want 1 (0)", passes, bought)
		}
	})
}

// TestErasedMemberCaptureCrashSafety: a capture that arrives for a member
// erased meanwhile (the erasure missed the payment in a race) grants
// nothing and is refunded once, under pp_<id>_refund_refused, through
// crashes before and after the refund call: the worker's claim of
// recorded refunds makes it after each restart.
func TestErasedMemberCaptureCrashSafety(t *testing.T) {
	forEachServer(t, []string{"--test-clock"}, func(t *testing.T, engine store.Engine, srv *realServer) {
		dsn := srv.dsn
		m := newMember(t, srv.base())
		id := m.buy(m.tokenize("4000000000003220")) // the card asks for a challenge
		if code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil); code != 200 || p["status"] != "pending" {
			t.Fatalf("challenge continue: %d %v", code, p)
		}
		gw := gatewayPaymentOf(t, dsn, id)

		// with the server down: the erasure looks while the payment is not
		// pending yet (the race), then the member approves the challenge
		srv.kill()
		db := srv.db()
		ctx := context.Background()
		setStatus := func(status string) {
			if _, err := db.Exec(`UPDATE payment_processes SET status = $1 WHERE id = $2`, status, id); err != nil {
				t.Fatal(err)
			}
		}
		setStatus("prepared")
		if err := store.NewPrivacyStore(db).Erase(ctx, demo.Member1, time.Now()); err != nil {
			t.Fatal(err)
		}
		setStatus("pending")
		srv.command("gateway", "settle", gw)

		// restarted: the capture's webhook arrives, the settlement refuses
		srv.crashAt("before-refund")
		refusedRefundCrashes(t, srv, id, payment.RefusedMemberErased)

		if n := vouchersOf(t, db, id); n != 0 {
			t.Errorf("%d vouchers granted to an erased member", n)
		}
	})
}

// TestPendingCancelCrashSafety: cancelling a payment left for later (a
// konbini slip) with the server killed before the gateway call and after
// the gateway cancelled (before the process recorded it). After each
// restart the cancel ends the process as failed ("canceled"), the gateway
// cancelled its payment exactly once (one cancel key, one failed event),
// nothing is granted and the member may buy again.
func TestPendingCancelCrashSafety(t *testing.T) {
	forEachServer(t, []string{"--test-clock"}, func(t *testing.T, engine store.Engine, srv *realServer) {
		db := srv.db()
		for _, point := range []string{"before-cancel", "after-cancel"} {
			m := newMember(t, srv.base())
			id := m.buyProduct("peachpoints", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 3000,
				"paymentMethod": "convenienceStore"})
			if code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil); code != 200 || p["status"] != "pending" {
				t.Fatalf("%s: slip continue: %d %v", point, code, p)
			}
			srv.crashAt(point)
			if code, p := m.do("POST", "/api/payments/"+id+"/cancel", nil); code != 0 {
				t.Fatalf("%s: cancel answered %d %v: the server did not crash", point, code, p)
			}
			srv.crashed(30*time.Second, point)
			// after the gateway's answer its webhook of the cancel may
			// have reached the server before the kill
			want, alsoFailed := payment.GWPending, false
			if point == "after-cancel" {
				want, alsoFailed = payment.GWFailed, true
			}
			if r := recordsOf(t, db, id); r.status != want {
				t.Fatalf("%s: gateway payment %+v, want %s", point, r, want)
			}
			if p := processOf(t, db, id); p.status != "pending" && !(alsoFailed && p.status == "failed") {
				t.Fatalf("%s: process %+v, want still pending", point, p)
			}

			// restarted, the member cancels again (busy until the killed
			// request's lease lapses, which the clock moved on makes now;
			// the background work may end it first)
			srv.restart()
			srv.advanceClock(15 * time.Second)
			m = newMember(t, srv.base())
			var status any
			for deadline := time.Now().Add(40 * time.Second); status != "failed"; time.Sleep(300 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: not cancelled after the restart: %v\n%s", point, status, srv.out.String())
				}
				code, p := m.do("POST", "/api/payments/"+id+"/cancel", nil)
				if code == 200 {
					status = p["status"]
				}
			}
			p := processOf(t, db, id)
			r := recordsOf(t, db, id)
			if p.status != "failed" || p.failureCode != payment.FailCanceled || p.refunds != 0 {
				t.Errorf("%s: process %+v", point, p)
			}
			if r.payments != 1 || r.status != "failed" || len(r.keysOf("cancel")) != 1 || r.events["payment.failed"] != 1 || r.events["payment.captured"] != 0 {
				t.Errorf("%s: gateway %+v: want its payment cancelled once", point, r)
			}
			if n := vouchersOf(t, db, id); n != 0 {
				t.Errorf("%s: %d vouchers granted", point, n)
			}
			// unblocked: nothing pending, a new purchase is taken
			if code, l := m.do("GET", "/api/payments/pending", nil); code != 200 || len(l["payments"].([]any)) != 0 {
				t.Errorf("%s: pending payments %d %v", point, code, l)
			}
			next := m.buy(m.tokenize("4242424242424242"))
			if st := m.settle(next, 30*time.Second); st != "settled" {
				t.Errorf("%s: the next purchase: %s", point, st)
			}
		}
	})
}
