package gateway_test

import (
	"testing"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// TestVerifyToken: the zero-amount authorisation of a token before it is
// saved answers the test card's issuer: declined and expired cards fail,
// the others (short of funds included: no funds are asked) succeed. It
// needs the secret key and an Idempotency-Key; a repeat is the same answer.
func TestVerifyToken(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		for _, tc := range []struct{ number, status, code string }{
			{"4242424242424242", gateway.VerifySucceeded, ""},
			{"4000000000000002", gateway.VerifyFailed, gateway.FailDeclined},
			{"4000000000000069", gateway.VerifyFailed, gateway.FailExpiredCard},
			{"4000000000009995", gateway.VerifySucceeded, ""},
			{"4000000000003220", gateway.VerifySucceeded, ""},
		} {
			tok := g.tokenize(tc.number)
			key := newKey()
			r := g.do("POST", "/v1/tokens/"+tok+"/verify", nil, "Idempotency-Key", key)
			var v gateway.Verification
			r.JSON(t, &v)
			if r.Status != 200 || v.Token != tok || v.Status != tc.status || v.FailureCode != tc.code {
				t.Errorf("%s: %d %+v", tc.number, r.Status, v)
			}
			again := g.do("POST", "/v1/tokens/"+tok+"/verify", nil, "Idempotency-Key", key)
			if again.Status != 200 || string(again.Body) != string(r.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("%s: repeat %d %s", tc.number, again.Status, again.Body)
			}
		}
		tok := g.tokenize("4242424242424242")
		if r := g.do("POST", "/v1/tokens/"+tok+"/verify", nil); r.Status != 400 {
			t.Errorf("without an Idempotency-Key: %d %s", r.Status, r.Body)
		}
		if r := g.do("POST", "/v1/tokens/"+tok+"/verify", nil, "Idempotency-Key", newKey(), "Authorization", ""); r.Status != 401 {
			t.Errorf("without the secret key: %d", r.Status)
		}
		if r := g.do("POST", "/v1/tokens/tok_nope/verify", nil, "Idempotency-Key", newKey()); r.Status != 404 {
			t.Errorf("unknown token: %d %s", r.Status, r.Body)
		}
	})
}
