package gateway_test

import (
	"encoding/json"
	"sync"
	"testing"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

func TestIdempotency(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		tok := g.tokenize("4242424242424242")
		body := map[string]any{"amount": 1000, "currency": "JPY", "method": "card", "token": tok, "reference": "ref-idem"}

		first := g.do("POST", "/v1/payments", body, "Idempotency-Key", "create-1")
		again := g.do("POST", "/v1/payments", body, "Idempotency-Key", "create-1")
		if first.Status != 200 || again.Status != 200 || string(first.Body) != string(again.Body) ||
			again.Header.Get("Idempotent-Replayed") != "true" || first.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("repeat: %d %s / %d %s", first.Status, first.Body, again.Status, again.Body)
		}
		var list struct{ Payments []gateway.Payment }
		g.do("GET", "/v1/payments?reference=ref-idem", nil).JSON(t, &list)
		if len(list.Payments) != 1 {
			t.Fatalf("%d payments for one key", len(list.Payments))
		}
		// Same key, another body: 409, nothing created.
		body["amount"] = 2000
		if r := g.do("POST", "/v1/payments", body, "Idempotency-Key", "create-1"); r.Status != 409 || !json.Valid(r.Body) {
			t.Fatalf("other body: %d %s", r.Status, r.Body)
		}
		var p gateway.Payment
		first.JSON(t, &p)
		// Same key on another call: 409.
		if r := g.do("POST", "/v1/payments/"+p.ID+"/authorize", nil, "Idempotency-Key", "create-1"); r.Status != 409 {
			t.Fatalf("key on another call: %d %s", r.Status, r.Body)
		}
		// No key: 400.
		if r := g.do("POST", "/v1/payments/"+p.ID+"/authorize", nil); r.Status != 400 {
			t.Fatalf("no key: %d %s", r.Status, r.Body)
		}
		// Authorise and capture repeated under their keys answer the same;
		// under a new key they are refused (the money moved once).
		a1 := g.do("POST", "/v1/payments/"+p.ID+"/authorize", nil, "Idempotency-Key", "auth-1")
		a2 := g.do("POST", "/v1/payments/"+p.ID+"/authorize", nil, "Idempotency-Key", "auth-1")
		if a1.Status != 200 || string(a1.Body) != string(a2.Body) {
			t.Fatalf("authorize repeat: %s / %s", a1.Body, a2.Body)
		}
		if r := g.do("POST", "/v1/payments/"+p.ID+"/authorize", nil, "Idempotency-Key", "auth-2"); r.Status != 409 {
			t.Fatalf("second authorise: %d", r.Status)
		}
		c1 := g.do("POST", "/v1/payments/"+p.ID+"/capture", nil, "Idempotency-Key", "cap-1")
		c2 := g.do("POST", "/v1/payments/"+p.ID+"/capture", nil, "Idempotency-Key", "cap-1")
		if c1.Status != 200 || string(c1.Body) != string(c2.Body) {
			t.Fatalf("capture repeat: %s / %s", c1.Body, c2.Body)
		}
		// A failed call does not burn its key: it can be retried once fixed.
		r := g.do("POST", "/v1/payments", map[string]any{"amount": 0, "currency": "JP", "method": "cash"}, "Idempotency-Key", "bad-1")
		var ve struct{ ValidationErrors map[string][]string }
		r.JSON(t, &ve)
		if r.Status != 400 || ve.ValidationErrors["amount"] == nil || ve.ValidationErrors["currency"] == nil || ve.ValidationErrors["method"] == nil {
			t.Fatalf("bad create: %d %s", r.Status, r.Body)
		}
		if r := g.do("POST", "/v1/payments", map[string]any{"amount": 10, "currency": "JPY", "method": "paypay"}, "Idempotency-Key", "bad-1"); r.Status != 200 {
			t.Fatalf("retry after fix: %d %s", r.Status, r.Body)
		}
	})
}

// Concurrent calls with one key: one payment, one answer for all.
func TestIdempotencyConcurrent(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		body := map[string]any{"amount": 1000, "currency": "JPY", "method": "konbini", "reference": "ref-conc"}
		var wg sync.WaitGroup
		bodies := make([]string, 8)
		for i := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := g.do("POST", "/v1/payments", body, "Idempotency-Key", "conc-1")
				if r.Status != 200 {
					t.Errorf("call %d: %d %s", i, r.Status, r.Body)
				}
				bodies[i] = string(r.Body)
			}()
		}
		wg.Wait()
		for _, b := range bodies[1:] {
			if b != bodies[0] {
				t.Fatalf("different answers: %s / %s", bodies[0], b)
			}
		}
		var list struct{ Payments []gateway.Payment }
		g.do("GET", "/v1/payments?reference=ref-conc", nil).JSON(t, &list)
		if len(list.Payments) != 1 {
			t.Fatalf("%d payments", len(list.Payments))
		}
	})
}

func TestRefunds(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		p := g.create("card", g.tokenize("5555555555554444"), 1000)
		g.action(p.ID, "refund", map[string]any{"amount": 100}, 409) // not captured yet
		g.action(p.ID, "authorize", nil, 200)
		g.action(p.ID, "refund", map[string]any{"amount": 100}, 409) // authorised, not captured
		g.action(p.ID, "capture", nil, 200)
		g.action(p.ID, "refund", map[string]any{"amount": 0}, 400)
		g.action(p.ID, "refund", map[string]any{"amount": 1001}, 400)
		if got := g.action(p.ID, "refund", map[string]any{"amount": 400}, 200); got.Status != "refunded" || got.RefundedAmount != 400 {
			t.Fatalf("first refund: %+v", got)
		}
		// Repeating a refund under its key refunds once.
		r1 := g.do("POST", "/v1/payments/"+p.ID+"/refund", map[string]any{"amount": 500}, "Idempotency-Key", "ref-500")
		r2 := g.do("POST", "/v1/payments/"+p.ID+"/refund", map[string]any{"amount": 500}, "Idempotency-Key", "ref-500")
		if r1.Status != 200 || string(r1.Body) != string(r2.Body) || g.get(p.ID).RefundedAmount != 900 {
			t.Fatalf("repeat refund: %s / %s, refunded %d", r1.Body, r2.Body, g.get(p.ID).RefundedAmount)
		}
		r := g.post("/v1/payments/"+p.ID+"/refund", map[string]any{"amount": 101})
		if r.Status != 400 || !json.Valid(r.Body) {
			t.Fatalf("beyond captured: %d %s", r.Status, r.Body)
		}
		if got := g.action(p.ID, "refund", map[string]any{"amount": 100}, 200); got.RefundedAmount != 1000 {
			t.Fatalf("full: %+v", got)
		}
		g.action(p.ID, "refund", map[string]any{"amount": 1}, 400)
		// A QR payment paid by the customer is refundable too.
		q := g.action(g.create("paypay", "", 700).ID, "authorize", nil, 200)
		if _, err := g.G.Settle(t.Context(), q.ID); err != nil {
			t.Fatal(err)
		}
		if got := g.action(q.ID, "refund", map[string]any{"amount": 700}, 200); got.Status != "refunded" {
			t.Fatalf("qr refund: %+v", got)
		}
		g.action("pay_nope", "refund", map[string]any{"amount": 1}, 404)
	})
}

func TestTokens(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		// Browser call: no key needed, CORS open.
		r := g.do("OPTIONS", "/v1/tokens", nil, "Authorization", "", "Origin", "https://shop.example", "Access-Control-Request-Method", "POST")
		if r.Status != 204 || r.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("preflight: %d %v", r.Status, r.Header)
		}
		r = g.do("POST", "/v1/tokens", map[string]string{"cardNumber": "4242424242424241", "expirationDate": "20/01", "cvv": "12", "holderName": ""},
			"Authorization", "")
		var ve struct{ ValidationErrors map[string][]string }
		r.JSON(t, &ve)
		if r.Status != 400 || r.Header.Get("Access-Control-Allow-Origin") != "*" || ve.ValidationErrors["cardNumber"][0] != "luhn" ||
			ve.ValidationErrors["expirationDate"][0] != "expired" || ve.ValidationErrors["cvv"][0] != "length" ||
			ve.ValidationErrors["holderName"][0] != "required" {
			t.Fatalf("bad card: %d %s", r.Status, r.Body)
		}
		if r := g.do("POST", "/v1/tokens", []byte("{not json"), "Authorization", ""); r.Status != 400 {
			t.Fatalf("bad json: %d", r.Status)
		}
		tok := g.tokenize("3530111333300000")
		if r := g.do("DELETE", "/v1/tokens/"+tok, nil); r.Status != 204 {
			t.Fatalf("delete: %d", r.Status)
		}
		if r := g.do("DELETE", "/v1/tokens/"+tok, nil); r.Status != 404 {
			t.Fatalf("delete again: %d", r.Status)
		}
		if r := g.do("GET", "/v1/tokens/"+tok, nil); r.Status != 404 {
			t.Fatalf("get deleted: %d", r.Status)
		}
		// A deleted token cannot pay.
		r = g.post("/v1/payments", map[string]any{"amount": 10, "currency": "JPY", "method": "card", "token": tok})
		r.JSON(t, &ve)
		if r.Status != 400 || ve.ValidationErrors["token"][0] != "unknown" {
			t.Fatalf("pay with deleted token: %d %s", r.Status, r.Body)
		}
		// Unknown API paths and methods answer JSON.
		if r := g.do("GET", "/v1/nope", nil); r.Status != 404 || !json.Valid(r.Body) {
			t.Fatalf("unknown path: %d %s", r.Status, r.Body)
		}
		if r := g.do("PUT", "/v1/payments", nil); r.Status != 405 || !json.Valid(r.Body) {
			t.Fatalf("wrong method: %d %s", r.Status, r.Body)
		}
	})
}
