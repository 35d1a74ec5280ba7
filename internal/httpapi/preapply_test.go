package httpapi_test

import (
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

// TestPointsPreapply: the checks before the points purchase form is filled.
// A member with nothing pending gets the currencies in the points' order,
// each with the amounts buy accepts and the ways to pay; a pending payment
// blocks with the same 409 payment_pending as buy, for that member only.
func TestPointsPreapply(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)

		var got struct {
			ProductType string
			Currencies  []struct {
				CurrencyCode string
				Amounts      []int64
				Availability struct {
					CreditCard       []string
					OtherPayment     []string
					ConvenienceStore bool
				}
			}
		}
		r := c.Do(http.MethodPost, "/api/peachpoints/buy/preapply", nil)
		if r.Status != http.StatusOK {
			t.Fatalf("preapply = %d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		var order []string
		for _, cur := range got.Currencies {
			order = append(order, cur.CurrencyCode)
		}
		if got.ProductType != "peachpoints" || len(order) != 7 || order[0] != "KRW" || order[2] != "JPY" || order[6] != "SGD" {
			t.Fatalf("currencies = %v (%s)", order, r.Body)
		}
		jpy := got.Currencies[2]
		if len(jpy.Amounts) == 0 || jpy.Amounts[0] != 1000 || !jpy.Availability.ConvenienceStore || len(jpy.Availability.CreditCard) == 0 {
			t.Errorf("JPY = %+v", jpy)
		}
		// An amount offered is an amount buy accepts, and one not offered is refused.
		body := func(amount int64) map[string]any {
			return map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": amount,
				"paymentMethod": "otherPayment", "otherPaymentType": "paypay", "requestId": "preapply-" + string(engine)}
		}
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", body(1234)); r.Status != http.StatusBadRequest {
			t.Errorf("an amount not offered = %d %s", r.Status, r.Body)
		}
		r = c.Do(http.MethodPost, "/api/peachpoints/buy", body(jpy.Amounts[0]))
		if r.Status != http.StatusOK {
			t.Fatalf("buy = %d %s", r.Status, r.Body)
		}
		id, _ := r.Map(t)["paymentProcessId"].(string)
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/"+id+"/continue", nil); r.Status != http.StatusOK || r.Map(t)["status"] != "pending" {
			t.Fatalf("continue = %d %s", r.Status, r.Body)
		}

		// Pending: refused before the form, with the purchase's own message.
		r = c.Do(http.MethodPost, "/api/peachpoints/buy/preapply", nil)
		if m := r.Map(t); r.Status != http.StatusConflict || m["errorKey"] != "payment_pending" || !contains(m["message"].(string), "Pending payments") {
			t.Errorf("preapply while pending = %d %s", r.Status, r.Body)
		}
		// Another member is not blocked; a visitor has no session; CSRF holds.
		if r := env.Member2(t).Do(http.MethodPost, "/api/peachpoints/buy/preapply", nil); r.Status != http.StatusOK {
			t.Errorf("member 2 = %d %s", r.Status, r.Body)
		}
		if r := env.Client(t).Do(http.MethodPost, "/api/peachpoints/buy/preapply", nil); r.Status != http.StatusForbidden {
			t.Errorf("anonymous = %d", r.Status)
		}
	})
}
