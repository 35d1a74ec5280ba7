package gateway_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// Every test card through tokenise → create → authorise
// (→ capture when authorised).
func TestTestCards(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		cases := []struct {
			number, brand, last4, status, failure string
		}{
			{"4242424242424242", "visa", "4242", "authorized", ""},
			{"4242 4242 4242 4242", "visa", "4242", "authorized", ""},
			{"5555555555554444", "mastercard", "4444", "authorized", ""},
			{"3530111333300000", "jcb", "0000", "authorized", ""},
			{"378282246310005", "amex", "0005", "authorized", ""},
			{"36227206271667", "diners", "1667", "authorized", ""},
			{"4000000000000002", "visa", "0002", "failed", "card_declined"},
			{"4000000000009995", "visa", "9995", "failed", "insufficient_funds"},
			{"4000000000000069", "visa", "0069", "failed", "expired_card"},
			{"4000000000003220", "visa", "3220", "requires_action", ""},
		}
		for _, c := range cases {
			tok := g.tokenize(c.number)
			r := g.do("GET", "/v1/tokens/"+tok, nil)
			var view gateway.Token
			r.JSON(t, &view)
			if r.Status != 200 || view.Brand != c.brand || view.Last4 != c.last4 || view.Gateway != "ndhk" || view.ExpirationDate != "30/12" ||
				view.HolderName != "TARO YAMADA" {
				t.Fatalf("%s: token view %d %+v", c.number, r.Status, view)
			}
			p := g.create("card", tok, 1200)
			if p.Status != "created" || p.Brand != c.brand || p.Last4 != c.last4 || p.Amount != 1200 || p.Currency != "JPY" {
				t.Fatalf("%s: created %+v", c.number, p)
			}
			p = g.action(p.ID, "authorize", nil, 200)
			if p.Status != c.status || p.FailureCode != c.failure {
				t.Fatalf("%s: authorised %s/%s, want %s/%s", c.number, p.Status, p.FailureCode, c.status, c.failure)
			}
			switch p.Status {
			case "authorized":
				if p.NextAction != nil {
					t.Errorf("%s: next action %+v", c.number, p.NextAction)
				}
				p = g.action(p.ID, "capture", nil, 200)
				if p.Status != "captured" {
					t.Fatalf("%s: capture → %s", c.number, p.Status)
				}
			case "requires_action":
				if p.NextAction == nil || p.NextAction.Type != "redirect" || p.NextAction.URL != g.URL+"/challenge/"+p.ID {
					t.Fatalf("%s: next action %+v", c.number, p.NextAction)
				}
				if p.ExpiresAt == nil || !p.ExpiresAt.Equal(apitest.Start.Add(30*time.Minute)) {
					t.Fatalf("expiresAt %v", p.ExpiresAt)
				}
				g.action(p.ID, "capture", nil, 409)
			case "failed":
				g.action(p.ID, "capture", nil, 409)
			}
			if got := g.get(p.ID); got.Status != p.Status {
				t.Fatalf("%s: get says %s, want %s", c.number, got.Status, p.Status)
			}
		}
	})
}

// Card 0119: the authorisation is recorded at once but answered only after
// the client gave up; a status query shows it.
func TestSlowAuthorize(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine, func(o *gateway.Options) { o.SlowAuthorize = 2 * time.Second })
		p := g.create("card", g.tokenize("4000000000000119"), 5000)
		req, _ := http.NewRequest("POST", g.URL+"/v1/payments/"+p.ID+"/authorize", nil)
		req.Header.Set("Authorization", "Bearer "+g.Key)
		req.Header.Set("Idempotency-Key", "slow-1")
		client := &http.Client{Timeout: 300 * time.Millisecond}
		start := time.Now()
		_, err := client.Do(req)
		if err == nil || !strings.Contains(err.Error(), "Timeout") {
			t.Fatalf("want a client timeout, got %v", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("timeout took %v", d)
		}
		// recorded before the slow answer, which a loaded machine may
		// reach after the client's 300 ms: well within the 2 s
		for until := time.Now().Add(1500 * time.Millisecond); ; time.Sleep(20 * time.Millisecond) {
			got := g.get(p.ID)
			if got.Status == "authorized" {
				break
			}
			if time.Now().After(until) {
				t.Fatalf("status query: %s, want authorized", got.Status)
			}
		}
		// A retry with the same key answers the recorded result at once and
		// moves nothing again.
		start = time.Now()
		r := g.do("POST", "/v1/payments/"+p.ID+"/authorize", nil, "Idempotency-Key", "slow-1")
		if r.Status != 200 || r.Header.Get("Idempotent-Replayed") != "true" || time.Since(start) > time.Second {
			t.Fatalf("retry: %d %s %v", r.Status, r.Body, time.Since(start))
		}
		// A patient client gets the answer after the configured delay.
		p2 := g.create("card", g.tokenize("4000000000000119"), 5000)
		start = time.Now()
		got := g.action(p2.ID, "authorize", nil, 200)
		if got.Status != "authorized" || time.Since(start) < 2*time.Second {
			t.Fatalf("patient client: %s after %v", got.Status, time.Since(start))
		}
	})
}

func TestServerCallsNeedTheKey(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		tok := g.tokenize("4242424242424242")
		for _, auth := range []string{"", "Bearer wrong", "Basic " + g.Key, g.Key} {
			for _, c := range []struct{ method, path string }{
				{"GET", "/v1/tokens/" + tok}, {"DELETE", "/v1/tokens/" + tok}, {"POST", "/v1/payments"},
				{"GET", "/v1/payments?reference=x"}, {"GET", "/v1/payments/pay_x"}, {"POST", "/v1/payments/pay_x/authorize"},
			} {
				r := g.do(c.method, c.path, map[string]any{}, "Authorization", auth, "Idempotency-Key", "x")
				if r.Status != 401 {
					t.Fatalf("%s %s with %q: %d", c.method, c.path, auth, r.Status)
				}
			}
		}
		if r := g.do("GET", "/v1/tokens/"+tok, nil); r.Status != 200 {
			t.Fatalf("token still there: %d", r.Status)
		}
	})
}

func TestKeysKeptAcrossRestarts(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		g2 := startOn(t, g.DB, g.Clock)
		if g.G.Keys() != g2.G.Keys() || !strings.HasPrefix(g.Key, "sk_test_") || !strings.HasPrefix(g.G.Keys().WebhookSecret, "whsec_") {
			t.Fatalf("keys differ or malformed: %+v %+v", g.G.Keys(), g2.G.Keys())
		}
		g3 := startOn(t, g.DB, g.Clock, func(o *gateway.Options) { o.SecretKey = "sk_test_given" })
		if g3.Key != "sk_test_given" || g3.G.Keys().WebhookSecret != g.G.Keys().WebhookSecret {
			t.Fatalf("given key: %+v", g3.G.Keys())
		}
		// A given key stays outside the database: not written to gw_keys,
		// and an instance without it still has the stored one.
		g4 := startOn(t, g.DB, g.Clock, func(o *gateway.Options) { o.WebhookSecret = "whsec_given" })
		if g4.G.Keys().WebhookSecret != "whsec_given" {
			t.Fatalf("given webhook secret: %+v", g4.G.Keys())
		}
		var n int
		if err := g.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM gw_keys WHERE value IN ('whsec_given', 'sk_test_given')`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("given keys written to gw_keys: %d %v", n, err)
		}
		if g5 := startOn(t, g.DB, g.Clock); g5.G.Keys() != g.G.Keys() {
			t.Fatalf("stored keys changed: %+v, was %+v", g5.G.Keys(), g.G.Keys())
		}
	})
}

// A card tokenised while valid that has expired since is declined.
func TestSavedCardExpiredSince(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		r := g.do("POST", "/v1/tokens", map[string]string{"cardNumber": "4242424242424242", "expirationDate": "26/11", "cvv": "123", "holderName": "A"},
			"Authorization", "")
		var tok gateway.Token
		r.JSON(t, &tok)
		if r.Status != 200 {
			t.Fatalf("a card valid to the end of this month: %d %s", r.Status, r.Body)
		}
		g.Clock.Advance(11 * 24 * time.Hour) // into December 2026
		p := g.action(g.create("card", tok.Token, 100).ID, "authorize", nil, 200)
		if p.Status != "failed" || p.FailureCode != "expired_card" {
			t.Fatalf("expired saved card: %s/%s", p.Status, p.FailureCode)
		}
	})
}

// Authorise with {"capture": "automatic"}: a card that needs no customer
// step is captured in the same call with one event (payment.captured); a
// challenge, a decline and other methods behave as without it.
func TestAuthorizeCaptureAutomatic(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		auto := map[string]string{"capture": "automatic"}
		cases := []struct {
			name, method, number string
			body                 any
			status, failure      string
			events               []string
		}{
			{"card, automatic", "card", "4242424242424242", auto, "captured", "", []string{"payment.captured"}},
			{"card, manual", "card", "4242424242424242", map[string]string{"capture": "manual"}, "authorized", "", []string{"payment.authorized"}},
			{"card, no body", "card", "4242424242424242", nil, "authorized", "", []string{"payment.authorized"}},
			{"challenge stays for the customer", "card", "4000000000003220", auto, "requires_action", "", nil},
			{"declined", "card", "4000000000000002", auto, "failed", "card_declined", []string{"payment.failed"}},
			{"QR waits for the customer", "paypay", "", auto, "pending", "", nil},
		}
		for _, c := range cases {
			tok := ""
			if c.number != "" {
				tok = g.tokenize(c.number)
			}
			p := g.action(g.create(c.method, tok, 1500).ID, "authorize", c.body, 200)
			if p.Status != c.status || p.FailureCode != c.failure {
				t.Fatalf("%s: %s/%s, want %s/%s", c.name, p.Status, p.FailureCode, c.status, c.failure)
			}
			rows, err := g.DB.Query(`SELECT type FROM gw_events WHERE payment_id = $1 ORDER BY created_at`, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			var events []string
			for rows.Next() {
				var typ string
				_ = rows.Scan(&typ)
				events = append(events, typ)
			}
			rows.Close()
			if strings.Join(events, ",") != strings.Join(c.events, ",") {
				t.Errorf("%s: events %v, want %v", c.name, events, c.events)
			}
			if c.status == "captured" {
				g.action(p.ID, "capture", nil, 409) // nothing left to capture
				if r := g.action(p.ID, "refund", map[string]int64{"amount": 1500}, 200); r.Status != "refunded" {
					t.Errorf("%s: refund of an automatic capture: %s", c.name, r.Status)
				}
			}
		}
		// an unknown capture mode is a field error and moves nothing
		p := g.create("card", g.tokenize("4242424242424242"), 100)
		if r := g.post("/v1/payments/"+p.ID+"/authorize", map[string]string{"capture": "later"}); r.Status != 400 ||
			!strings.Contains(string(r.Body), `"capture"`) {
			t.Fatalf("capture later: %d %s", r.Status, r.Body)
		}
		if got := g.get(p.ID); got.Status != "created" {
			t.Fatalf("after a refused authorise: %s", got.Status)
		}
	})
}
