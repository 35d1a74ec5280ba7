package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/platform"
	"members/internal/store"
)

// settleWith buys product with the payment fields pay (a QR wallet or a
// convenience store: a customer step at the gateway), pays at the gateway
// and lets its webhook settle the process.
func settleWith(t *testing.T, env *payEnv, c *apitest.Client, product string, fields, pay map[string]any) process {
	t.Helper()
	body := map[string]any{"requestId": newRequestID()}
	for k, v := range fields {
		body[k] = v
	}
	for k, v := range pay {
		body[k] = v
	}
	p := decodeProcess(t, c.Do(http.MethodPost, "/api/"+product+"/buy", body))
	p = decodeProcess(t, c.Do(http.MethodPost, "/api/"+product+"/buy/"+p.PaymentProcessID+"/continue", nil))
	if p.Status != "pending" || p.NextAction == nil {
		t.Fatalf("%s %v: continue %+v", product, pay, p)
	}
	if _, err := env.App.Gateway.Sandbox.CustomerStep(context.Background(), env.gatewayPaymentID(t, p.PaymentProcessID), true); err != nil {
		t.Fatal(err)
	}
	env.deliver(t)
	p = decodeProcess(t, c.Get("/api/"+product+"/buy/"+p.PaymentProcessID+"/status"))
	if p.Status != "settled" {
		t.Fatalf("%s %v: status %s (%s)", product, pay, p.Status, p.FailureCode)
	}
	return p
}

// TestGoodsRecordThePaymentMethod: every product records and shows the
// method the member paid with, not "creditCard" whatever was used.
func TestGoodsRecordThePaymentMethod(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		// the real points product (newPayEnv would replace it)
		env := &payEnv{Env: apitest.New(t, engine)}
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)
		type method struct {
			PaymentMethod    string
			OtherPaymentType string
		}
		check := func(what string, got, want method) {
			t.Helper()
			if got != want {
				t.Errorf("%s: recorded %+v, want %+v", what, got, want)
			}
		}
		paypay := map[string]any{"paymentMethod": "otherPayment", "otherPaymentType": "paypay"}
		konbini := map[string]any{"paymentMethod": "convenienceStore"}

		// points: the sale record in the goods and in the voucher row
		for _, pay := range []map[string]any{paypay, konbini} {
			p := settleWith(t, env, c, "peachpoints", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 5000}, pay)
			var goods method
			if err := json.Unmarshal(p.Goods, &goods); err != nil {
				t.Fatal(err)
			}
			want := method{PaymentMethod: pay["paymentMethod"].(string)}
			if pay["otherPaymentType"] != nil {
				want.OtherPaymentType = pay["otherPaymentType"].(string)
			}
			check("points goods", goods, want)
			var row string
			if err := env.App.DB.QueryRow(`SELECT payment_method FROM point_vouchers WHERE payment_process_id = $1`, p.PaymentProcessID).Scan(&row); err != nil {
				t.Fatal(err)
			}
			if row != want.PaymentMethod {
				t.Errorf("voucher row payment_method %q, want %q", row, want.PaymentMethod)
			}
		}

		// the unlimited pass at a convenience store
		p := settleWith(t, env, c, "gogo_pass", map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus"}, konbini)
		var pg method
		if err := json.Unmarshal(p.Goods, &pg); err != nil {
			t.Fatal(err)
		}
		check("pass goods", pg, method{PaymentMethod: "convenienceStore"})

		// the coupon pass by d払い
		p = settleWith(t, env, c, "coupon_ticket", map[string]any{
			"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{passenger("adult", "1990-01-01")},
		}, map[string]any{"paymentMethod": "otherPayment", "otherPaymentType": "d_payment"})
		var cg method
		if err := json.Unmarshal(p.Goods, &cg); err != nil {
			t.Fatal(err)
		}
		check("coupon goods", cg, method{PaymentMethod: "otherPayment", OtherPaymentType: "d_payment"})
	})
}
