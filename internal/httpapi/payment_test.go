package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/payment"
	"members/internal/store"
)

// savedVisa is demo member 1's saved JPY visa (tokenised by the sandbox).
func savedCard(t *testing.T, c *apitest.Client, brand string) map[string]any {
	t.Helper()
	r := c.Get("/api/cc")
	var list struct{ Creditcards []map[string]any }
	r.JSON(t, &list)
	for _, card := range list.Creditcards {
		if card["brand"] == brand && card["isValid"] == true {
			return card
		}
	}
	t.Fatalf("no valid %s card in %s", brand, r.Body)
	return nil
}

func TestCardsList(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		r := c.Get("/api/cc")
		var list struct{ Creditcards []map[string]any }
		r.JSON(t, &list)
		var brands, types []string
		invalid := 0
		for _, card := range list.Creditcards {
			brands = append(brands, card["brand"].(string))
			types = append(types, card["creditCardType"].(string))
			if card["isValid"] == false {
				invalid++
				if card["expirationDate"] == "" {
					t.Error("expired card without expiry")
				}
			}
			if n := card["cardNumber"].(string); len(n) < 4 || contains(n, "4242424242") {
				t.Errorf("card number not masked: %q", n)
			}
		}
		// brand display order: visa (the saved one and the expired one), mastercard, amex
		want := []string{"visa", "visa", "mastercard", "amex"}
		if len(brands) != len(want) {
			t.Fatalf("brands %v, want %v", brands, want)
		}
		for i := range want {
			if brands[i] != want[i] {
				t.Fatalf("brands %v, want %v", brands, want)
			}
		}
		if invalid != 1 {
			t.Errorf("%d expired cards, want 1", invalid)
		}
		// JPY visa is the domestic acquirer's type; the non-JPY mastercard is not
		if !containsAll(types, "ndhk_visa", "mastercard", "amex") {
			t.Errorf("creditCardType %v", types)
		}
		// the other member sees only their own card
		var l2 struct{ Creditcards []map[string]any }
		env.Member2(t).Get("/api/cc").JSON(t, &l2)
		if len(l2.Creditcards) != 1 || l2.Creditcards[0]["brand"] != "jcb" {
			t.Errorf("member 2 cards: %v", l2.Creditcards)
		}
		if r := env.Client(t).Get("/api/cc"); r.Status != http.StatusForbidden {
			t.Errorf("anonymous /api/cc = %d", r.Status)
		}
	})
}

func containsAll(have []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}

func TestCardsRegisterAndDelete(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		tok := env.Tokenize(t, "36227206271667", "123")
		r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok["token"], "gateway": "ndhk", "currency": "KRW"})
		if r.Status != http.StatusOK {
			t.Fatalf("register = %d %s", r.Status, r.Body)
		}
		var reg struct {
			Creditcard map[string]any
			MailSent   bool
		}
		r.JSON(t, &reg)
		if reg.Creditcard["brand"] != "diners" || reg.Creditcard["currency"] != "ALL" || reg.Creditcard["cardNumber"] != "**** **** **** 1667" || !reg.MailSent {
			t.Errorf("registered %v mailSent %v", reg.Creditcard, reg.MailSent)
		}
		// field errors
		for _, body := range []map[string]any{
			{"token": "", "currency": "JPY"},
			{"token": "tok_unknown", "currency": "JPY"},
			{"token": tok["token"], "currency": "XXX"},
			{"token": tok["token"], "gateway": "stripe", "currency": "JPY"},
		} {
			if r := c.Do(http.MethodPost, "/api/cc/register", body); r.Status != http.StatusBadRequest {
				t.Errorf("register %v = %d %s", body, r.Status, r.Body)
			}
		}
		// another member cannot take over the token, nor delete the card
		c2 := env.Member2(t)
		if r := c2.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok["token"], "currency": "JPY"}); r.Status != http.StatusNotFound {
			t.Errorf("member 2 registers member 1's token = %d", r.Status)
		}
		if r := c2.Do(http.MethodDelete, "/api/cc/"+tok["token"].(string)+"?gateway=ndhk", nil); r.Status != http.StatusNotFound {
			t.Errorf("member 2 deletes member 1's card = %d", r.Status)
		}
		nc := env.Member(t)
		nc.NoCSRF = true
		if r := nc.Do(http.MethodDelete, "/api/cc/"+tok["token"].(string)+"?gateway=ndhk", nil); r.Status != http.StatusForbidden {
			t.Errorf("delete without CSRF = %d", r.Status)
		}
		// mail kept in the outbox (no SMTP): sent → 200
		if r := c.Do(http.MethodDelete, "/api/cc/"+tok["token"].(string)+"?gateway=ndhk", nil); r.Status != http.StatusOK {
			t.Errorf("delete = %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodDelete, "/api/cc/"+tok["token"].(string)+"?gateway=ndhk", nil); r.Status != http.StatusNotFound {
			t.Errorf("second delete = %d", r.Status)
		}
		// the gateway forgot the token
		if r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok["token"], "currency": "JPY"}); r.Status != http.StatusBadRequest {
			t.Errorf("register a deleted token = %d", r.Status)
		}
		// the expired demo card can be deleted (unknown at the gateway)
		if r := c.Do(http.MethodDelete, "/api/cc/tok_demo_expired_visa?gateway=ndhk", nil); r.Status != http.StatusOK {
			t.Errorf("delete expired = %d %s", r.Status, r.Body)
		}
	})
}

func TestPaymentAvailability(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		var a struct {
			CreditCard       []string
			OtherPayment     []string
			ConvenienceStore bool
		}
		c.Get("/api/payment_availability?currency=JPY&productType=peachpoints").JSON(t, &a)
		if !a.ConvenienceStore || !containsAll(a.OtherPayment, "paypay", "rakuten_pay") || a.CreditCard[0] != "visa" {
			t.Errorf("JPY: %+v", a)
		}
		c.Get("/api/payment_availability?currency=CNY").JSON(t, &a)
		if a.ConvenienceStore || !containsAll(a.OtherPayment, "wechat", "alipay") {
			t.Errorf("CNY: %+v", a)
		}
		if r := c.Get("/api/payment_availability?currency=EUR"); r.Status != http.StatusBadRequest {
			t.Errorf("EUR = %d", r.Status)
		}
		if r := c.Get("/api/payment_availability?currency=JPY&productType=nothing"); r.Status != http.StatusNotFound {
			t.Errorf("unknown product = %d", r.Status)
		}
	})
}

func TestPurchaseWithSavedCard(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		visa := savedCard(t, c, "visa")
		body := cardBody(visa["token"].(string), 5000)

		// validate: field errors of the product and of the payment together
		bad := map[string]any{"amount": 5, "paymentMethod": "bitcoin"}
		r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", bad)
		if r.Status != http.StatusBadRequest || !contains(string(r.Body), "amount") || !contains(string(r.Body), "paymentMethod") {
			t.Fatalf("validate bad = %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", []byte(`[1,2]`)); r.Status != http.StatusBadRequest {
			t.Errorf("validate array = %d", r.Status)
		}
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", body); r.Status != http.StatusOK {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		// a product nobody registered
		if r := c.Do(http.MethodPost, "/api/gogo_pass/buy/validate", body); r.Status != http.StatusNotFound && r.Status != http.StatusBadRequest {
			t.Errorf("gogo_pass validate = %d", r.Status)
		}
		noReq := cardBody(visa["token"].(string), 5000)
		delete(noReq, "requestId")
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy", noReq); r.Status != http.StatusBadRequest {
			t.Errorf("buy without requestId = %d", r.Status)
		}

		p := buy(t, c, body)
		// the same requestId answers the same process; another body under it is refused
		if again := buy(t, c, body); again.PaymentProcessID != p.PaymentProcessID {
			t.Errorf("same requestId made a second process")
		}
		changed := map[string]any{}
		for k, v := range body {
			changed[k] = v
		}
		changed["amount"] = 6000
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy", changed); r.Status != http.StatusConflict {
			t.Errorf("reused requestId = %d", r.Status)
		}
		// another member's process is not found
		c2 := env.Member2(t)
		if r := c2.Do(http.MethodPost, "/api/peachpoints/buy/"+p.PaymentProcessID+"/continue", nil); r.Status != http.StatusNotFound {
			t.Errorf("member 2 continue = %d", r.Status)
		}
		if r := c2.Get("/api/payment_processes/" + p.PaymentProcessID + "/status"); r.Status != http.StatusNotFound {
			t.Errorf("member 2 status = %d", r.Status)
		}
		nc := env.Member(t)
		nc.NoCSRF = true
		if r := nc.Do(http.MethodPost, "/api/peachpoints/buy/"+p.PaymentProcessID+"/continue", nil); r.Status != http.StatusForbidden {
			t.Errorf("continue without CSRF = %d", r.Status)
		}

		done := cont(t, c, p.PaymentProcessID)
		if done.Status != "settled" || env.goodsRows(t, p.PaymentProcessID) != 1 {
			t.Fatalf("continue: %+v, rows %d", done, env.goodsRows(t, p.PaymentProcessID))
		}
		// the secret is shown once, the goods every time
		s1 := status(t, c, p.PaymentProcessID)
		s2 := decodeProcess(t, c.Get("/api/payment_processes/"+p.PaymentProcessID+"/status"))
		if string(s1.Secret) != `{"pin":"4321"}` || s2.Secret != nil || s2.Goods == nil {
			t.Errorf("secret %s then %s, goods %s", s1.Secret, s2.Secret, s2.Goods)
		}
		// a double click after the fact: the same answer, nothing moves
		if again := cont(t, c, p.PaymentProcessID); again.Status != "settled" {
			t.Errorf("second continue: %+v", again)
		}
		if env.goods.grants.Load() != 1 || env.goods.notifies.Load() != 1 {
			t.Errorf("grants %d notifies %d", env.goods.grants.Load(), env.goods.notifies.Load())
		}
		// another member's saved card cannot pay
		jcb := savedCard(t, c2, "jcb")
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy", cardBody(jcb["token"].(string), 5000)); r.Status != http.StatusNotFound {
			t.Errorf("paying with member 2's card = %d %s", r.Status, r.Body)
		}
		// the expired card is refused; a non-JPY card does not pay yen
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", cardBody("tok_demo_expired_visa", 5000)); r.Status != http.StatusBadRequest {
			t.Errorf("expired card = %d", r.Status)
		}
		mc := savedCard(t, c, "mastercard")
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", cardBody(mc["token"].(string), 5000)); r.Status != http.StatusBadRequest {
			t.Errorf("non-JPY card for yen = %d", r.Status)
		}
	})
}

func TestPurchaseDoubleContinueConcurrent(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		p := buy(t, c, cardBody(savedCard(t, c, "visa")["token"].(string), 3000))
		var wg sync.WaitGroup
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.Do(http.MethodPost, "/api/peachpoints/buy/"+p.PaymentProcessID+"/continue", nil)
			}()
		}
		wg.Wait()
		st := status(t, c, p.PaymentProcessID)
		if st.Status != "settled" || env.goodsRows(t, "") != 1 || env.goods.grants.Load() != 1 {
			t.Fatalf("status %s, rows %d", st.Status, env.goodsRows(t, ""))
		}
		pays, err := env.App.Gateway.Sandbox.PaymentsByReference(context.Background(), p.PaymentProcessID, "")
		if err != nil || len(pays) != 1 {
			t.Fatalf("gateway payments for the process: %d %v", len(pays), err)
		}
	})
}

func TestPurchaseSecondTab(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		tok := savedCard(t, c, "visa")["token"].(string)
		a := buy(t, c, cardBody(tok, 3000))
		b := buy(t, c, cardBody(tok, 4000)) // the second window's order replaces the first
		r := c.Do(http.MethodPost, "/api/peachpoints/buy/"+a.PaymentProcessID+"/continue", nil)
		if r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "payment_multiple_windows" {
			t.Fatalf("first window continue = %d %s", r.Status, r.Body)
		}
		// the first window's order names the order that replaced it, for
		// its page to say so and link to that payment's result
		if st := status(t, c, a.PaymentProcessID); st.Status != "expired" || st.FailureCode != "superseded" ||
			st.ReplacedBy == nil || st.ReplacedBy.PaymentProcessID != b.PaymentProcessID || st.ReplacedBy.ProductType != "peachpoints" {
			t.Fatalf("replaced order: %+v %+v", st, st.ReplacedBy)
		}
		if got := cont(t, c, b.PaymentProcessID); got.Status != "settled" {
			t.Fatalf("second window: %+v", got)
		}
		if st := status(t, c, b.PaymentProcessID); st.ReplacedBy != nil {
			t.Fatalf("the order that replaced it names a replacement: %+v", st.ReplacedBy)
		}
		if env.goodsRows(t, "") != 1 {
			t.Errorf("rows %d", env.goodsRows(t, ""))
		}
	})
}

func TestPurchaseDeclined(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		for number, code := range map[string]string{
			"4000000000000002": "card_declined", "4000000000009995": "insufficient_funds", "4000000000000069": "expired_card",
		} {
			tok := env.Tokenize(t, number, "123")["token"].(string)
			p := buy(t, c, cardBody(tok, 2000))
			got := cont(t, c, p.PaymentProcessID)
			if got.Status != "failed" || got.FailureCode != code {
				t.Errorf("%s: %+v", number, got)
			}
		}
		if env.goodsRows(t, "") != 0 {
			t.Errorf("declined cards granted goods")
		}
		// a failed process does not block the next purchase
		p := buy(t, c, cardBody(savedCard(t, c, "visa")["token"].(string), 2000))
		if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" {
			t.Errorf("after declines: %+v", got)
		}
	})
}

// TestPurchaseChallengeAndWebhooks: the challenge card waits for the
// member's step; meanwhile a new purchase is blocked. The
// webhook arrives before the member's browser is back, is replayed, and
// races the status poll of the return page: one grant.
func TestPurchaseChallengeAndWebhooks(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		tok := env.Tokenize(t, "4000000000003220", "123")["token"].(string)
		p := buy(t, c, cardBody(tok, 7000))
		got := cont(t, c, p.PaymentProcessID)
		if got.Status != "pending" || got.NextAction == nil || !contains(got.NextAction.URL, "/gateway/challenge/") {
			t.Fatalf("challenge: %+v", got)
		}
		// pending blocks a new purchase, and /api/cc/pending says so
		r := c.Do(http.MethodPost, "/api/peachpoints/buy", cardBody(savedCard(t, c, "visa")["token"].(string), 1000))
		if r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "payment_pending" ||
			!contains(r.Map(t)["message"].(string), "Pending payments") {
			t.Fatalf("buy while pending = %d %s", r.Status, r.Body)
		}
		if pend := c.Get("/api/cc/pending").Map(t); pend["pending"] != true || pend["paymentProcessId"] != p.PaymentProcessID {
			t.Errorf("pending: %v", pend)
		}
		gpID := env.gatewayPaymentID(t, p.PaymentProcessID)
		if _, err := env.App.Gateway.Sandbox.CustomerStep(context.Background(), gpID, true); err != nil {
			t.Fatal(err)
		}
		// the webhook first (the browser is still on its way back)
		env.deliver(t)
		// replay a captured event by hand: once only
		pay, _ := env.App.Gateway.Sandbox.Payment(context.Background(), gpID, "")
		ev, _ := json.Marshal(map[string]any{"id": "evt_replay_" + p.PaymentProcessID, "type": "payment.captured",
			"created": env.Clock.Now().Unix(), "data": map[string]any{"payment": pay}})
		for range 3 {
			if code := env.webhook(t, ev, env.Clock.Now()); code != http.StatusOK {
				t.Fatalf("webhook = %d", code)
			}
		}
		// the return page polls
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() { defer wg.Done(); c.Get("/api/peachpoints/buy/" + p.PaymentProcessID + "/status") }()
		}
		wg.Wait()
		if st := status(t, c, p.PaymentProcessID); st.Status != "settled" {
			t.Fatalf("after challenge: %+v", st)
		}
		if env.goodsRows(t, "") != 1 || env.goods.grants.Load() != 1 {
			t.Fatalf("grants %d", env.goods.grants.Load())
		}
		// signature and timestamp are checked
		if code := env.webhook(t, ev, env.Clock.Now().Add(-6*time.Minute)); code != http.StatusUnauthorized {
			t.Errorf("stale webhook = %d", code)
		}
		if code := env.webhook(t, ev, env.Clock.Now().Add(6*time.Minute)); code != http.StatusUnauthorized {
			t.Errorf("webhook from 6 minutes ahead = %d", code)
		}
		if n := countLogLines(env.Log.String(), "WARN", "payment: webhook signature refused", "timestamp more than the tolerance"); n != 2 {
			t.Errorf("%d WARN lines for the two stale signatures, want 2", n)
		}
		// a well-signed body that is no event is malformed, not a bad signature
		for _, body := range []string{`{"id":`, `[1]`} {
			req, _ := http.NewRequest(http.MethodPost, env.Server.URL+"/webhooks/gateway", strings.NewReader(body))
			req.Header.Set("Gateway-Signature", payment.Sign([]byte(env.App.Gateway.WebhookSecret), []byte(body), env.Clock.Now()))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			answer, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(answer), "malformed") {
				t.Errorf("malformed %s: %d %s", body, resp.StatusCode, answer)
			}
		}
		bad := append([]byte{}, ev...)
		bad[len(bad)-2] = ' '
		req, _ := http.NewRequest(http.MethodPost, env.Server.URL+"/webhooks/gateway", nil)
		req.Header.Set("Gateway-Signature", "t=1,v1=00")
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("unsigned webhook: %v %v", resp.StatusCode, err)
		}
		if n := countLogLines(env.Log.String(), "WARN", "payment: webhook signature refused", "no valid signature"); n != 1 {
			t.Errorf("%d WARN lines for the bad signature, want 1", n)
		}
		if pend := c.Get("/api/cc/pending").Map(t); pend["pending"] != false {
			t.Errorf("pending after settlement: %v", pend)
		}
	})
}

func TestPurchaseChallengeFailed(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		tok := env.Tokenize(t, "4000000000003220", "123")["token"].(string)
		p := buy(t, c, cardBody(tok, 7000))
		cont(t, c, p.PaymentProcessID)
		if _, err := env.App.Gateway.Sandbox.CustomerStep(context.Background(), env.gatewayPaymentID(t, p.PaymentProcessID), false); err != nil {
			t.Fatal(err)
		}
		// no webhook delivered: the return page's status poll reconciles
		env.Clock.Advance(time.Minute)
		if st := status(t, c, p.PaymentProcessID); st.Status != "failed" || st.FailureCode != "authentication_failed" {
			t.Fatalf("challenge failed: %+v", st)
		}
		if env.goodsRows(t, "") != 0 {
			t.Error("goods for a failed challenge")
		}
	})
}

// TestPurchaseTimeoutReconciled: card 0119's authorise answers after the
// engine's timeout; the engine never authorises again under a new key and
// settles from a status query.
func TestPurchaseTimeoutReconciled(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		tok := env.Tokenize(t, "4000000000000119", "123")["token"].(string)
		p := buy(t, c, cardBody(tok, 9000))
		got := cont(t, c, p.PaymentProcessID)
		if got.Status != "pending" {
			t.Fatalf("after timeout: %+v", got)
		}
		// No wait for the held answer: the sandbox records the authorisation
		// before it holds the answer back, so the status query finds it.
		env.Clock.Advance(5 * time.Second)
		if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		st := status(t, c, p.PaymentProcessID)
		if st.Status != "settled" || env.goodsRows(t, "") != 1 {
			t.Fatalf("reconciled: %+v rows %d", st, env.goodsRows(t, ""))
		}
		pays, _ := env.App.Gateway.Sandbox.PaymentsByReference(context.Background(), p.PaymentProcessID, "")
		if len(pays) != 1 || pays[0].Status != "captured" || pays[0].Amount != 9000 {
			t.Fatalf("gateway payments: %+v", pays)
		}
	})
}

// TestPurchaseExpiry: an unpaid QR payment expires after 30 minutes and a
// late settlement at the gateway is refunded; no goods.
func TestPurchaseExpiry(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		body := map[string]any{"amount": 4000, "currencyCode": "JPY", "paymentMethod": "otherPayment",
			"otherPaymentType": "paypay", "requestId": newRequestID()}
		p := buy(t, c, body)
		got := cont(t, c, p.PaymentProcessID)
		if got.Status != "pending" || got.NextAction == nil || !contains(got.NextAction.URL, "/gateway/pay/") {
			t.Fatalf("QR: %+v", got)
		}
		env.Clock.Advance(31 * time.Minute)
		if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		c = env.Member(t) // the session timed out meanwhile
		if st := status(t, c, p.PaymentProcessID); st.Status != "expired" {
			t.Fatalf("after 31 minutes: %+v", st)
		}
		// the customer pays late (the gateway has not expired it yet)
		gpID := env.gatewayPaymentID(t, p.PaymentProcessID)
		if _, err := env.App.Gateway.Sandbox.Settle(context.Background(), gpID); err != nil {
			t.Fatal(err)
		}
		env.deliver(t)
		st := status(t, c, p.PaymentProcessID)
		pay, _ := env.App.Gateway.Sandbox.Payment(context.Background(), gpID, "")
		if st.Status != "expired" || st.RefundedAmount != 4000 || pay.RefundedAmount != 4000 || env.goodsRows(t, "") != 0 {
			t.Fatalf("late settlement: %+v, gateway refunded %d, rows %d", st, pay.RefundedAmount, env.goodsRows(t, ""))
		}
		// a new purchase is possible again
		buy(t, c, cardBody(savedCard(t, c, "visa")["token"].(string), 1000))
	})
}

func TestPurchaseNewCardSaved(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		tok := env.Tokenize(t, "3530111333300000", "123")["token"].(string)
		body := cardBody(tok, 2500)
		body["saveCard"] = true
		p := buy(t, c, body)
		if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" {
			t.Fatalf("%+v", got)
		}
		card := savedCard(t, c, "jcb")
		if card["token"] != tok || card["creditCardType"] != "ndhk_jcb" {
			t.Errorf("saved: %v", card)
		}
	})
}

// TestCardMails: the register and delete mails go out over SMTP in the
// member's language; with the SMTP server down the delete still succeeds
// and answers 204 (mail not sent).
func TestCardMails(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		c := env.Member(t)
		c.Lang = "jp"
		tok := env.Tokenize(t, "5555555555554444", "123")["token"].(string)
		if r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok, "currency": "JPY"}); r.Status != http.StatusOK || r.Map(t)["mailSent"] != true {
			t.Fatalf("register = %d %s", r.Status, r.Body)
		}
		d := srv.WaitFor(apitest.DemoEmail).Decode(t)
		if d.Subject != "クレジットカードが登録されました" || !contains(string(d.Parts["text/plain"]), "末尾4444のMastercardカード") {
			t.Errorf("register mail: %q %q", d.Subject, d.Parts["text/plain"])
		}
		n := len(srv.Messages())
		c.Lang = "th"
		if r := c.Do(http.MethodDelete, "/api/cc/"+tok+"?gateway=ndhk", nil); r.Status != http.StatusOK {
			t.Fatalf("delete = %d %s", r.Status, r.Body)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(srv.Messages()) == n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		msgs := srv.Messages()
		if len(msgs) == n {
			t.Fatal("no delete mail")
		}
		if d := msgs[len(msgs)-1].Decode(t); d.Subject != "ลบบัตรเครดิตแล้ว" || !contains(string(d.Parts["text/plain"]), "4444") {
			t.Errorf("delete mail: %q", d.Subject)
		}
		// SMTP down: deleted, mail not sent → 204
		tok2 := env.Tokenize(t, "3530111333300000", "123")["token"].(string)
		if r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok2, "currency": "JPY"}); r.Status != http.StatusOK {
			t.Fatalf("register 2 = %d", r.Status)
		}
		srv.Stop()
		if r := c.Do(http.MethodDelete, "/api/cc/"+tok2+"?gateway=ndhk", nil); r.Status != http.StatusNoContent {
			t.Errorf("delete with SMTP down = %d %s", r.Status, r.Body)
		}
		var l struct{ Creditcards []map[string]any }
		c.Get("/api/cc").JSON(t, &l)
		for _, card := range l.Creditcards {
			if card["token"] == tok2 {
				t.Error("card kept after a delete whose mail failed")
			}
		}
	})
}

// TestWebhookWhileLeased: while a request or a worker holds a pending
// process's lease, an event that asks for a gateway call (authorised: the
// capture is the holder's) is not acknowledged (409, sent again later),
// and an event that ends the process without one (captured) is applied at
// once, granting once, and not sent again.
func TestWebhookWhileLeased(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		lease := func(id string) {
			t.Helper()
			if _, err := env.App.DB.Exec(`UPDATE payment_processes SET lease_owner = 'another', lease_until = $1 WHERE id = $2`,
				env.Clock.Now().Add(time.Minute).UnixMilli(), id); err != nil {
				t.Fatal(err)
			}
		}
		undelivered := func() int {
			t.Helper()
			var n int
			if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM gw_events WHERE delivered_at IS NULL`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		cases := []struct {
			name, event    string
			body           map[string]any
			status         string
			grants, queued int
		}{
			{"authorised after the challenge: the holder captures", "payment.authorized",
				cardBody(env.Tokenize(t, "4000000000003220", "123")["token"].(string), 3000), "pending", 0, 1},
			{"QR paid: settled at once", "payment.captured",
				map[string]any{"amount": 3000, "currencyCode": "JPY", "paymentMethod": "otherPayment", "otherPaymentType": "paypay"}, "settled", 1, 0},
		}
		for _, tc := range cases {
			tc.body["requestId"] = newRequestID()
			p := buy(t, c, tc.body)
			if got := cont(t, c, p.PaymentProcessID); got.Status != "pending" {
				t.Fatalf("%s: %+v", tc.name, got)
			}
			lease(p.PaymentProcessID)
			before := env.goods.grants.Load()
			if _, err := env.App.Gateway.Sandbox.CustomerStep(context.Background(), env.gatewayPaymentID(t, p.PaymentProcessID), true); err != nil {
				t.Fatal(err)
			}
			env.deliver(t)
			var st string
			if err := env.App.DB.QueryRow(`SELECT status FROM payment_processes WHERE id = $1`, p.PaymentProcessID).Scan(&st); err != nil {
				t.Fatal(err)
			}
			if st != tc.status || int(env.goods.grants.Load()-before) != tc.grants || env.goodsRows(t, p.PaymentProcessID) != tc.grants || undelivered() != tc.queued {
				t.Fatalf("%s: status %s, grants %d, undelivered events %d", tc.name, st, env.goods.grants.Load()-before, undelivered())
			}
			if tc.status == "pending" {
				// the holder is gone: its lease runs out and the worker captures
				env.Clock.Advance(2 * time.Minute)
				if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
				if s := status(t, c, p.PaymentProcessID); s.Status != "settled" || env.goodsRows(t, p.PaymentProcessID) != 1 {
					t.Fatalf("%s: after the lease: %+v", tc.name, s)
				}
				c = env.Member(t)
			}
		}
	})
}
