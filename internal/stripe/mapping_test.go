package stripe

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	sapi "github.com/stripe/stripe-go/v85"

	"members/internal/payment"
)

// fixture is stripe-mock's own fixture object at path (Stripe's shape,
// every field present), as a JSON object to change field by field.
func fixture(t *testing.T, base, path string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.SetBasicAuth("sk_test_123", "")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var o map[string]any
	if err := json.Unmarshal(b, &o); err != nil || res.StatusCode != 200 {
		t.Fatalf("fixture %s: %d %s", path, res.StatusCode, b)
	}
	return o
}

// with decodes into v a copy of the fixture with each set of fields laid
// over it in turn.
func with(t *testing.T, base map[string]any, v any, fields ...map[string]any) {
	t.Helper()
	o := map[string]any{}
	for k, x := range base {
		o[k] = x
	}
	for _, f := range fields {
		for k, x := range f {
			o[k] = x
		}
	}
	b, _ := json.Marshal(o)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

type obj = map[string]any

func cardError(code, decline string) obj {
	e := obj{"type": "card_error", "code": code, "message": "declined"}
	if decline != "" {
		e["decline_code"] = decline
	}
	return e
}

// Every PaymentIntent status, the customer steps (3-D Secure redirect,
// konbini slip, Alipay, WeChat Pay), each decline code and a partial
// refund map to the engine's gateway payment.
func TestPaymentIntentMapping(t *testing.T) {
	base := fixture(t, stripeMockURL(t), "/v1/payment_intents/pi_123")
	expires := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	common := obj{"amount": 3000, "currency": "jpy", "metadata": obj{"reference": "proc1"}, "last_payment_error": nil,
		"next_action": nil, "latest_charge": nil, "cancellation_reason": nil}
	type row struct {
		name     string
		fields   obj
		status   string
		failure  string
		url      string
		refunded int64
		check    func(t *testing.T, gp payment.GatewayPayment)
	}
	failed := func(e obj) obj { return obj{"status": "requires_payment_method", "last_payment_error": e} }
	var rows []row
	// Each refusal: its error, and the failure code the member's message
	// comes from.
	for _, d := range []struct {
		name    string
		err     obj
		failure string
	}{
		{"generic decline", cardError("card_declined", "generic_decline"), "card_declined"},
		{"do_not_honor", cardError("card_declined", "do_not_honor"), "card_declined"},
		{"lost_card", cardError("card_declined", "lost_card"), "card_declined"},
		{"stolen_card", cardError("card_declined", "stolen_card"), "card_declined"},
		{"fraudulent", cardError("card_declined", "fraudulent"), "card_declined"},
		{"insufficient_funds", cardError("card_declined", "insufficient_funds"), "insufficient_funds"},
		{"expired_card", cardError("expired_card", "expired_card"), "expired_card"},
		{"incorrect_cvc", cardError("incorrect_cvc", "incorrect_cvc"), "card_declined"},
		{"processing_error", cardError("processing_error", "processing_error"), "card_declined"},
		{"authentication_required", cardError("card_declined", "authentication_required"), "authentication_failed"},
		{"3DS failed", obj{"type": "invalid_request_error", "code": "payment_intent_authentication_failure"}, "authentication_failed"},
		{"wallet declined", obj{"type": "invalid_request_error", "code": "payment_intent_payment_attempt_failed"}, "payment_failed"},
	} {
		rows = append(rows, row{name: d.name, fields: failed(d.err), status: payment.GWFailed, failure: d.failure})
	}
	for _, tc := range append(rows, []row{
		{name: "requires_payment_method", fields: obj{"status": "requires_payment_method"}, status: payment.GWCreated},
		{name: "requires_confirmation", fields: obj{"status": "requires_confirmation"}, status: payment.GWCreated},
		{name: "slip ran out", fields: failed(obj{"type": "invalid_request_error", "code": "payment_intent_payment_attempt_expired"}), status: payment.GWExpired},
		{name: "3DS redirect", fields: obj{"status": "requires_action", "next_action": obj{"type": "redirect_to_url",
			"redirect_to_url": obj{"url": "https://hooks.stripe.com/3d_secure_2/hosted?x=1", "return_url": "https://m.example.com/r"}}},
			status: payment.GWRequiresAction, url: "https://hooks.stripe.com/3d_secure_2/hosted?x=1"},
		{name: "alipay", fields: obj{"status": "requires_action", "next_action": obj{"type": "alipay_handle_redirect",
			"alipay_handle_redirect": obj{"url": "https://hooks.stripe.com/alipay", "return_url": "https://m.example.com/r", "native_url": "", "native_data": ""}}},
			status: payment.GWRequiresAction, url: "https://hooks.stripe.com/alipay"},
		{name: "wechat pay", fields: obj{"status": "requires_action", "next_action": obj{"type": "wechat_pay_display_qr_code",
			"wechat_pay_display_qr_code": obj{"hosted_instructions_url": "https://pay.stripe.com/wechat", "data": "weixin://x"}}},
			status: payment.GWRequiresAction, url: "https://pay.stripe.com/wechat"},
		{name: "konbini", fields: obj{"status": "requires_action", "payment_method_types": []string{"konbini"}, "next_action": obj{"type": "konbini_display_details",
			"konbini_display_details": obj{"expires_at": expires.Unix(), "hosted_voucher_url": "https://payments.stripe.com/konbini/voucher/x",
				"stores": obj{"familymart": obj{"confirmation_number": "12345678901", "payment_code": "111"},
					"lawson":   obj{"confirmation_number": "12345678901", "payment_code": "222"},
					"ministop": obj{"confirmation_number": "12345678901", "payment_code": "333"}, "seicomart": nil}}}},
			status: payment.GWPending, url: "https://payments.stripe.com/konbini/voucher/x",
			check: func(t *testing.T, gp payment.GatewayPayment) {
				if gp.Method != "konbini" || gp.ExpiresAt == nil || !gp.ExpiresAt.Equal(expires) || gp.Slip == nil ||
					gp.Slip.ConfirmationNumber != "12345678901" || len(gp.Slip.PaymentCodes) != 3 || gp.Slip.PaymentCodes["lawson"] != "222" {
					t.Errorf("konbini slip: %+v %+v", gp, gp.Slip)
				}
			}},
		{name: "processing", fields: obj{"status": "processing"}, status: payment.GWPending},
		{name: "requires_capture", fields: obj{"status": "requires_capture"}, status: payment.GWAuthorized},
		{name: "succeeded", fields: obj{"status": "succeeded", "payment_method": obj{"id": "pm_1", "object": "payment_method", "type": "card",
			"card": obj{"brand": "jcb", "last4": "0000", "exp_month": 12, "exp_year": 2030}}},
			status: payment.GWCaptured, check: func(t *testing.T, gp payment.GatewayPayment) {
				if gp.Token != "pm_1" || gp.Brand != "jcb" || gp.Last4 != "0000" || gp.Amount != 3000 || gp.Currency != "JPY" || gp.Reference != "proc1" {
					t.Errorf("captured card: %+v", gp)
				}
			}},
		{name: "partly refunded", fields: obj{"status": "succeeded", "latest_charge": obj{"id": "ch_1", "object": "charge", "amount": 3000, "amount_refunded": 900}},
			status: payment.GWCaptured, refunded: 900},
		{name: "refunded", fields: obj{"status": "succeeded", "latest_charge": obj{"id": "ch_1", "object": "charge", "amount": 3000, "amount_refunded": 3000, "refunded": true}},
			status: payment.GWRefunded, refunded: 3000},
		{name: "canceled", fields: obj{"status": "canceled", "cancellation_reason": "requested_by_customer"}, status: payment.GWFailed, failure: "canceled"},
		{name: "abandoned", fields: obj{"status": "canceled", "cancellation_reason": "abandoned"}, status: payment.GWExpired},
	}...) {
		t.Run(tc.name, func(t *testing.T) {
			var pi sapi.PaymentIntent
			with(t, base, &pi, common, tc.fields)
			gp := Payment(&pi)
			if gp.Status != tc.status || gp.FailureCode != tc.failure || gp.RefundedAmount != tc.refunded {
				t.Errorf("status %q failure %q refunded %d, want %q %q %d", gp.Status, gp.FailureCode, gp.RefundedAmount, tc.status, tc.failure, tc.refunded)
			}
			got := ""
			if gp.NextAction != nil {
				got = gp.NextAction.URL
			}
			if got != tc.url {
				t.Errorf("next action %q, want %q", got, tc.url)
			}
			if tc.check != nil {
				tc.check(t, gp)
			}
		})
	}
}

// Every SetupIntent status maps to the card check's outcome.
func TestSetupIntentMapping(t *testing.T) {
	base := fixture(t, stripeMockURL(t), "/v1/setup_intents/seti_123")
	common := obj{"metadata": obj{"member_id": "m1", "scope": "NON_JPY"}, "payment_method": "pm_9", "last_setup_error": nil, "next_action": nil}
	for _, tc := range []struct {
		fields  obj
		status  string
		failure string
		url     string
	}{
		{obj{"status": "succeeded"}, payment.VerifySucceeded, "", ""},
		{obj{"status": "processing"}, payment.VerifyPending, "", ""},
		{obj{"status": "requires_confirmation"}, payment.VerifyPending, "", ""},
		{obj{"status": "requires_action", "next_action": obj{"type": "redirect_to_url", "redirect_to_url": obj{"url": "https://hooks.stripe.com/3ds", "return_url": "x"}}},
			payment.VerifyRequiresAction, "", "https://hooks.stripe.com/3ds"},
		{obj{"status": "requires_payment_method", "last_setup_error": cardError("card_declined", "generic_decline")}, payment.VerifyFailed, "card_declined", ""},
		{obj{"status": "requires_payment_method", "last_setup_error": cardError("expired_card", "")}, payment.VerifyFailed, "expired_card", ""},
		{obj{"status": "requires_payment_method", "last_setup_error": obj{"type": "invalid_request_error", "code": "setup_intent_authentication_failure"}},
			payment.VerifyFailed, "authentication_failed", ""},
		{obj{"status": "canceled"}, payment.VerifyFailed, "canceled", ""},
	} {
		var si sapi.SetupIntent
		with(t, base, &si, common, tc.fields)
		r := setupResult(&si)
		url := ""
		if r.NextAction != nil {
			url = r.NextAction.URL
		}
		if r.Status != tc.status || r.FailureCode != tc.failure || url != tc.url || r.MemberID != "m1" || r.Scope != "NON_JPY" || r.Token != "pm_9" {
			t.Errorf("%v: %+v", tc.fields["status"], r)
		}
	}
}

// A refusal maps to the message key the member reads (cards.go's
// refusalKey) through its failure code: the decline codes Stripe
// documents, each to one of today's messages.
func TestFailureCodes(t *testing.T) {
	for _, tc := range []struct {
		code, decline, typ, want string
	}{
		{"card_declined", "generic_decline", "card_error", "card_declined"},
		{"card_declined", "insufficient_funds", "card_error", "insufficient_funds"},
		{"card_declined", "lost_card", "card_error", "card_declined"},
		{"card_declined", "", "card_error", "card_declined"},
		{"expired_card", "", "card_error", "expired_card"},
		{"card_declined", "expired_card", "card_error", "expired_card"},
		{"authentication_required", "", "card_error", "authentication_failed"},
		{"incorrect_number", "", "card_error", "card_declined"},
		{"", "", "api_error", "payment_failed"},
	} {
		e := &sapi.Error{Code: sapi.ErrorCode(tc.code), DeclineCode: sapi.DeclineCode(tc.decline), Type: sapi.ErrorType(tc.typ)}
		if got := FailureCode(e); got != tc.want {
			t.Errorf("%s/%s: %s, want %s", tc.code, tc.decline, got, tc.want)
		}
	}
	if FailureCode(nil) != "payment_failed" {
		t.Error("nil error")
	}
}
