package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/platform"
	"members/internal/store"
)

// The maintenance window (03:00 to 05:00 Japan time) closes the payment
// step of the unlimited pass, not only its form: an order prepared at
// 02:59 and continued at 03:00 is refused with the maintenance message,
// in the member's language, and stays prepared with no payment at the
// gateway. When the window lifts (the operator's override here, since a
// prepared order lapses long before 05:00) the same order is paid. A
// konbini slip issued at 02:58 and paid at the store at 03:30 is honoured:
// the member's money is already moving.
func TestPassPaymentStepInMaintenance(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, false)
		ctx := context.Background()
		jst := time.FixedZone("JST", 9*3600)

		// 02:58: member 2 issues a slip for the coming period.
		env.Clock.Set(time.Date(2026, 11, 21, 2, 58, 0, 0, jst))
		c2 := env.Member2(t)
		slipBody := map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happy",
			"paymentMethod": "convenienceStore", "requestId": newRequestID()}
		slip := decodeProcess(t, c2.Do(http.MethodPost, "/api/gogo_pass/buy", slipBody))
		if slip = decodeProcess(t, c2.Do(http.MethodPost, "/api/gogo_pass/buy/"+slip.PaymentProcessID+"/continue", nil)); slip.Status != "pending" {
			t.Fatalf("slip at 02:58: %+v", slip)
		}

		// 02:59: member 1 prepares a card payment; 03:00: presses Pay.
		env.Clock.Set(time.Date(2026, 11, 21, 2, 59, 0, 0, jst))
		c1 := env.Member(t)
		c1.Lang = "jp"
		card := decodeProcess(t, c1.Do(http.MethodPost, "/api/gogo_pass/buy", passBody(t, env, demo.DemoPeriodNext, "4242424242424242")))
		if card.Status != "prepared" {
			t.Fatalf("card at 02:59: %+v", card)
		}
		env.Clock.Set(time.Date(2026, 11, 21, 3, 0, 0, 0, jst))
		r := c1.Do(http.MethodPost, "/api/gogo_pass/buy/"+card.PaymentProcessID+"/continue", nil)
		if m := r.Map(t); r.Status != http.StatusInternalServerError || m["errorKey"] != "gogopass_maintenance_error" || !strings.Contains(m["message"].(string), "午前3時") {
			t.Fatalf("continue at 03:00 = %d %s", r.Status, r.Body)
		}
		if p := decodeProcess(t, c1.Get("/api/gogo_pass/buy/"+card.PaymentProcessID+"/status")); p.Status != "prepared" {
			t.Errorf("refused at 03:00, the order is %s", p.Status)
		}
		if id := env.gatewayPaymentID(t, card.PaymentProcessID); id != "" {
			t.Errorf("refused at 03:00, yet the gateway has payment %s", id)
		}
		if n := passesOf(t, env.Env, demo.Member1, demo.DemoPeriodNext); n != 0 {
			t.Fatalf("member 1 holds %d passes after a refused payment", n)
		}

		// The operator lifts the window: the prepared order is paid.
		env.Clock.Set(time.Date(2026, 11, 21, 3, 1, 0, 0, jst))
		if err := env.App.Platform.Set(ctx, platform.KeyGogoPassMaintenance, platform.MaintenanceOff); err != nil {
			t.Fatal(err)
		}
		if p := decodeProcess(t, c1.Do(http.MethodPost, "/api/gogo_pass/buy/"+card.PaymentProcessID+"/continue", nil)); p.Status != "settled" {
			t.Errorf("continue with maintenance lifted: %+v", p)
		}
		if err := env.App.Platform.Set(ctx, platform.KeyGogoPassMaintenance, platform.MaintenanceAuto); err != nil {
			t.Fatal(err)
		}

		// 03:30: the slip is paid at the store and settles inside the window.
		paidInsideWindow(t, env, env.Member2, demo.Member2, slip.PaymentProcessID, time.Date(2026, 11, 21, 3, 30, 0, 0, jst))

	})
}

// A QR payment started at 02:58 and paid in the member's app at 03:10
// is honoured like the slip: the window closes the start of a payment,
// never one whose money is already moving.
func TestPassQRUnderWayInMaintenance(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, false)
		jst := time.FixedZone("JST", 9*3600)

		env.Clock.Set(time.Date(2026, 11, 21, 2, 58, 0, 0, jst))
		c := env.Member(t)
		body := map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happy",
			"paymentMethod": "otherPayment", "otherPaymentType": "paypay", "requestId": newRequestID()}
		qr := decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy", body))
		if qr = decodeProcess(t, c.Do(http.MethodPost, "/api/gogo_pass/buy/"+qr.PaymentProcessID+"/continue", nil)); qr.Status != "pending" || qr.NextAction == nil {
			t.Fatalf("QR at 02:58: %+v", qr)
		}

		paidInsideWindow(t, env, env.Member, demo.Member1, qr.PaymentProcessID, time.Date(2026, 11, 21, 3, 10, 0, 0, jst))
	})
}

// paidInsideWindow has the member pay their pending pass payment (a slip
// at the store, a QR code in the app) at the time at, inside the
// maintenance window: it settles and the member holds the pass.
func paidInsideWindow(t *testing.T, env *payEnv, login func(testing.TB) *apitest.Client, memberID, processID string, at time.Time) {
	t.Helper()
	env.Clock.Set(at)
	if _, err := env.App.Gateway.Sandbox.CustomerStep(context.Background(), env.gatewayPaymentID(t, processID), true); err != nil {
		t.Fatal(err)
	}
	env.deliver(t)
	if p := decodeProcess(t, login(t).Get("/api/gogo_pass/buy/"+processID+"/status")); p.Status != "settled" {
		t.Errorf("a payment under way before the window and paid inside it is %s", p.Status)
	}
	if n := passesOf(t, env.Env, memberID, demo.DemoPeriodNext); n != 1 {
		t.Errorf("%s holds %d passes after paying", memberID, n)
	}
}
