package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/store"
)

// TestRegisterCardVerifiedAtTheIssuer: a card is saved only after a
// zero-amount authorisation at the gateway (under an idempotency key); a
// declined card and one the issuer reports expired are refused with the
// reason in the member's language and not saved. A card short of funds
// passes (no funds are asked for), and a good card still saves.
func TestRegisterCardVerifiedAtTheIssuer(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		count := func() int {
			t.Helper()
			var n int
			if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM saved_cards`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := count()
		for _, tc := range []struct {
			number, lang, want string
		}{
			{"4000000000000002", "en", "The card issuer declined this card. Please use another card or contact your card issuer."},
			{"4000000000000069", "en", "The card issuer reports that this card has expired. Please check the expiry date or use another card."},
			{"4000000000000002", "jp", "カード会社がこのカードの利用を承認しませんでした。別のカードをご利用いただくか、カード会社にお問い合わせください。"},
			{"4000000000000069", "kr", "카드사에 따르면 이 카드는 유효기간이 만료되었습니다. 유효기간을 확인하시거나 다른 카드를 사용해 주세요."},
		} {
			tok := env.Tokenize(t, tc.number, "123")["token"].(string)
			c.Lang = tc.lang
			r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok, "gateway": "ndhk", "currency": "JPY"})
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: register = %d %s", tc.number, r.Status, r.Body)
			}
			if f := fieldErrors(t, r); len(f["token"]) != 1 || f["token"][0] != tc.want {
				t.Errorf("%s (%s): errors %v", tc.number, tc.lang, f)
			}
			// asked once per token, under its idempotency key: a repeat answers the same
			if r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok, "gateway": "ndhk", "currency": "JPY"}); r.Status != http.StatusBadRequest {
				t.Errorf("%s: repeat = %d", tc.number, r.Status)
			}
			var keys int
			if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM gw_idempotency WHERE idem_key = $1`, "cv_ndhk_"+tok).Scan(&keys); err != nil || keys != 1 {
				t.Errorf("%s: zero-amount authorisation keys %d %v", tc.number, keys, err)
			}
		}
		if n := count(); n != before {
			t.Fatalf("refused cards were saved: %d cards, had %d", n, before)
		}
		c.Lang = "en"
		for _, number := range []string{"4000000000009995", "4242424242424242"} {
			tok := env.Tokenize(t, number, "123")["token"].(string)
			r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok, "gateway": "ndhk", "currency": "JPY"})
			if r.Status != http.StatusOK {
				t.Fatalf("%s: register = %d %s", number, r.Status, r.Body)
			}
		}
		if n := count(); n != before+2 {
			t.Errorf("%d cards after two good ones, want %d", n, before+2)
		}
	})
}

// TestRegisterSameCardTwice: a card is saved once per currency scope. The
// same token again, or a new token for the same card (brand, last four,
// expiry), is refused with a message that names the card, and sends no
// second mail; the same card for the other scope is saved. A purchase that
// asks to save a card already saved pays with it and saves nothing more.
func TestRegisterSameCardTwice(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		c := env.Member(t)
		register := func(tok, currency string) *apitest.Response {
			return c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok, "gateway": "ndhk", "currency": currency})
		}
		visaCards := func() int {
			t.Helper()
			var l struct{ Creditcards []map[string]any }
			c.Get("/api/cc").JSON(t, &l)
			n := 0
			for _, card := range l.Creditcards {
				if card["cardNumber"] == "**** **** **** 4242" {
					n++
				}
			}
			return n
		}
		demoCards := visaCards() // the demo's own Visa 4242 expires a year later: another card
		tok := env.Tokenize(t, "4242424242424242", "123")["token"].(string)
		if r := register(tok, "JPY"); r.Status != http.StatusOK {
			t.Fatalf("register = %d %s", r.Status, r.Body)
		}
		srv.WaitFor(apitest.DemoEmail)
		mails := len(srv.Messages())
		tok2 := env.Tokenize(t, "4242 4242 4242 4242", "999")["token"].(string)
		for _, tc := range []struct{ name, tok, lang, want string }{
			{"same token", tok, "en", "This card (Visa ending 4242) is already saved for these payments."},
			{"same card, new token", tok2, "en", "This card (Visa ending 4242) is already saved for these payments."},
			{"same token, jp", tok, "jp", "このカード（末尾4242のVisa）は、この支払い用にすでに登録されています。"},
		} {
			c.Lang = tc.lang
			r := register(tc.tok, "JPY")
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: register = %d %s", tc.name, r.Status, r.Body)
			}
			if f := fieldErrors(t, r); len(f["token"]) != 1 || f["token"][0] != tc.want {
				t.Errorf("%s: errors %v", tc.name, f)
			}
		}
		c.Lang = "en"
		time.Sleep(200 * time.Millisecond)
		if n := len(srv.Messages()); n != mails {
			t.Errorf("%d mails after the refused repeats, want %d", n, mails)
		}
		if n := visaCards(); n != demoCards+1 {
			t.Fatalf("%d saved Visa 4242 cards, want %d", n, demoCards+1)
		}
		// the other scope is another choice of the member's
		if r := register(tok2, "KRW"); r.Status != http.StatusOK {
			t.Fatalf("register for other currencies = %d %s", r.Status, r.Body)
		}
		if n := visaCards(); n != demoCards+2 {
			t.Fatalf("%d saved Visa 4242 cards, want %d", n, demoCards+2)
		}
		// a purchase with a fresh token of the same card and saveCard
		tok3 := env.Tokenize(t, "4242424242424242", "123")["token"].(string)
		body := cardBody(tok3, 2500)
		body["saveCard"] = true
		p := buy(t, c, body)
		if got := cont(t, c, p.PaymentProcessID); got.Status != "settled" {
			t.Fatalf("%+v", got)
		}
		if n := visaCards(); n != demoCards+2 {
			t.Errorf("%d saved Visa 4242 cards after a purchase with saveCard, want %d", n, demoCards+2)
		}
	})
}
