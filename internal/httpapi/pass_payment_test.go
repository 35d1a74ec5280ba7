package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/platform"
	"members/internal/store"
)

// settle runs a purchase of product to settlement with a fresh card token
// and returns the process answer.
func settle(t *testing.T, env *payEnv, c *apitest.Client, product string, fields map[string]any) process {
	t.Helper()
	tok := env.Tokenize(t, "4242424242424242", "123")
	body := map[string]any{"paymentMethod": "creditCard", "creditCardToken": tok["token"], "requestId": newRequestID()}
	for k, v := range fields {
		body[k] = v
	}
	if r := c.Do(http.MethodPost, "/api/"+product+"/buy/validate", body); r.Status != http.StatusOK {
		t.Fatalf("%s validate = %d %s", product, r.Status, r.Body)
	}
	p := decodeProcess(t, c.Do(http.MethodPost, "/api/"+product+"/buy", body))
	p = decodeProcess(t, c.Do(http.MethodPost, "/api/"+product+"/buy/"+p.PaymentProcessID+"/continue", nil))
	deadline := time.Now().Add(30 * time.Second)
	for p.Status != "settled" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if p.Status == "pending" {
			// A gateway call that outlived newPayEnv's gateway timeout (a
			// loaded machine): the process waits for its next check, which
			// is due on the test clock, so the clock moves and the
			// background work runs as the server's worker would.
			env.Clock.Advance(5 * time.Second)
			if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
				t.Fatalf("%s: background work: %v", product, err)
			}
		}
		p = decodeProcess(t, c.Get("/api/"+product+"/buy/"+p.PaymentProcessID+"/status"))
	}
	if p.Status != "settled" {
		t.Fatalf("%s: status %s (%s)", product, p.Status, p.FailureCode)
	}
	return p
}

func TestPassPurchasesThroughTheEngine(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)

		// The unlimited pass: priced from the table, granted once.
		sel := map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus"}
		bad := map[string]any{"planId": demo.DemoPlanAll, "periodId": "nope", "fareType": "happy", "paymentMethod": "creditCard", "requestId": newRequestID()}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/buy/validate", bad); r.Status != http.StatusBadRequest {
			t.Fatalf("unknown period = %d %s", r.Status, r.Body)
		}
		p := settle(t, env, c, "gogo_pass", sel)
		var goods struct {
			PurchasedGogoPass struct {
				FareType       string
				PurchasedPrice int64
				Source         string
			}
		}
		if err := json.Unmarshal(p.Goods, &goods); err != nil || goods.PurchasedGogoPass.PurchasedPrice != 74800 || goods.PurchasedGogoPass.Source != "purchase" {
			t.Fatalf("pass goods = %s %v", p.Goods, err)
		}
		var held struct{ GogoPasses []map[string]any }
		if c.Get("/api/user/gogo_pass").JSON(t, &held); len(held.GogoPasses) != 2 {
			t.Errorf("member holds %d passes after buying", len(held.GogoPasses))
		}

		// The coupon pass: the member and one adult, Lite; refund less 9,000 yen each.
		p = settle(t, env, c, "coupon_ticket", map[string]any{
			"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{passenger("adult", "1990-01-01")},
		})
		var cg struct {
			CouponTicket struct {
				ID                                      string
				PurchasedPrice, RefundFee, RefundAmount int64
			}
		}
		if err := json.Unmarshal(p.Goods, &cg); err != nil || cg.CouponTicket.PurchasedPrice != 39600 || cg.CouponTicket.RefundAmount != 21600 {
			t.Fatalf("coupon goods = %s %v", p.Goods, err)
		}
		id := cg.CouponTicket.ID
		if r := env.Member2(t).Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": id}); r.Status != http.StatusNotFound {
			t.Errorf("member 2 refunds it = %d", r.Status)
		}
		r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": id})
		if r.Status != http.StatusOK || r.Map(t)["couponTicket"].(map[string]any)["disabled"] != true {
			t.Fatalf("refund = %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": id}); r.Status != http.StatusConflict {
			t.Errorf("second refund = %d %s", r.Status, r.Body)
		}
		st := decodeProcess(t, c.Get("/api/payment_processes/"+p.PaymentProcessID+"/status"))
		if st.RefundedAmount != 21600 || st.Status != "refunded" {
			t.Errorf("process after refund: %s refunded %d", st.Status, st.RefundedAmount)
		}
	})
}

// TestCouponRefundOnceInParallel: many refund requests for one coupon at
// the same moment (double clicks, two tabs) refund it once: one 200, the
// others 409, one gateway refund of the refund amount, one refund record.
func TestCouponRefundOnceInParallel(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c, c2 := env.Member(t), env.Member(t) // two sessions (tabs or devices) of the member
		p := settle(t, env, c, "coupon_ticket", map[string]any{
			"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{passenger("adult", "1990-01-01")},
		})
		var cg struct{ CouponTicket struct{ ID string } }
		if err := json.Unmarshal(p.Goods, &cg); err != nil || cg.CouponTicket.ID == "" {
			t.Fatalf("coupon goods = %s %v", p.Goods, err)
		}
		const n = 16
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cl := c
				if i%2 == 1 {
					cl = c2
				}
				codes[i] = cl.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": cg.CouponTicket.ID}).Status
			}()
		}
		wg.Wait()
		ok := 0
		for _, code := range codes {
			switch code {
			case http.StatusOK:
				ok++
			case http.StatusConflict:
			default:
				t.Errorf("refund answered %d (codes %v)", code, codes)
			}
		}
		if ok != 1 {
			t.Fatalf("%d refunds succeeded, want 1 (codes %v)", ok, codes)
		}
		gp, err := env.App.Gateway.Sandbox.Payment(context.Background(), env.gatewayPaymentID(t, p.PaymentProcessID), "")
		if err != nil {
			t.Fatal(err)
		}
		var refunds, keys int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM payment_refunds WHERE process_id = $1`, p.PaymentProcessID).Scan(&refunds); err != nil {
			t.Fatal(err)
		}
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM gw_idempotency WHERE idem_key LIKE $1`, "pp_"+p.PaymentProcessID+"_refund%").Scan(&keys); err != nil {
			t.Fatal(err)
		}
		st := decodeProcess(t, c.Get("/api/payment_processes/"+p.PaymentProcessID+"/status"))
		if gp.RefundedAmount != 21600 || gp.Status != "refunded" || refunds != 1 || keys != 1 || st.RefundedAmount != 21600 || st.Status != "refunded" {
			t.Fatalf("gateway refunded %d (%s), %d refund records, %d gateway refund calls, process %s refunded %d",
				gp.RefundedAmount, gp.Status, refunds, keys, st.Status, st.RefundedAmount)
		}
	})
}

// TestPassDatesWritten: the unlimited pass's order and its mail write the
// boarding period in the language's written form, never as ISO dates.
func TestPassDatesWritten(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)
		c.Lang = "jp"
		iso := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
		p := settle(t, env, c, "gogo_pass", map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happy"})
		if iso.MatchString(p.Description) || !strings.Contains(p.Description, "年") {
			t.Errorf("jp description %q", p.Description)
		}
		m := srv.WaitFor(apitest.DemoEmail).Decode(t)
		body := string(m.Parts["text/plain"])
		if iso.MatchString(body) {
			t.Errorf("pass mail with an ISO date: %s", body)
		}
	})
}

// TestCouponRefundMailedOnce: a coupon refunded on the page is disabled
// in the transaction that records its refund, and the member gets one
// refund mail (the engine's, after that commit), none owed afterwards.
func TestCouponRefundMailedOnce(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)
		p := settle(t, env, c, "coupon_ticket", map[string]any{
			"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{passenger("adult", "1990-01-01")},
		})
		var cg struct{ CouponTicket struct{ ID string } }
		if err := json.Unmarshal(p.Goods, &cg); err != nil {
			t.Fatal(err)
		}
		r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": cg.CouponTicket.ID})
		if r.Status != http.StatusOK || r.Map(t)["couponTicket"].(map[string]any)["disabled"] != true {
			t.Fatalf("refund = %d %s", r.Status, r.Body)
		}
		refunds := 0
		for _, m := range srv.Messages() {
			if strings.HasPrefix(m.Decode(t).Subject, "Your refund of") {
				refunds++
			}
		}
		if refunds != 1 {
			t.Errorf("%d refund mails, want 1", refunds)
		}
		if owed := env.processColumn(t, p.PaymentProcessID, "CASE WHEN refund_mail_owed THEN 'owed' ELSE '' END"); owed != "" {
			t.Errorf("the refund's mail is still owed after it was sent")
		}
	})
}
