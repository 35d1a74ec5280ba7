package httpapi

import (
	"encoding/json"
	"testing"

	"members/internal/api/paymentapi"
	"members/internal/payment"
)

// The fingerprint of a buy (same requestId, same body → same process) is
// the hash of the body without requestId. It was the body read as a map
// and written back with sorted keys; it is now the body written back from
// its generated type. For every body the API describes both are the same
// bytes, so a buy repeated across the change still finds its process.
func TestCanonicalBodyIsTheSortedKeyForm(t *testing.T) {
	sorted := func(body string) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "requestId")
		b, _ := json.Marshal(m)
		return string(b)
	}
	// split is a body's canonical form and its payment fields, whatever
	// the product's fields' type
	type split func([]byte) ([]byte, payment.Fields)
	typed := func(body string, s split) string {
		canonical, _ := s([]byte(body))
		return string(canonical)
	}
	points := func(b []byte) ([]byte, payment.Fields) {
		var v paymentapi.PurchasePeachpoints
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		p := pointsPurchase(v)
		return p.Canonical, p.Payment
	}
	pass := func(b []byte) ([]byte, payment.Fields) {
		var v paymentapi.PurchaseGogoPass
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		p := passPurchase(v)
		return p.Canonical, p.Payment
	}
	coupon := func(b []byte) ([]byte, payment.Fields) {
		var v paymentapi.PurchaseCouponTicket
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		p := couponPurchase(v)
		return p.Canonical, p.Payment
	}
	for _, c := range []struct {
		body  string
		split split
	}{
		{`{"nominee":"Hanako Yamada","currencyCode":"JPY","amount":3000,"paymentMethod":"creditCard","creditCardToken":"tok_1","saveCard":true,"requestId":"r-1"}`, points},
		{`{"requestId":"r-2","amount":50000,"currencyCode":"sgd","nominee":"A <b> & c","paymentMethod":"otherPayment","otherPaymentType":"paypay"}`, points},
		{`{"nominee":"","currencyCode":"JPY","amount":0,"paymentMethod":"convenienceStore","saveCard":false,"creditCardGateway":"sandbox"}`, points},
		{`{"planId":"p1","periodId":"q1","fareType":"standard","paymentMethod":"creditCard","creditCardToken":"tok_2","requestId":"r-3"}`, pass},
		{`{"productId":"c1","periodId":"w1","fareType":"lite","agreeTerms":true,"paymentMethod":"creditCard","creditCardToken":"tok_3","requestId":"r-4",
		  "additionalPassengers":[{"passengerType":"adult","lastname":"Lee","firstname":"Mina","gender":"female","dateOfBirth":"1990-01-01",
		  "nationalityCode":"KR","passportNo":"M1234567","dateOfEntry":"2026-12-03","inboundTransportMethod":"air","inboundFlightNo":"MM702"}]}`, coupon},
		{`{"productId":"c1","periodId":"w1","fareType":"lite","agreeTerms":false,"additionalPassengers":[],"paymentMethod":"creditCard"}`, coupon},
	} {
		if got, want := typed(c.body, c.split), sorted(c.body); got != want {
			t.Errorf("%s:\n typed  %s\n sorted %s", c.body, got, want)
		}
		// the engine still gets the requestId the canonical form leaves out
		var m map[string]any
		_ = json.Unmarshal([]byte(c.body), &m)
		_, pay := c.split([]byte(c.body))
		if id, _ := m["requestId"].(string); pay.RequestID != id {
			t.Errorf("%s: requestId %q lost", c.body, id)
		}
	}
}
