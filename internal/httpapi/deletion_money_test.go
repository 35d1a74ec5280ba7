package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/mail/mailtest"
	"members/internal/payment"
	"members/internal/platform"
	"members/internal/store"
)

type deletionLosses struct {
	PendingPayment *struct{ PaymentProcessID, ProductType string }
	Coupons        []struct {
		Ack, ID, Name string
		RefundAmount  int64
	}
	Points []struct {
		Ack, CurrencyCode string
		Amount            int64
	}
}

func (l deletionLosses) acks() []string {
	var out []string
	for _, c := range l.Coupons {
		out = append(out, c.Ack)
	}
	for _, p := range l.Points {
		out = append(out, p.Ack)
	}
	return out
}

// deletionToken asks for a deletion with the password and reads the
// mailed link's token.
func deletionToken(t *testing.T, srv *mailtest.Server, c *apitest.Client, email string) string {
	t.Helper()
	if r := c.Do(http.MethodPost, "/api/me/deletion", map[string]string{"password": apitest.DemoPassword}); r.Status != http.StatusOK {
		t.Fatalf("deletion request: %d %s", r.Status, r.Body)
	}
	m := deletionLink.FindStringSubmatch(string(srv.WaitFor(email).Decode(t).Parts["text/plain"]))
	if m == nil {
		t.Fatal("no deletion link mailed")
	}
	return m[1]
}

// refundState is a process's status, failure code and refunded amount, and
// its gateway payment's status and refunded amount.
func refundState(t *testing.T, env *payEnv, id string) (status, code string, refunded int64, gwStatus string, gwRefunded int64) {
	t.Helper()
	if err := env.App.DB.QueryRow(`SELECT status, failure_code, refunded_amount FROM payment_processes WHERE id = $1`, id).
		Scan(&status, &code, &refunded); err != nil {
		t.Fatal(err)
	}
	gp, err := env.App.Gateway.Sandbox.Payment(context.Background(), env.gatewayPaymentID(t, id), "")
	if err != nil {
		t.Fatal(err)
	}
	return status, code, refunded, gp.Status, gp.RefundedAmount
}

// Deleting an account with money in flight: refused while a payment is
// pending (the page's losses name it), refused until every refundable
// coupon and point balance is confirmed, and a capture that arrives for an
// erased member (the erasure missed the payment in a race) is not granted
// but refunded through the gateway, once: by the webhook as it comes, and
// by the worker after a crash between the refusal and the refund.
func TestAccountDeletionWithMoneyInFlight(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		ctx := context.Background()
		c := env.Member(t)

		// A refundable coupon pass, then a card purchase waiting for its challenge.
		settle(t, env, c, "coupon_ticket", map[string]any{
			"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
		})
		tok := env.Tokenize(t, "4000000000003220", "123")["token"].(string)
		p := buy(t, c, cardBody(tok, 7000))
		if got := cont(t, c, p.PaymentProcessID); got.Status != "pending" {
			t.Fatalf("challenge purchase: %+v", got)
		}
		token := deletionToken(t, srv, c, apitest.DemoEmail)

		var losses deletionLosses
		c.Get("/api/me/deletion/losses").JSON(t, &losses)
		if losses.PendingPayment == nil || losses.PendingPayment.PaymentProcessID != p.PaymentProcessID || losses.PendingPayment.ProductType != "peachpoints" {
			t.Fatalf("losses: pending payment %+v", losses.PendingPayment)
		}
		if len(losses.Coupons) != 1 || losses.Coupons[0].RefundAmount != 10800 || losses.Coupons[0].Name == "" || len(losses.Points) == 0 {
			t.Fatalf("losses: %+v", losses)
		}
		if r := env.Member2(t).Get("/api/me/deletion/losses"); strings.Contains(string(r.Body), p.PaymentProcessID) {
			t.Fatalf("member 2 sees member 1's losses: %s", r.Body)
		}

		// Refused while the payment is pending, in the member's language.
		c.Lang = "jp"
		r := c.Do(http.MethodPost, "/api/me/deletion/confirm", map[string]any{"token": token, "acknowledged": losses.acks()})
		if r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "account_deletion_payment_pending" || !strings.Contains(string(r.Body), "処理中のお支払い") {
			t.Fatalf("confirm while paying: %d %s", r.Status, r.Body)
		}
		c.Lang = "en"
		var memberID string
		if err := env.App.DB.QueryRow(`SELECT id FROM members WHERE email_key = $1`, apitest.DemoEmail).Scan(&memberID); err != nil {
			t.Fatal(err)
		}
		// The erasure itself refuses too (its own check, in its transaction).
		if err := store.NewPrivacyStore(env.App.DB).Erase(ctx, memberID, env.Clock.Now()); err == nil {
			t.Fatal("erased with a pending payment")
		}

		// The race: the payment is not pending as the erasure looks (it
		// goes pending just after). Until then every loss must be confirmed.
		setStatus(t, env.App.DB, p.PaymentProcessID, "prepared")
		for _, acks := range [][]string{nil, losses.acks()[1:], {"points:XXX"}} {
			r := c.Do(http.MethodPost, "/api/me/deletion/confirm", map[string]any{"token": token, "acknowledged": acks})
			if r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "account_deletion_unconfirmed" {
				t.Fatalf("confirm with acks %v: %d %s", acks, r.Status, r.Body)
			}
		}
		if r := c.Do(http.MethodPost, "/api/me/deletion/confirm", map[string]any{"token": token, "acknowledged": losses.acks()}); r.Status != http.StatusNoContent {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}
		setStatus(t, env.App.DB, p.PaymentProcessID, "pending")

		// The capture arrives by webhook: no goods, the whole amount back, once.
		if _, err := env.App.Gateway.Sandbox.CustomerStep(ctx, env.gatewayPaymentID(t, p.PaymentProcessID), true); err != nil {
			t.Fatal(err)
		}
		env.deliver(t)
		st, code, refunded, gw, gwRefunded := refundState(t, env, p.PaymentProcessID)
		if st != "failed" || code != payment.RefusedMemberErased || refunded != 7000 || gw != "refunded" || gwRefunded != 7000 {
			t.Fatalf("after the capture: %s %s %d, gateway %s %d", st, code, refunded, gw, gwRefunded)
		}
		if n := env.goodsRows(t, p.PaymentProcessID); n != 0 {
			t.Fatalf("%d goods granted to an erased member", n)
		}
		env.deliver(t)
		env.Clock.Advance(2 * time.Minute)
		if _, err := env.App.Payments.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if _, _, refunded, _, gwRefunded := refundState(t, env, p.PaymentProcessID); refunded != 7000 || gwRefunded != 7000 {
			t.Fatalf("refunded again: %d, gateway %d", refunded, gwRefunded)
		}

		// Member 2: the same race, and the server dies right after the
		// settlement's transaction refused the capture (the refund recorded,
		// not made). The worker makes it, once.
		c2 := env.Member2(t)
		tok = env.Tokenize(t, "4000000000003220", "123")["token"].(string)
		p2 := buy(t, c2, cardBody(tok, 5000))
		if got := cont(t, c2, p2.PaymentProcessID); got.Status != "pending" {
			t.Fatalf("member 2 challenge purchase: %+v", got)
		}
		var member2 string
		if err := env.App.DB.QueryRow(`SELECT id FROM members WHERE email_key = $1`, apitest.Demo2Email).Scan(&member2); err != nil {
			t.Fatal(err)
		}
		setStatus(t, env.App.DB, p2.PaymentProcessID, "prepared")
		if err := store.NewPrivacyStore(env.App.DB).Erase(ctx, member2, env.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		setStatus(t, env.App.DB, p2.PaymentProcessID, "pending")
		gp2 := env.gatewayPaymentID(t, p2.PaymentProcessID)
		if _, err := env.App.Gateway.Sandbox.CustomerStep(ctx, gp2, true); err != nil {
			t.Fatal(err)
		}
		// captured as the engine does after the challenge
		api := payment.NewHTTPGateway(env.App.Gateway.URL, env.App.Gateway.Key, 5*time.Second)
		if got, err := api.Capture(ctx, "pp_"+p2.PaymentProcessID+"_capture", gp2); err != nil || got.Status != payment.GWCaptured {
			t.Fatalf("capture: %+v %v", got, err)
		}
		out, err := store.NewPaymentStore(env.App.DB).Settle(ctx, p2.PaymentProcessID, env.Clock.Now(), false, nil, func(payment.Tx) (payment.Granted, error) {
			t.Error("granted to an erased member")
			return payment.Granted{}, nil
		})
		if err != nil || out.Settled || out.Refused != payment.RefusedMemberErased {
			t.Fatalf("settlement for an erased member: %+v %v", out, err)
		}
		if st, _, refunded, gw, _ := refundState(t, env, p2.PaymentProcessID); st != "failed" || refunded != 0 || gw != "captured" {
			t.Fatalf("after the crash: %s %d, gateway %s", st, refunded, gw)
		}
		// Until the refund is made, reconciliation reports the money kept.
		if diffs, err := env.App.Payments.Reconcile(ctx, time.Time{}); err != nil || !hasDiff(diffs, p2.PaymentProcessID) {
			t.Fatalf("reconciliation before the refund: %+v %v", diffs, err)
		}
		env.Clock.Advance(2 * time.Minute) // past the grace for the request that was refunding
		for range 3 {
			if _, err := env.App.Payments.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
		}
		env.deliver(t)
		if st, code, refunded, gw, gwRefunded := refundState(t, env, p2.PaymentProcessID); st != "failed" || code != payment.RefusedMemberErased ||
			refunded != 5000 || gw != "refunded" || gwRefunded != 5000 {
			t.Fatalf("member 2 after the worker: %s %s %d, gateway %s %d", st, code, refunded, gw, gwRefunded)
		}
		if diffs, err := env.App.Payments.Reconcile(ctx, time.Time{}); err != nil || hasDiff(diffs, p.PaymentProcessID) || hasDiff(diffs, p2.PaymentProcessID) {
			t.Fatalf("reconciliation after the refunds: %+v %v", diffs, err)
		}
		var records int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM payment_refunds WHERE process_id IN ($1, $2)`, p.PaymentProcessID, p2.PaymentProcessID).Scan(&records); err != nil || records != 2 {
			t.Fatalf("%d refund records (%v)", records, err)
		}
	})
}

func setStatus(t *testing.T, db *store.DB, id, status string) {
	t.Helper()
	if _, err := db.Exec(`UPDATE payment_processes SET status = $1 WHERE id = $2`, status, id); err != nil {
		t.Fatal(err)
	}
}

func hasDiff(diffs []payment.Difference, processID string) bool {
	for _, d := range diffs {
		if d.ProcessID == processID {
			return true
		}
	}
	return false
}
