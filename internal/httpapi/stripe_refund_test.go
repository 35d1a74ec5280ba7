package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/platform"
	"members/internal/store"
)

// TestStripeCouponRefundAnswerLost: Stripe makes a coupon's refund and
// its answer is lost. The member keeps neither the money nor the coupon:
// Stripe's charge.refunded (or refund.updated) event, confirmed by the
// PaymentIntent read from Stripe, records the refund; without any event
// the background work makes the owed refund again under its key. Either
// way Stripe refunds once, the process is refunded and the coupon is
// disabled, no longer usable or refundable.
func TestStripeCouponRefundAnswerLost(t *testing.T) {
	for _, path := range []string{"charge.refunded", "refund.updated", "worker"} {
		t.Run(path, func(t *testing.T) {
			apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
				env := newStripeEnv(t, engine)
				env.fake.SetWebhook("", "") // the test sends the events itself
				setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
				c := env.Member(t)
				body := map[string]any{"paymentMethod": "creditCard", "creditCardToken": "pm_card_visa", "requestId": newRequestID(),
					"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
					"additionalPassengers": []any{passenger("adult", "1990-01-01")}}
				p := decodeProcess(t, c.Do(http.MethodPost, "/api/coupon_ticket/buy", body))
				p = decodeProcess(t, c.Do(http.MethodPost, "/api/coupon_ticket/buy/"+p.PaymentProcessID+"/continue", nil))
				if p.Status != "settled" {
					t.Fatalf("purchase: %s %s", p.Status, p.FailureCode)
				}
				var goods struct{ CouponTicket struct{ ID string } }
				if err := json.Unmarshal(p.Goods, &goods); err != nil {
					t.Fatal(err)
				}
				id := goods.CouponTicket.ID
				pi := env.gatewayPaymentID(t, p.PaymentProcessID)

				env.fake.LoseAnswers("POST /v1/refunds", true)
				if r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": id}); r.Status == http.StatusOK {
					t.Fatalf("refund with its answer lost = %d %s", r.Status, r.Body)
				}
				env.fake.LoseAnswers("POST /v1/refunds", false)
				_, amount, refunded, _ := env.fake.PaymentIntent(pi)
				if refunded == 0 || refunded >= amount {
					t.Fatalf("Stripe refunded %d of %d, want the refund amount", refunded, amount)
				}
				if c := couponOf(t, c, id); c.Disabled || !c.Refundable {
					t.Fatalf("before the refund is known: %+v", c)
				}

				now := env.Clock.Now()
				switch path {
				case "charge.refunded":
					charge := map[string]any{"id": "ch_x", "object": "charge", "amount": amount, "amount_refunded": refunded, "payment_intent": pi}
					if got := env.postStripeEvent(t, "evt_refunded", path, charge, testWebhookSecret, now); got != 200 {
						t.Fatalf("charge.refunded: %d", got)
					}
				case "refund.updated":
					refund := map[string]any{"id": "re_x", "object": "refund", "amount": refunded, "currency": "jpy", "status": "succeeded", "payment_intent": pi}
					if got := env.postStripeEvent(t, "evt_refund_updated", path, refund, testWebhookSecret, now); got != 200 {
						t.Fatalf("refund.updated: %d", got)
					}
				case "worker":
					// a minute's grace for the request that makes it
					if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
						t.Fatal(err)
					}
					if c := couponOf(t, c, id); c.Disabled {
						t.Fatal("the worker took the refund within its minute of grace")
					}
					env.Clock.Advance(2 * time.Minute)
					if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				st := decodeProcess(t, c.Get("/api/payment_processes/"+p.PaymentProcessID+"/status"))
				if st.Status != "refunded" || st.RefundedAmount != refunded {
					t.Errorf("process %s refunded %d, want refunded %d", st.Status, st.RefundedAmount, refunded)
				}
				if c := couponOf(t, c, id); !c.Disabled || c.Refundable {
					t.Errorf("coupon after the refund: %+v", c)
				}
				if r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": id}); r.Status != http.StatusConflict {
					t.Errorf("second refund = %d %s", r.Status, r.Body)
				}
				if _, _, again, _ := env.fake.PaymentIntent(pi); again != refunded {
					t.Errorf("Stripe refunded %d, then %d: money moved twice", refunded, again)
				}
			})
		})
	}
}

type couponView struct {
	ID                   string
	Disabled, Refundable bool
}

func couponOf(t *testing.T, c *apitest.Client, id string) couponView {
	t.Helper()
	var list struct{ CouponTickets []couponView }
	c.Get("/api/user/coupon_ticket").JSON(t, &list)
	for _, x := range list.CouponTickets {
		if x.ID == id {
			return x
		}
	}
	t.Fatalf("coupon %s not listed", id)
	return couponView{}
}
