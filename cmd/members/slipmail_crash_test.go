package main

import (
	"testing"
	"time"

	"members/internal/store"
)

// TestSlipEndedMailCrashSafety: the server is killed just after the move
// that cancels a konbini slip took effect, before its mail. After the
// restart the worker's sweep (a minute after the move: the clock is moved
// on) sends the cancelled slip's mail, once, and records it sent.
func TestSlipEndedMailCrashSafety(t *testing.T) {
	forEachServer(t, []string{"--test-clock"}, func(t *testing.T, engine store.Engine, srv *realServer) {
		db := srv.db()
		mails := func() int {
			t.Helper()
			var n int
			if err := db.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE kind = 'payment_slip_cancelled'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		m := newMember(t, srv.base())
		id := m.buyProduct("peachpoints", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 3000,
			"paymentMethod": "convenienceStore"})
		if code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil); code != 200 || p["status"] != "pending" {
			t.Fatalf("slip continue: %d %v", code, p)
		}
		srv.crashAt("after-slipend")
		if code, p := m.do("POST", "/api/payments/"+id+"/cancel", nil); code != 0 {
			t.Fatalf("cancel answered %d %v: the server did not crash", code, p)
		}
		srv.crashed(30*time.Second, "after-slipend")
		var status, code string
		var notified bool
		if err := db.QueryRow(`SELECT status, failure_code, notified FROM payment_processes WHERE id = $1`, id).Scan(&status, &code, &notified); err != nil {
			t.Fatal(err)
		}
		if status != "failed" || code != "canceled" || notified {
			t.Fatalf("after the crash: %s %s notified %v, want failed canceled, the mail owed", status, code, notified)
		}
		if n := mails(); n != 0 {
			t.Fatalf("%d cancelled slip mails before the restart, want 0", n)
		}

		srv.restart()
		srv.advanceClock(2 * time.Minute)
		for deadline := time.Now().Add(30 * time.Second); !notified; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the owed mail was not sent after the restart:\n%s", srv.out.String()[srv.from:])
			}
			if err := db.QueryRow(`SELECT notified FROM payment_processes WHERE id = $1`, id).Scan(&notified); err != nil {
				t.Fatal(err)
			}
		}
		// recorded sent after the outbox took it: the count is final
		if n := mails(); n != 1 {
			t.Errorf("%d cancelled slip mails, want 1", n)
		}
	})
}
