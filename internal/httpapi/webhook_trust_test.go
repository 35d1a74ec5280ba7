package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/store"
)

// discrepancies counts the recorded discrepancies of a process.
func (e *payEnv) discrepancies(t *testing.T, processID string) int {
	t.Helper()
	var n int
	if err := e.App.DB.QueryRow(`SELECT COUNT(*) FROM payment_discrepancies WHERE process_id = $1`, processID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSignedWebhookIsOnlyAHint: a correctly signed event that claims a
// capture or a failure the gateway does not show (a wrong amount, currency
// or status) settles and fails nothing: the process follows the gateway's record, the event is
// alerted at ERROR and recorded. The real capture still settles, once.
func TestSignedWebhookIsOnlyAHint(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		// a PayPay purchase of 5,000 yen waits at the gateway for the member
		p := buy(t, c, map[string]any{"amount": 5000, "currencyCode": "JPY", "paymentMethod": "otherPayment",
			"otherPaymentType": "paypay", "requestId": newRequestID()})
		if got := cont(t, c, p.PaymentProcessID); got.Status != "pending" {
			t.Fatalf("continue: %+v", got)
		}
		gpID := env.gatewayPaymentID(t, p.PaymentProcessID)
		record, err := env.App.Gateway.Sandbox.Payment(context.Background(), gpID, "")
		if err != nil {
			t.Fatal(err)
		}
		forge := func(id string, change func(m map[string]any)) []byte {
			b, _ := json.Marshal(record)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			change(m)
			ev, _ := json.Marshal(map[string]any{"id": id, "type": "payment.captured", "created": env.Clock.Now().Unix(),
				"data": map[string]any{"payment": m}})
			return ev
		}
		forged := []struct {
			name   string
			change func(m map[string]any)
		}{
			{"1 KRW", func(m map[string]any) { m["status"], m["amount"], m["currency"] = "captured", 1, "KRW" }},
			{"wrong amount", func(m map[string]any) { m["status"], m["amount"] = "captured", 1 }},
			{"wrong currency", func(m map[string]any) { m["status"], m["currency"] = "captured", "KRW" }},
			{"captured while pending", func(m map[string]any) { m["status"] = "captured" }},
			{"failed while pending", func(m map[string]any) { m["status"], m["failureCode"] = "failed", "card_declined" }},
		}
		for i, f := range forged {
			if code := env.webhook(t, forge("evt_forged_"+string(rune('a'+i)), f.change), env.Clock.Now()); code != http.StatusOK {
				t.Fatalf("%s: webhook = %d", f.name, code)
			}
			if st := status(t, c, p.PaymentProcessID); st.Status != "pending" || env.goodsRows(t, p.PaymentProcessID) != 0 {
				t.Fatalf("%s: a forged event moved the process: %+v, %d grants", f.name, st, env.goodsRows(t, p.PaymentProcessID))
			}
			if n := env.discrepancies(t, p.PaymentProcessID); n != i+1 {
				t.Fatalf("%s: %d discrepancies recorded, want %d", f.name, n, i+1)
			}
		}
		if logs := env.Log.String(); strings.Count(logs, `"alert":"payment_discrepancy"`) != len(forged) || !strings.Contains(logs, `"level":"ERROR"`) {
			t.Errorf("alerts in the log:\n%s", logs)
		}
		// the member pays: the gateway's own event settles, once, and a
		// replay changes nothing
		if _, err := env.App.Gateway.Sandbox.CustomerStep(context.Background(), gpID, true); err != nil {
			t.Fatal(err)
		}
		env.deliver(t)
		paid, _ := env.App.Gateway.Sandbox.Payment(context.Background(), gpID, "")
		ev, _ := json.Marshal(map[string]any{"id": "evt_real_replay", "type": "payment.captured", "created": env.Clock.Now().Unix(),
			"data": map[string]any{"payment": paid}})
		for range 2 {
			if code := env.webhook(t, ev, env.Clock.Now()); code != http.StatusOK {
				t.Fatalf("replay = %d", code)
			}
		}
		if st := status(t, c, p.PaymentProcessID); st.Status != "settled" || env.goodsRows(t, p.PaymentProcessID) != 1 || env.goods.grants.Load() != 1 {
			t.Fatalf("after the real capture: %+v, %d grants", st, env.goods.grants.Load())
		}
		if n := env.discrepancies(t, p.PaymentProcessID); n != len(forged) {
			t.Errorf("the real events recorded discrepancies: %d", n)
		}
	})
}

// TestReconcile: the job finds a settled process the gateway shows as
// refunded (a refund made behind the engine's back) and a clean database
// has no difference; the job's lease lets one instance run it at a time.
func TestReconcile(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		ctx := context.Background()
		c := env.Member(t)
		// a process that expired unpaid is clean
		q := buy(t, c, map[string]any{"amount": 2000, "currencyCode": "JPY", "paymentMethod": "convenienceStore", "requestId": newRequestID()})
		cont(t, c, q.PaymentProcessID)
		// a convenience-store slip lives 72 hours at the sandbox
		env.Clock.Advance(73 * time.Hour)
		if _, err := env.App.Gateway.Sandbox.ExpireDue(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := env.App.Payments.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		var st string
		if err := env.App.DB.QueryRow(`SELECT status FROM payment_processes WHERE id = $1`, q.PaymentProcessID).Scan(&st); err != nil || st != "expired" {
			t.Fatalf("unpaid konbini: %s %v", st, err)
		}
		// and a settled one (inside the reconciliation window; the first
		// session has ended meanwhile)
		c = env.Member(t)
		tok := env.Tokenize(t, "4242424242424242", "123")["token"].(string)
		p := buy(t, c, cardBody(tok, 3000))
		if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" {
			t.Fatalf("continue: %+v", got)
		}
		diffs, err := env.App.Payments.Reconcile(ctx, time.Time{})
		if err != nil || len(diffs) != 0 {
			t.Fatalf("clean: %v %+v", err, diffs)
		}
		// the job: leased once, then not due again for an hour
		ran, _, err := env.App.Payments.RunReconcile(ctx)
		if err != nil || !ran {
			t.Fatalf("first run: %v %v", ran, err)
		}
		if ran, _, _ := env.App.Payments.RunReconcile(ctx); ran {
			t.Error("the job ran again before it was due")
		}
		env.Clock.Advance(61 * time.Minute)
		if _, err := env.App.DB.Exec(`UPDATE payment_jobs SET lease_owner = 'other', lease_until = $1`, env.Clock.Now().Add(time.Minute).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		if ran, _, _ := env.App.Payments.RunReconcile(ctx); ran {
			t.Error("the job ran while another instance held its lease")
		}
		env.Clock.Advance(2 * time.Minute)
		// the seeded difference
		if _, err := env.App.DB.Exec(`UPDATE gw_payments SET status = 'refunded', refunded_amount = amount WHERE id = $1`,
			env.gatewayPaymentID(t, p.PaymentProcessID)); err != nil {
			t.Fatal(err)
		}
		ran, diffs, err = env.App.Payments.RunReconcile(ctx)
		if err != nil || !ran || len(diffs) != 1 || diffs[0].ProcessID != p.PaymentProcessID || !strings.Contains(diffs[0].Problem, "refunded 3000") {
			t.Fatalf("after a refund behind the engine's back: ran %v %v %+v", ran, err, diffs)
		}
		if !strings.Contains(env.Log.String(), `"alert":"payment_reconciliation"`) {
			t.Error("the difference is not in the log")
		}
	})
}
