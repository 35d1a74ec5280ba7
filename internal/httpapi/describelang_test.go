package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/platform"
	"members/internal/store"
)

// The payment answers a page reads (the purchase's continue and status,
// the pending payments list, the cancel) name what the order buys in the
// language of the page that asks, not in the one the order was made in: a
// coupon pass ordered on an English page and read on a Thai one is named
// in Thai, as the member's passes name it.
func TestPaymentAnswersNameTheItemInThePageLanguage(t *testing.T) {
	thai := regexp.MustCompile(`\p{Thai}`)
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := &payEnv{Env: apitest.New(t, engine, func(c *app.Config) {
			c.GatewaySlow, c.GatewayTimeout = 3*time.Second, 1500*time.Millisecond
		})}
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)
		for _, tc := range []struct {
			product, orderLang, readLang string
			fields                       map[string]any
			// ordered: the description in the order's language;
			// read: whether d is the item in the reading page's
			ordered string
			read    func(d string) bool
		}{
			{"coupon_ticket", "en", "th",
				map[string]any{"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true},
				"Kansai Discovery Pass", func(d string) bool { return d == "คันไซ ดิสคัฟเวอรี่ พาส" }},
			{"gogo_pass", "en", "th",
				map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus"},
				"Peach GoGo Pass", func(d string) bool { return strings.HasPrefix(d, "Peach GoGo Pass ") && thai.MatchString(d) }},
			{"peachpoints", "en", "jp",
				map[string]any{"nominee": "HANAKO YAMADA", "currencyCode": "JPY", "amount": 3000},
				"Peach Points (JPY)", func(d string) bool { return d == "Peach Points（JPY）" }},
		} {
			t.Run(tc.product, func(t *testing.T) {
				c.Lang = tc.orderLang
				body := map[string]any{"paymentMethod": "convenienceStore", "requestId": newRequestID()}
				for k, v := range tc.fields {
					body[k] = v
				}
				base := "/api/" + tc.product + "/buy/"
				p := decodeProcess(t, c.Do(http.MethodPost, "/api/"+tc.product+"/buy", body))
				if !strings.HasPrefix(p.Description, tc.ordered) {
					t.Fatalf("ordered on a %s page: %q, want %q", tc.orderLang, p.Description, tc.ordered)
				}
				p = decodeProcess(t, c.Do(http.MethodPost, base+p.PaymentProcessID+"/continue", nil))
				if p.Status != "pending" {
					t.Fatalf("slip: %+v", p)
				}

				c.Lang = tc.readLang
				var pending struct {
					Payments []struct{ Description string }
				}
				c.Get("/api/payments/pending").JSON(t, &pending)
				if len(pending.Payments) != 1 {
					t.Fatalf("pending payments: %+v", pending)
				}
				answers := map[string]string{
					"continue":         decodeProcess(t, c.Do(http.MethodPost, base+p.PaymentProcessID+"/continue", nil)).Description,
					"status":           decodeProcess(t, c.Get(base+p.PaymentProcessID+"/status")).Description,
					"process status":   decodeProcess(t, c.Get("/api/payment_processes/"+p.PaymentProcessID+"/status")).Description,
					"pending payments": pending.Payments[0].Description,
					"cancel":           decodeProcess(t, c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil)).Description,
				}
				for answer, d := range answers {
					if !tc.read(d) {
						t.Errorf("%s answer on a %s page: %q, want the item in %s", answer, tc.readLang, d, tc.readLang)
					}
				}
			})
		}
	})
}
