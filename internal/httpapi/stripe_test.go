package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
	"members/internal/stripe/stripefake"
)

const testWebhookSecret = "whsec_test_members"

// stripeEnv is a server in Stripe mode over the stateful stand-in (Stripe
// cannot be reached from the tests), which sends its signed webhooks to
// the server's /webhooks/stripe.
type stripeEnv struct {
	*payEnv
	fake    *stripefake.Fake
	fakeURL string
}

func newStripeEnv(t *testing.T, engine store.Engine, cfg ...func(*app.Config)) *stripeEnv {
	t.Helper()
	var env *payEnv
	// the stand-in signs its events on the server's clock (the test's)
	fake := stripefake.New(stripefake.Options{Now: func() time.Time {
		if env == nil {
			return apitest.Start
		}
		return env.Clock.Now()
	}})
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	env = newPayEnv(t, engine, func(c *app.Config) {
		c.Gateway = app.GatewayStripe
		c.Stripe = app.StripeConfig{SecretKey: "sk_test_members", PublishableKey: "pk_test_members",
			WebhookSecret: testWebhookSecret, APIURL: api.URL}
		for _, f := range cfg {
			f(c)
		}
	})
	fake.SetWebhook(env.Server.URL+"/webhooks/stripe", testWebhookSecret)
	t.Cleanup(fake.Wait)
	return &stripeEnv{payEnv: env, fake: fake, fakeURL: api.URL}
}

// waitStatus polls a process until it reaches want (the webhook arrives
// in the background) or fails after a few seconds.
func waitStatus(t *testing.T, c *apitest.Client, id, want string) process {
	t.Helper()
	var p process
	for range 100 {
		if p = status(t, c, id); p.Status == want {
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("process %s: status %s, want %s", id, p.Status, want)
	return p
}

func TestStripeAvailabilityAndCSP(t *testing.T) {
	env := newStripeEnv(t, store.SQLite)
	c := env.Member(t)
	for _, tc := range []struct {
		currency string
		other    []string
		konbini  bool
	}{
		{"JPY", []string{"paypay"}, true},
		{"CNY", []string{"wechat", "alipay"}, false},
		{"KRW", []string{}, false},
	} {
		var a struct {
			OtherPayment     []string `json:"otherPayment"`
			ConvenienceStore bool     `json:"convenienceStore"`
			Gateway          string   `json:"gateway"`
			PublishableKey   string   `json:"publishableKey"`
			CreditCard       []string `json:"creditCard"`
		}
		c.Get("/api/payment_availability?currency="+tc.currency).JSON(t, &a)
		if a.Gateway != "stripe" || a.PublishableKey != "pk_test_members" {
			t.Errorf("%s: gateway %q key %q", tc.currency, a.Gateway, a.PublishableKey)
		}
		if strings.Join(a.OtherPayment, ",") != strings.Join(tc.other, ",") || a.ConvenienceStore != tc.konbini {
			t.Errorf("%s: other %v konbini %v, want %v %v", tc.currency, a.OtherPayment, a.ConvenienceStore, tc.other, tc.konbini)
		}
		if len(a.CreditCard) != 6 {
			t.Errorf("%s: brands %v", tc.currency, a.CreditCard)
		}
	}
	// a method Stripe does not take is refused at buy, not only hidden
	body := map[string]any{"amount": 3000, "currencyCode": "JPY", "paymentMethod": "otherPayment",
		"otherPaymentType": "rakuten_pay", "requestId": newRequestID()}
	if r := c.Do(http.MethodPost, "/api/peachpoints/buy", body); r.Status != http.StatusBadRequest {
		t.Errorf("rakuten_pay on Stripe: %d %s", r.Status, r.Body)
	}
	csp := c.Get("/").Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self' https://js.stripe.com;", "frame-src 'self' https://js.stripe.com https://hooks.stripe.com;",
		"connect-src 'self' https://api.stripe.com;"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
}

func TestStripeCardRegistration(t *testing.T) {
	env := newStripeEnv(t, store.SQLite)
	c := env.Member(t)
	// the demo member's cards were saved with the sandbox: shown, not usable
	var list struct {
		Creditcards []struct {
			Token, Gateway string
			IsValid        bool `json:"isValid"`
			Usable         bool `json:"usable"`
		}
	}
	c.Get("/api/cc").JSON(t, &list)
	before := len(list.Creditcards)
	for _, card := range list.Creditcards {
		if card.Gateway != "stripe" && (card.Usable || card.IsValid) {
			t.Errorf("a %s card is usable in Stripe mode", card.Gateway)
		}
	}

	var reg struct {
		Creditcard struct{ Token, Gateway, Brand string }
		Status     string
		SetupID    string `json:"setupId"`
		NextAction *struct{ Type, URL string }
	}
	r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": "pm_card_visa", "gateway": "stripe", "currency": "JPY"})
	r.JSON(t, &reg)
	if r.Status != 200 || reg.Status != "" || reg.Creditcard.Gateway != "stripe" || reg.Creditcard.Brand != "visa" ||
		!strings.HasPrefix(reg.Creditcard.Token, "pm_") || reg.Creditcard.Token == "pm_card_visa" {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	saved := reg.Creditcard.Token

	// declined at the check: refused with the reason, not saved
	for token, msg := range map[string]string{
		"pm_card_chargeDeclined":            "declined",
		"pm_card_chargeDeclinedExpiredCard": "expired",
	} {
		r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": token, "gateway": "stripe", "currency": "JPY"})
		if r.Status != http.StatusBadRequest || !strings.Contains(strings.ToLower(string(r.Body)), msg) {
			t.Errorf("%s: %d %s", token, r.Status, r.Body)
		}
	}

	// 3-D Secure: a customer step, then the completion saves the card
	r = c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": "pm_card_threeDSecureRequired", "gateway": "stripe", "currency": "NON_JPY"})
	reg.Status, reg.SetupID, reg.NextAction = "", "", nil
	r.JSON(t, &reg)
	if reg.Status != "requires_action" || !strings.HasPrefix(reg.SetupID, "seti_") || reg.NextAction == nil || reg.NextAction.URL == "" {
		t.Fatalf("3DS register: %s", r.Body)
	}
	if r := c.Do(http.MethodPost, "/api/cc/register/"+reg.SetupID+"/complete", nil); r.Status != http.StatusConflict {
		t.Errorf("complete before the step: %d %s", r.Status, r.Body)
	}
	if r := env.Member2(t).Do(http.MethodPost, "/api/cc/register/"+reg.SetupID+"/complete", nil); r.Status != http.StatusNotFound {
		t.Errorf("another member's setup: %d", r.Status)
	}
	back, ok := env.fake.Step(reg.SetupID, true)
	if !ok || !strings.Contains(back, "/payment-methods?setup="+reg.SetupID) {
		t.Fatalf("return page %q", back)
	}
	for range 2 { // a repeat answers the saved card
		if r := c.Do(http.MethodPost, "/api/cc/register/"+reg.SetupID+"/complete", nil); r.Status != 200 {
			t.Fatalf("complete: %d %s", r.Status, r.Body)
		}
	}
	c.Get("/api/cc").JSON(t, &list)
	if len(list.Creditcards) != before+2 {
		t.Fatalf("cards %d, want %d", len(list.Creditcards), before+2)
	}
	// a failed challenge is refused on completion
	r = c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": "pm_card_threeDSecureRequired", "gateway": "stripe", "currency": "JPY"})
	r.JSON(t, &reg)
	env.fake.Step(reg.SetupID, false)
	if r := c.Do(http.MethodPost, "/api/cc/register/"+reg.SetupID+"/complete", nil); r.Status != http.StatusBadRequest {
		t.Errorf("failed challenge: %d %s", r.Status, r.Body)
	}
	// the same card again: a new check under a new key, never the failed
	// one replayed (Stripe keeps a key's answer 24 hours); it succeeds
	failed, retry := reg.SetupID, ""
	for range 2 { // a double click of the new attempt makes one check
		r = c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": "pm_card_threeDSecureRequired", "gateway": "stripe", "currency": "JPY"})
		reg.Status, reg.SetupID, reg.NextAction = "", "", nil
		r.JSON(t, &reg)
		if reg.Status != "requires_action" || reg.SetupID == failed || reg.NextAction == nil {
			t.Fatalf("retry after a failed challenge: %s (failed check %s)", r.Body, failed)
		}
		if retry == "" {
			retry = reg.SetupID
		} else if reg.SetupID != retry {
			t.Errorf("a repeat of the new attempt made another check: %s, then %s", retry, reg.SetupID)
		}
	}
	if back, ok := env.fake.Step(reg.SetupID, true); !ok || !strings.Contains(back, "/payment-methods?setup="+reg.SetupID) {
		t.Fatalf("retry's return page %q", back)
	}
	if r := c.Do(http.MethodPost, "/api/cc/register/"+reg.SetupID+"/complete", nil); r.Status != 200 {
		t.Fatalf("retry's completion: %d %s", r.Status, r.Body)
	}

	// delete detaches the PaymentMethod at Stripe
	if r := c.Do(http.MethodDelete, "/api/cc/"+saved+"?gateway=stripe", nil); r.Status != 200 && r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if n := env.fake.Calls("POST /v1/payment_methods/{id}/detach"); n != 1 {
		t.Errorf("detach calls %d", n)
	}
	// one customer for the member, however many cards
	if n := env.fake.Calls("POST /v1/customers"); n != 1 {
		t.Errorf("customers created %d", n)
	}
}

func TestStripePurchases(t *testing.T) {
	env := newStripeEnv(t, store.SQLite)
	c := env.Member(t)

	// a card that needs nothing more: settled in the continue
	p := buy(t, c, cardBody("pm_card_visa", 3000))
	if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" || env.goodsRows(t, p.PaymentProcessID) != 1 {
		t.Fatalf("card: %+v", got)
	}
	pi := env.gatewayPaymentID(t, p.PaymentProcessID)
	// a partial refund, then the rest; the same reason twice refunds once
	ctx := context.Background()
	member := env.memberID(t, p.PaymentProcessID)
	for _, step := range []struct {
		reason string
		amount int64
	}{{"fee", 1000}, {"fee", 1000}, {"rest", 2000}} {
		if err := env.App.Payments.Refund(ctx, member, p.PaymentProcessID, step.amount, step.reason); err != nil {
			t.Fatalf("refund %s: %v", step.reason, err)
		}
	}
	if st, _, refunded, _ := env.fake.PaymentIntent(pi); st != "succeeded" || refunded != 3000 {
		t.Errorf("refunded %d at Stripe", refunded)
	}
	if n := env.fake.Calls("POST /v1/refunds"); n != 2 {
		t.Errorf("refund calls %d, want 2", n)
	}

	// a saved card pays on the member's customer; a new card saved with
	// a purchase is kept for the next one
	var reg struct{ Creditcard struct{ Token string } }
	c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": "pm_card_jcb", "gateway": "stripe", "currency": "JPY"}).JSON(t, &reg)
	p = buy(t, c, cardBody(reg.Creditcard.Token, 3000))
	if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" {
		t.Fatalf("saved card: %+v", got)
	}
	save := cardBody("pm_card_mastercard", 3000)
	save["saveCard"] = true
	p = buy(t, c, save)
	if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" {
		t.Fatalf("card saved with a purchase: %+v", got)
	}
	var list struct {
		Creditcards []struct{ Token, Brand, Gateway string }
	}
	c.Get("/api/cc").JSON(t, &list)
	found := false
	for _, card := range list.Creditcards {
		found = found || (card.Brand == "mastercard" && card.Gateway == "stripe" && card.Token == "pm_card_mastercard")
	}
	if !found {
		t.Errorf("the card saved with the purchase is not listed: %+v", list)
	}

	// declined: failed with the member's reason
	p = buy(t, c, cardBody("pm_card_chargeDeclinedInsufficientFunds", 3000))
	if got := cont(t, c, p.PaymentProcessID); got.Status != "failed" || got.FailureCode != "insufficient_funds" {
		t.Fatalf("declined: %+v", got)
	}

	// 3-D Secure: the member's step, returning to the result page
	p = buy(t, c, cardBody("pm_card_threeDSecureRequired", 3000))
	got := cont(t, c, p.PaymentProcessID)
	if got.Status != "pending" || got.NextAction == nil || !strings.Contains(got.NextAction.URL, "/fake/step/pi_") {
		t.Fatalf("3DS: %+v", got)
	}
	back, _ := env.fake.Step(env.gatewayPaymentID(t, p.PaymentProcessID), true)
	if !strings.Contains(back, "/payment/peachpoints/"+p.PaymentProcessID+"/result") {
		t.Errorf("return page %q", back)
	}
	waitStatus(t, c, p.PaymentProcessID, "settled")

	// konbini: a slip with the payment code per store, paid days later
	body := map[string]any{"amount": 5000, "currencyCode": "JPY", "paymentMethod": "convenienceStore", "requestId": newRequestID()}
	p = buy(t, c, body)
	if got := cont(t, c, p.PaymentProcessID); got.Status != "pending" {
		t.Fatalf("konbini: %+v", got)
	}
	var pending struct {
		Payments []struct {
			PayURL    string `json:"payUrl"`
			ExpiresAt time.Time
			Slip      struct {
				ConfirmationNumber string            `json:"confirmationNumber"`
				PaymentCodes       map[string]string `json:"paymentCodes"`
			}
		}
	}
	c.Get("/api/payments/pending").JSON(t, &pending)
	if len(pending.Payments) != 1 || pending.Payments[0].Slip.ConfirmationNumber == "" || len(pending.Payments[0].Slip.PaymentCodes) != 4 ||
		pending.Payments[0].ExpiresAt.Before(env.Clock.Now().Add(48*time.Hour)) || pending.Payments[0].PayURL == "" {
		t.Fatalf("slip: %+v", pending)
	}
	// the slip mail carries the confirmation number and each store's code
	var mailText string
	if err := env.App.DB.QueryRow(`SELECT text_body FROM mail_outbox WHERE kind = 'payment_slip' ORDER BY created_at DESC LIMIT 1`).Scan(&mailText); err != nil {
		t.Fatalf("slip mail: %v", err)
	}
	slip := pending.Payments[0].Slip
	if !strings.Contains(mailText, slip.ConfirmationNumber) || !strings.Contains(mailText, slip.PaymentCodes["lawson"]) ||
		!strings.Contains(mailText, "Lawson payment code") {
		t.Errorf("slip mail:\n%s", mailText)
	}
	env.fake.Step(env.gatewayPaymentID(t, p.PaymentProcessID), true) // paid at the shop: the webhook settles
	waitStatus(t, c, p.PaymentProcessID, "settled")

	// PayPay: a redirect, approved
	body = map[string]any{"amount": 2000, "currencyCode": "JPY", "paymentMethod": "otherPayment", "otherPaymentType": "paypay", "requestId": newRequestID()}
	p = buy(t, c, body)
	if got := cont(t, c, p.PaymentProcessID); got.Status != "pending" || got.NextAction == nil {
		t.Fatalf("paypay: %+v", got)
	}
	env.fake.Step(env.gatewayPaymentID(t, p.PaymentProcessID), true)
	waitStatus(t, c, p.PaymentProcessID, "settled")

	// cancel of a payment waiting for its customer
	p = buy(t, c, map[string]any{"amount": 2000, "currencyCode": "JPY", "paymentMethod": "otherPayment", "otherPaymentType": "paypay", "requestId": newRequestID()})
	cont(t, c, p.PaymentProcessID)
	if r := c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	if st, _, _, _ := env.fake.PaymentIntent(env.gatewayPaymentID(t, p.PaymentProcessID)); st != "canceled" {
		t.Errorf("cancelled at Stripe: %s", st)
	}
}

// memberID is the member of a process.
func (e *payEnv) memberID(t *testing.T, processID string) string {
	t.Helper()
	return e.processColumn(t, processID, "member_id")
}

// postStripeEvent signs an event the way Stripe does (stripe-go's
// webhook.GenerateTestSignedPayload) with secret at ts and posts it.
func (e *stripeEnv) postStripeEvent(t *testing.T, id, typ string, object any, secret string, ts time.Time) int {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"id": id, "object": "event", "type": typ, "created": ts.Unix(),
		"api_version": "2025-10-29.clover", "livemode": false, "data": map[string]any{"object": object}})
	if err != nil {
		t.Fatal(err)
	}
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: ts})
	req, _ := http.NewRequest(http.MethodPost, e.Server.URL+"/webhooks/stripe", bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", signed.Header)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

// postStripeRaw posts body signed with secret at ts (no header for an
// empty secret) and returns the status and the answer.
func (e *stripeEnv) postStripeRaw(t *testing.T, body []byte, secret string, ts time.Time) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.Server.URL+"/webhooks/stripe", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: ts})
		req.Header.Set("Stripe-Signature", signed.Header)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(answer)
}

// countLogLines counts the JSON log lines at level whose message is msg
// and that contain each of the other strings.
func countLogLines(log, level, msg string, with ...string) int {
	n := 0
	for _, line := range strings.Split(log, "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["level"] != level || rec["msg"] != msg {
			continue
		}
		ok := true
		for _, w := range with {
			ok = ok && strings.Contains(line, w)
		}
		if ok {
			n++
		}
	}
	return n
}

// stripePI is a PaymentIntent as Stripe's API answers it (the stand-in's).
func (e *stripeEnv) stripePI(t *testing.T, id string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.fakeURL+"/v1/payment_intents/"+id, nil)
	req.Header.Set("Authorization", "Bearer sk_test_members")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var o map[string]any
	if err := json.NewDecoder(res.Body).Decode(&o); err != nil {
		t.Fatal(err)
	}
	return o
}

// Stripe's webhooks are verified with its signature (current and previous
// secret, five minutes' tolerance), handled once per event id, and taken
// as hints: the PaymentIntent is read from Stripe, and a claim that
// differs from it (a forged amount under a real signature) settles
// nothing and is recorded as a discrepancy.
func TestStripeWebhooks(t *testing.T) {
	env := newStripeEnv(t, store.SQLite, func(c *app.Config) { c.Stripe.WebhookSecretPrevious = []string{"whsec_test_old"} })
	env.fake.SetWebhook("", "") // the test sends the events itself
	c := env.Member(t)
	p := buy(t, c, cardBody("pm_card_threeDSecureRequired", 3000))
	cont(t, c, p.PaymentProcessID)
	pi := env.gatewayPaymentID(t, p.PaymentProcessID)
	env.fake.Step(pi, true) // paid at Stripe; no event sent yet
	paid := env.stripePI(t, pi)
	now := env.Clock.Now()

	if got := env.postStripeEvent(t, "evt_wrong", "payment_intent.succeeded", paid, "whsec_wrong", now); got != http.StatusBadRequest {
		t.Errorf("wrong secret: %d", got)
	}
	if got := env.postStripeEvent(t, "evt_stale", "payment_intent.succeeded", paid, testWebhookSecret, now.Add(-6*time.Minute)); got != http.StatusBadRequest {
		t.Errorf("stale timestamp: %d", got)
	}
	// Stripe's rule holds both ways: a timestamp 6 minutes ahead of the
	// server's clock is refused as well (stripe-go takes any future one)
	if got := env.postStripeEvent(t, "evt_future", "payment_intent.succeeded", paid, testWebhookSecret, now.Add(6*time.Minute)); got != http.StatusBadRequest {
		t.Errorf("future timestamp: %d", got)
	}
	// each refusal is a WARN line with its reason
	for _, reason := range []string{"no valid signature under the webhook secrets", "timestamp more than the tolerance from the server's clock"} {
		if n := countLogLines(env.Log.String(), "WARN", "stripe: webhook signature refused", reason); n == 0 {
			t.Errorf("no WARN line for %q:\n%s", reason, env.Log.String())
		}
	}
	// a well-signed body that is no event is malformed, not a bad signature
	for _, body := range []string{`{"id":`, `[1,2]`, `{"object":"event"}`} {
		code, answer := env.postStripeRaw(t, []byte(body), testWebhookSecret, now)
		if code != http.StatusBadRequest || !strings.Contains(answer, "malformed") {
			t.Errorf("malformed %s: %d %s", body, code, answer)
		}
	}
	if code, answer := env.postStripeRaw(t, []byte(`{"id":`), "", now); code != http.StatusBadRequest || !strings.Contains(answer, "bad signature") {
		t.Errorf("unsigned: %d %s", code, answer)
	}
	if n := countLogLines(env.Log.String(), "WARN", "stripe: webhook signature refused", "no signature header"); n != 1 {
		t.Errorf("%d WARN lines for the unsigned event, want 1", n)
	}
	forged := map[string]any{}
	for k, v := range paid {
		forged[k] = v
	}
	forged["amount"] = 1
	if got := env.postStripeEvent(t, "evt_forged", "payment_intent.succeeded", forged, testWebhookSecret, now); got != 200 {
		t.Errorf("forged amount: %d", got)
	}
	if st := status(t, c, p.PaymentProcessID).Status; st != "pending" || env.goodsRows(t, p.PaymentProcessID) != 0 {
		t.Fatalf("forged amount acted on: %s", st)
	}
	if n := env.discrepancies(t, p.PaymentProcessID); n != 1 {
		t.Errorf("discrepancies %d, want 1", n)
	}
	// the real event, signed with the previous secret during a rotation,
	// by a clock 4 minutes ahead (within the tolerance)
	if got := env.postStripeEvent(t, "evt_paid", "payment_intent.succeeded", paid, "whsec_test_old", now.Add(4*time.Minute)); got != 200 {
		t.Fatalf("real event: %d", got)
	}
	if st := status(t, c, p.PaymentProcessID).Status; st != "settled" || env.goodsRows(t, p.PaymentProcessID) != 1 {
		t.Fatalf("after the real event: %s", st)
	}
	reads := env.fake.Calls("GET /v1/payment_intents/{id}")
	if got := env.postStripeEvent(t, "evt_paid", "payment_intent.succeeded", paid, testWebhookSecret, now); got != 200 {
		t.Errorf("replay: %d", got)
	}
	if env.fake.Calls("GET /v1/payment_intents/{id}") != reads || env.goodsRows(t, p.PaymentProcessID) != 1 {
		t.Error("a replayed event id was handled again")
	}
	// a refund's event names its PaymentIntent, which is read
	if err := env.App.Payments.Refund(context.Background(), env.memberID(t, p.PaymentProcessID), p.PaymentProcessID, 1000, "fee"); err != nil {
		t.Fatal(err)
	}
	charge := map[string]any{"id": "ch_x", "object": "charge", "amount": 3000, "amount_refunded": 1000, "payment_intent": pi}
	if got := env.postStripeEvent(t, "evt_refund", "charge.refunded", charge, testWebhookSecret, now); got != 200 {
		t.Errorf("refund event: %d", got)
	}
	if n := env.discrepancies(t, p.PaymentProcessID); n != 1 {
		t.Errorf("discrepancies after the refund event %d, want 1", n)
	}
}
