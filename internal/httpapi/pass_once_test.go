package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/pass"
	"members/internal/platform"
	"members/internal/store"
)

// passesOf counts a member's passes of a period.
func passesOf(t *testing.T, env *apitest.Env, member, period string) int {
	t.Helper()
	var n int
	if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM gogo_passes WHERE member_id = $1 AND period_id = $2`, member, period).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// passBody is a gogo_pass purchase of a period with a fresh card token.
func passBody(t *testing.T, env *payEnv, period, card string) map[string]any {
	t.Helper()
	return map[string]any{"planId": demo.DemoPlanAll, "periodId": period, "fareType": "happy",
		"paymentMethod": "creditCard", "creditCardToken": env.Tokenize(t, card, "123")["token"], "requestId": newRequestID()}
}

// wantHeld checks a 409 gogopass_already_held with the message in lang.
func wantHeld(t *testing.T, what string, r *apitest.Response, text string) {
	t.Helper()
	if r.Status != http.StatusConflict {
		t.Fatalf("%s = %d %s, want 409", what, r.Status, r.Body)
	}
	m := r.Map(t)
	if m["errorKey"] != "gogopass_already_held" || !strings.Contains(fmt.Sprint(m["message"]), text) {
		t.Fatalf("%s = %s", what, r.Body)
	}
}

// One unlimited pass per member and period: a second purchase, a purchase
// of a period held by exchange or in a pending payment, an exchange of a
// held period and a lottery winner's second purchase are each refused
// with 409 in the member's language.
func TestOnePassPerPeriod(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		env.Clock.Set(time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)) // 12:00 JST, outside maintenance
		c1, c2 := env.Member(t), env.Member2(t)

		// Member 1 holds the current period (demo data): refused at
		// validate and at buy, in Japanese for a Japanese page.
		c1.Lang = "jp"
		body := passBody(t, env, demo.DemoPeriodCurrent, "4242424242424242")
		wantHeld(t, "validate a held period", c1.Do(http.MethodPost, "/api/gogo_pass/buy/validate", body), "この期間のパスはすでにお持ち")
		wantHeld(t, "buy a held period", c1.Do(http.MethodPost, "/api/gogo_pass/buy", body), "この期間のパスはすでにお持ち")
		c1.Lang = "en"

		// Bought once, not twice.
		settle(t, env, c1, "gogo_pass", map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happy"})
		wantHeld(t, "second purchase", c1.Do(http.MethodPost, "/api/gogo_pass/buy/validate", passBody(t, env, demo.DemoPeriodNext, "4242424242424242")), "already have this pass")
		// An exchange code cannot add a second copy; the code stays unused.
		code := map[string]string{"code": "GPX-DEMO-0001", "password": "pass1234"}
		wantHeld(t, "exchange validate of a held period", c1.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", code), "already have this pass")
		wantHeld(t, "exchange of a held period", c1.Do(http.MethodPost, "/api/gogo_pass/exchange/exchange", code), "already have this pass")
		if n := passesOf(t, env.Env, demo.Member1, demo.DemoPeriodNext); n != 1 {
			t.Fatalf("member 1 holds %d passes of the period", n)
		}

		// Member 2: a payment pending (the card's challenge not yet
		// answered) blocks an exchange of the same period.
		p := decodeProcess(t, c2.Do(http.MethodPost, "/api/gogo_pass/buy", passBody(t, env, demo.DemoPeriodNext, "4000000000003220")))
		p = decodeProcess(t, c2.Do(http.MethodPost, "/api/gogo_pass/buy/"+p.PaymentProcessID+"/continue", nil))
		if p.Status != "pending" {
			t.Fatalf("challenge purchase: %+v", p)
		}
		c2.Lang = "kr"
		wantHeld(t, "exchange while paying", c2.Do(http.MethodPost, "/api/gogo_pass/exchange/exchange", code), "이미 보유하고 있거나")
		if n := passesOf(t, env.Env, demo.Member2, demo.DemoPeriodNext); n != 0 {
			t.Fatalf("member 2 holds %d passes while paying", n)
		}
		// The code is another member's to use still.
		var redeemed *string
		if err := env.App.DB.QueryRow(`SELECT redeemed_by FROM gogo_pass_exchange_codes WHERE code = 'GPX-DEMO-0001'`).Scan(&redeemed); err != nil || redeemed != nil {
			t.Fatalf("code redeemed by %v (%v)", redeemed, err)
		}
	})
}

// The database holds the rule when the checks before payment are passed
// by a race: a pass of the period arrives (an exchange on another device)
// after the purchase was priced and while its card challenge is open. The
// capture then grants nothing: the settlement is refused by the unique
// index, the process fails with refused_already_held and the whole amount
// goes back through the gateway, once.
func TestSecondPassRaceIsRefunded(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		env.Clock.Set(time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC))
		ctx := context.Background()
		c := env.Member2(t)
		p := decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy", passBody(t, env, demo.DemoPeriodNext, "4000000000003220")))
		p = decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy/"+p.PaymentProcessID+"/continue", nil))
		if p.Status != "pending" {
			t.Fatalf("challenge purchase: %+v", p)
		}
		// The other way in wins meanwhile (inserted as the exchange's
		// transaction does; the exchange itself refuses while paying).
		if err := store.NewPassStore(env.App.DB).Redeem(ctx, exchangeCodeID(t, env.Env, "GPX-DEMO-0002"), pass.Pass{
			ID: store.NewID(), Code: "GPRACE0000001", MemberID: demo.Member2, PlanID: demo.DemoPlanAll, PeriodID: demo.DemoPeriodNext,
			FareType: "happlus", CurrencyCode: "JPY", Source: "exchange", PurchasedAt: env.Clock.Now(),
		}); err != nil {
			t.Fatal(err)
		}
		gpID := env.gatewayPaymentID(t, p.PaymentProcessID)
		if _, err := env.App.Gateway.Sandbox.CustomerStep(ctx, gpID, true); err != nil {
			t.Fatal(err)
		}
		env.deliver(t)
		var st process
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			st = decodeProcess(t, c.Get("/api/gogo_pass/buy/"+p.PaymentProcessID+"/status"))
			if st.Status == "failed" && st.RefundedAmount > 0 {
				break
			}
		}
		if st.Status != "failed" || st.FailureCode != pass.RefusedHeld || st.RefundedAmount != 54800 || len(st.Goods) > 0 && string(st.Goods) != "null" {
			t.Fatalf("process after the capture: %+v\n%s", st, env.Log.String())
		}
		if n := passesOf(t, env.Env, demo.Member2, demo.DemoPeriodNext); n != 1 {
			t.Fatalf("member 2 holds %d passes of the period", n)
		}
		gp, err := env.App.Gateway.Sandbox.Payment(ctx, gpID, "")
		if err != nil || gp.Status != "refunded" || gp.RefundedAmount != 54800 {
			t.Fatalf("gateway payment: %+v %v", gp, err)
		}
		// The capture's events again and the status polls change nothing.
		env.deliver(t)
		for range 3 {
			c.Get("/api/gogo_pass/buy/" + p.PaymentProcessID + "/status")
		}
		if _, err := env.App.Payments.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		var refunds int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM payment_refunds WHERE process_id = $1`, p.PaymentProcessID).Scan(&refunds); err != nil {
			t.Fatal(err)
		}
		if gp, _ := env.App.Gateway.Sandbox.Payment(ctx, gpID, ""); refunds != 1 || gp.RefundedAmount != 54800 {
			t.Fatalf("%d refund records, gateway refunded %d", refunds, gp.RefundedAmount)
		}
	})
}

// Many ways in at once for one member and period (purchases in two tabs,
// exchange codes on another device): one pass, and no money kept for a
// purchase that did not grant one.
func TestOnePassUnderParallelPurchasesAndExchanges(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		env.Clock.Set(time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC))
		ctx := context.Background()
		ps := store.NewPassStore(env.App.DB)
		const n = 6
		codes := []string{"GPX-DEMO-0002", "GPX-DEMO-0003"}
		for i := range n - len(codes) {
			code := fmt.Sprintf("GPX-RACE-%04d", i)
			if err := ps.InsertExchangeCode(ctx, pass.ExchangeCode{ID: store.NewID(), Code: code, PasswordHash: pass.HashPassword("pass1234"),
				PlanID: demo.DemoPlanAll, PeriodID: demo.DemoPeriodNext, FareType: "happy"}); err != nil {
				t.Fatal(err)
			}
			codes = append(codes, code)
		}
		bodies := make([]map[string]any, n)
		for i := range bodies {
			bodies[i] = passBody(t, env, demo.DemoPeriodNext, "4242424242424242")
		}
		// two sessions (tabs, devices), logged in before the race
		tabs := []*apitest.Client{env.Member2(t), env.Member2(t)}
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(2)
			go func() {
				defer wg.Done()
				c := tabs[i%2]
				r := c.Do(http.MethodPost, "/api/gogo_pass/buy", bodies[i])
				if r.Status != http.StatusOK {
					return
				}
				var p process
				r.JSON(t, &p)
				c.Do(http.MethodPost, "/api/gogo_pass/buy/"+p.PaymentProcessID+"/continue", nil)
			}()
			go func() {
				defer wg.Done()
				tabs[(i+1)%2].Do(http.MethodPost, "/api/gogo_pass/exchange/exchange", map[string]string{"code": codes[i], "password": "pass1234"})
			}()
		}
		wg.Wait()
		// let every started payment end (captures, refunds)
		for range 100 {
			if _, err := env.App.Payments.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			var open int
			_ = env.App.DB.QueryRow(`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1 AND status = 'pending'`, demo.Member2).Scan(&open)
			if open == 0 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got := passesOf(t, env.Env, demo.Member2, demo.DemoPeriodNext); got != 1 {
			t.Fatalf("member 2 holds %d passes of the period", got)
		}
		// Money kept = the price of a purchased pass, or nothing when an
		// exchange won.
		var source string
		if err := env.App.DB.QueryRow(`SELECT source FROM gogo_passes WHERE member_id = $1 AND period_id = $2`, demo.Member2, demo.DemoPeriodNext).Scan(&source); err != nil {
			t.Fatal(err)
		}
		rows, err := env.App.DB.Query(`SELECT gateway_payment_id FROM payment_processes WHERE member_id = $1 AND gateway_payment_id <> ''`, demo.Member2)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for rows.Next() {
			var id string
			_ = rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		var kept int64
		for _, id := range ids {
			gp, err := env.App.Gateway.Sandbox.Payment(ctx, id, "")
			if err != nil {
				t.Fatal(err)
			}
			if gp.Status == "captured" || gp.Status == "refunded" {
				kept += gp.Amount - gp.RefundedAmount
			}
		}
		want := int64(0)
		if source == "purchase" {
			want = 54800
		}
		if kept != want {
			var states []string
			rs, _ := env.App.DB.Query(`SELECT status, failure_code, refunded_amount FROM payment_processes WHERE member_id = $1`, demo.Member2)
			for rs.Next() {
				var st, fc string
				var ra int64
				_ = rs.Scan(&st, &fc, &ra)
				states = append(states, fmt.Sprint(st, "/", fc, "/", ra))
			}
			rs.Close()
			t.Logf("processes: %v", states)
			t.Fatalf("the gateway keeps %d for member 2 (pass from %s), want %d\n%s", kept, source, want, env.Log.String())
		}
	})
}

func exchangeCodeID(t *testing.T, env *apitest.Env, code string) string {
	t.Helper()
	var id string
	if err := env.App.DB.QueryRow(`SELECT id FROM gogo_pass_exchange_codes WHERE code = $1`, code).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}
