package gateway_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// Browser tokenisation is limited per client address: a burst, then one
// per TokenEvery; over it a 429 with Retry-After (and CORS, so the page
// can read it), and nothing is stored.
func TestTokenizeRateLimited(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine, func(o *gateway.Options) { o.TokenBurst, o.TokenEvery = 3, time.Minute })
		card := map[string]string{"cardNumber": "4242424242424242", "expirationDate": "30/12", "cvv": "123", "holderName": "A"}
		tokens := func() int {
			t.Helper()
			var n int
			if err := g.DB.QueryRow(`SELECT COUNT(*) FROM gw_tokens`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for i := range 3 {
			if r := g.do("POST", "/v1/tokens", card, "Authorization", ""); r.Status != 200 {
				t.Fatalf("tokenisation %d within the burst: %d %s", i+1, r.Status, r.Body)
			}
		}
		r := g.do("POST", "/v1/tokens", card, "Authorization", "")
		if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "60" || r.Header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(string(r.Body), `"rate_limited"`) || tokens() != 3 {
			t.Fatalf("over the burst: %d %q %s, %d tokens", r.Status, r.Header.Get("Retry-After"), r.Body, tokens())
		}
		// invalid cards count too (card testing sends mostly bad numbers)
		g.Clock.Advance(time.Minute)
		bad := map[string]string{"cardNumber": "4242424242424241", "expirationDate": "30/12", "cvv": "123", "holderName": "A"}
		if r := g.do("POST", "/v1/tokens", bad, "Authorization", ""); r.Status != 400 {
			t.Fatalf("a bad card after a minute: %d", r.Status)
		}
		if r := g.do("POST", "/v1/tokens", card, "Authorization", ""); r.Status != http.StatusTooManyRequests {
			t.Fatalf("the bad card used the minute's allowance: %d", r.Status)
		}
		// server calls (with the key) are not limited by it
		if r := g.do("GET", "/v1/payments?reference=x", nil); r.Status != 200 {
			t.Fatalf("server call: %d", r.Status)
		}
	})
}
