package httpapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/platform"
	"members/internal/store"
)

// blockOf is what the pages ask before a purchase: /api/cc/pending (the
// payment that blocks one now) and the points' preapply (409 while it does).
func blockOf(t *testing.T, c *apitest.Client) (pending string, preapply int) {
	t.Helper()
	var pv struct {
		Pending          bool   `json:"pending"`
		PaymentProcessID string `json:"paymentProcessId"`
	}
	c.Get("/api/cc/pending").JSON(t, &pv)
	if pv.Pending {
		pending = pv.PaymentProcessID
	}
	return pending, c.Do(http.MethodPost, "/api/peachpoints/buy/preapply", nil).Status
}

// TestPendingSlipBlocksAboutThirtyMinutes: a convenience-store slip left
// for later blocks a new purchase for about 30 minutes from its continue,
// as a card payment does, not until its own deadline three days away.
// After that the member buys again (a card purchase settles), while the
// slip stays listed under Pending payments and payable: a second slip
// makes two, and the first, paid at the shop, settles with its goods.
func TestPendingSlipBlocksAboutThirtyMinutes(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		card := savedCard(t, c, "visa")["token"].(string)
		slip := buy(t, c, slipBody(3000))
		if got := cont(t, c, slip.PaymentProcessID); got.Status != "pending" {
			t.Fatalf("slip: %+v", got)
		}
		deadline := pendingOf(t, c).Payments[0].ExpiresAt
		if left := deadline.Sub(env.Clock.Now()); left < 71*time.Hour {
			t.Fatalf("the slip's deadline is %v away, want 3 days", left)
		}
		if id, pre := blockOf(t, c); id != slip.PaymentProcessID || pre != http.StatusConflict {
			t.Fatalf("right after the slip: blocked by %q, preapply %d", id, pre)
		}

		env.Clock.Advance(29 * time.Minute)
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy", cardBody(card, 1000)); r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "payment_pending" {
			t.Fatalf("buy 29 minutes after the slip = %d %s, want 409 payment_pending", r.Status, r.Body)
		}

		env.Clock.Advance(2 * time.Minute)
		if id, pre := blockOf(t, c); id != "" || pre != http.StatusOK {
			t.Fatalf("31 minutes after the slip: blocked by %q, preapply %d; want no block", id, pre)
		}
		paid := buy(t, c, cardBody(card, 1000))
		contSettled(t, c, paid.PaymentProcessID)
		l := pendingOf(t, c)
		if len(l.Payments) != 1 || l.Payments[0].PaymentProcessID != slip.PaymentProcessID || !l.Payments[0].ExpiresAt.Equal(deadline) {
			t.Fatalf("pending after another purchase: %+v, want the slip with its deadline", l)
		}

		// a second slip blocks for its own 30 minutes, then both are listed
		second := buy(t, c, slipBody(2000))
		cont(t, c, second.PaymentProcessID)
		if id, _ := blockOf(t, c); id != second.PaymentProcessID {
			t.Fatalf("blocked by %q, want the second slip", id)
		}
		env.Clock.Advance(31 * time.Minute)
		c = env.Member(t) // the session timed out meanwhile
		l = pendingOf(t, c)
		if len(l.Payments) != 2 || l.Payments[0].PaymentProcessID != slip.PaymentProcessID || l.Payments[1].PaymentProcessID != second.PaymentProcessID {
			t.Fatalf("two slips left for later: %+v, want both, oldest first", l)
		}
		if id, pre := blockOf(t, c); id != "" || pre != http.StatusOK {
			t.Fatalf("after both blocks: blocked by %q, preapply %d", id, pre)
		}

		// the first slip is paid at the shop: settled once, with its goods
		if _, err := env.App.Gateway.Sandbox.Settle(context.Background(), env.gatewayPaymentID(t, slip.PaymentProcessID)); err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(time.Minute) // its next check is due
		if st := status(t, c, slip.PaymentProcessID); st.Status != "settled" {
			t.Fatalf("the paid slip: %+v", st)
		}
		if n := env.goodsRows(t, slip.PaymentProcessID); n != 1 {
			t.Errorf("the paid slip granted %d goods, want 1", n)
		}
		if l = pendingOf(t, c); len(l.Payments) != 1 || l.Payments[0].PaymentProcessID != second.PaymentProcessID {
			t.Errorf("pending after the slip was paid: %+v, want the second slip", l)
		}
	})
}

// TestPendingSlipSamePassPeriod: a slip for an unlimited pass period,
// past its 30 minutes' block, refuses a second purchase of that period
// only (paying both would buy the period twice), saying why in the
// member's language, and leaves the other goods on sale. The database
// refuses it (a unique index), so parallel purchases of the period all
// fail while the slip is open, and parallel purchases of a free period
// leave one open order of it. Paid at the shop, the slip grants the pass.
func TestPendingSlipSamePassPeriod(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)
		card := savedCard(t, c, "visa")["token"].(string)
		period := func(plan, id, method string) map[string]any {
			b := map[string]any{"planId": plan, "periodId": id, "fareType": "happy", "paymentMethod": method, "requestId": newRequestID()}
			if method == "creditCard" {
				b["creditCardToken"] = card
			}
			return b
		}
		slip := decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy", period(demo.DemoPlanAll, demo.DemoPeriodNext, "convenienceStore")))
		if got := decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy/"+slip.PaymentProcessID+"/continue", nil)); got.Status != "pending" {
			t.Fatalf("pass slip: %+v", got)
		}
		openOf := func(key string) int {
			t.Helper()
			var n int
			if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1 AND exclusive_key = $2
				AND status IN ('prepared', 'pending')`, demo.Member1, key).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		const next, weekday = "gogo_pass:period:" + demo.DemoPeriodNext, "gogo_pass:period:" + demo.DemoPeriodWeekday
		if n := openOf(next); n != 1 {
			t.Fatalf("%d open processes hold the period, want the slip", n)
		}
		env.Clock.Advance(31 * time.Minute)
		c = env.Member(t)

		// the same period: refused, with the reason, in every language
		cat, err := i18n.New()
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range i18n.Langs {
			c.Lang = string(lang)
			r := c.Do(http.MethodPost, "/api/gogo_pass/buy", period(demo.DemoPlanAll, demo.DemoPeriodNext, "creditCard"))
			want := cat.T(lang, "payment.error.pending_same_goods")
			if r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "payment_pending_same_goods" || r.Map(t)["message"] != want {
				t.Errorf("%s: the same period again = %d %s, want 409 payment_pending_same_goods %q", lang, r.Status, r.Body, want)
			}
		}
		c.Lang = "en"
		// another period and other goods are on sale
		other := decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy", period(demo.DemoPlanWeekday, demo.DemoPeriodWeekday, "creditCard")))
		if other.Status != "prepared" {
			t.Fatalf("another period: %+v", other)
		}

		// parallel purchases of the slip's period: none passes
		const n = 8
		codes := make([]int, n)
		keys := make([]any, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := c.Do(http.MethodPost, "/api/gogo_pass/buy", period(demo.DemoPlanAll, demo.DemoPeriodNext, "creditCard"))
				codes[i] = r.Status
				if r.Status == http.StatusConflict {
					keys[i] = r.Map(t)["errorKey"]
				}
			}()
		}
		wg.Wait()
		for i := range n {
			if codes[i] != http.StatusConflict || keys[i] != "payment_pending_same_goods" {
				t.Errorf("parallel purchase %d of the slip's period = %d %v, want 409 payment_pending_same_goods", i, codes[i], keys[i])
			}
		}
		if got := openOf(next); got != 1 {
			t.Errorf("%d open processes hold the slip's period, want 1", got)
		}
		// parallel purchases of a free period: one open order of it stays
		// (each new order replaces the one before; one may find another's
		// order blocking at that instant)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := c.Do(http.MethodPost, "/api/gogo_pass/buy", period(demo.DemoPlanWeekday, demo.DemoPeriodWeekday, "creditCard"))
				codes[i] = r.Status
				keys[i] = nil
				if r.Status == http.StatusConflict {
					keys[i] = r.Map(t)["errorKey"]
				}
			}()
		}
		wg.Wait()
		for i := range n {
			if codes[i] != http.StatusOK && (codes[i] != http.StatusConflict || keys[i] != "payment_pending") {
				t.Errorf("parallel purchase %d of a free period = %d %v", i, codes[i], keys[i])
			}
		}
		if got := openOf(weekday); got != 1 {
			t.Errorf("%d open processes hold the free period after parallel purchases, want 1", got)
		}

		// the slip is paid at the shop: the member holds the period
		if _, err := env.App.Gateway.Sandbox.Settle(context.Background(), env.gatewayPaymentID(t, slip.PaymentProcessID)); err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(time.Minute)
		if st := decodeProcess(t, c.Get("/api/gogo_pass/buy/"+slip.PaymentProcessID+"/status")); st.Status != "settled" {
			t.Fatalf("the paid pass slip: %+v", st)
		}
		if got := openOf(next); got != 0 {
			t.Errorf("%d open processes hold the period after its slip was paid", got)
		}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/buy", period(demo.DemoPlanAll, demo.DemoPeriodNext, "creditCard")); r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "gogopass_already_held" {
			t.Errorf("the held period again = %d %s, want 409 gogopass_already_held", r.Status, r.Body)
		}
	})
}
