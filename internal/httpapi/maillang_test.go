package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/platform"
	"members/internal/points"
	"members/internal/store"
)

// foreignScript is text of a language other than the mail's: Japanese and
// Chinese (kana, CJK ideographs) in a Latin-script mail, Thai in any other.
var foreignScript = map[string]*regexp.Regexp{
	"en": regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}\p{Thai}\p{Hangul}]`),
	"jp": regexp.MustCompile(`[\p{Thai}\p{Hangul}]`),
	"th": regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}\p{Hangul}]`),
}

// Every mail about a purchase (and about points got for a code) speaks
// the member's mail language throughout, whatever the language of the page
// the purchase was made on:
// the payment slip and the voucher of one purchase alike, and the names
// in them (the item the slip pays for, the pass's and the coupon pass's
// names), which are written in the mail's language when it is sent, not
// taken from the texts stored in the purchase's language.
func TestPurchaseMailsSpeakTheMailLanguage(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := &payEnv{Env: apitest.New(t, engine, func(c *app.Config) {
			c.GatewaySlow, c.GatewayTimeout = 3*time.Second, 1500*time.Millisecond
		})}
		setFlags(t, env.Env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		outbox := store.NewMailOutbox(env.App.DB)
		pts, err := env.App.PointsService(app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, tc := range []struct {
			// chosen is the member's mail language ("" for none), page the
			// language of the pages the member buys on, mailLang the
			// language every mail must speak
			chosen, page, mailLang string
			member                 func(testing.TB) *apitest.Client
			memberID               string
			// pointsOnly: the points' slip and voucher alone
			pointsOnly bool
		}{
			{"en", "jp", "en", env.Member, demo.Member1, false},
			{"jp", "th", "jp", env.Member2, demo.Member2, false},
			// none chosen: the page's language for both mails of the
			// purchase (the account's is English)
			{"", "th", "th", env.Member, demo.Member1, true},
		} {
			c := tc.member(t)
			if r := c.Do(http.MethodPut, settingsPath, settingsBody(true, true, tc.chosen)); r.Status != http.StatusOK {
				t.Fatalf("settings: %d %s", r.Status, r.Body)
			}
			c.Lang = tc.page
			// a slip, paid: the slip's mail and the voucher's
			slipPaid := func(product string, fields map[string]any) {
				t.Helper()
				body := map[string]any{"paymentMethod": "convenienceStore", "requestId": newRequestID()}
				for k, v := range fields {
					body[k] = v
				}
				p := decodeProcess(t, c.Do(http.MethodPost, "/api/"+product+"/buy", body))
				p = decodeProcess(t, c.Do(http.MethodPost, "/api/"+product+"/buy/"+p.PaymentProcessID+"/continue", nil))
				if p.Status != "pending" {
					t.Fatalf("%s slip: %+v", product, p)
				}
				if _, err := env.App.Gateway.Sandbox.Settle(context.Background(), env.gatewayPaymentID(t, p.PaymentProcessID)); err != nil {
					t.Fatal(err)
				}
				env.deliver(t) // the gateway's webhook says it was paid
				st := decodeProcess(t, c.Get("/api/"+product+"/buy/"+p.PaymentProcessID+"/status"))
				for i := 0; st.Status == "pending" && i < 50; i++ {
					time.Sleep(50 * time.Millisecond)
					st = decodeProcess(t, c.Get("/api/"+product+"/buy/"+p.PaymentProcessID+"/status"))
				}
				if st.Status != "settled" {
					t.Fatalf("%s slip paid: %+v", product, st)
				}
			}
			otherProducts := func() {
				t.Helper()
				slipPaid("gogo_pass", map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus"})
				p := settle(t, env, c, "coupon_ticket", map[string]any{
					"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
				})
				var cg struct{ CouponTicket struct{ ID string } }
				if err := json.Unmarshal(p.Goods, &cg); err != nil {
					t.Fatal(err)
				}
				if r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": cg.CouponTicket.ID}); r.Status != http.StatusOK {
					t.Fatalf("refund: %d %s", r.Status, r.Body)
				}
			}
			slipPaid("peachpoints", map[string]any{"nominee": "HANAKO YAMADA", "currencyCode": "JPY", "amount": 3000})
			// a code exchanged for points on a page in the same language
			codes, err := pts.MakeCodes(t.Context(), points.CodesInput{Currency: "SGD", Amount: 2550, Count: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pts.Exchange(t.Context(), tc.memberID, i18n.Lang(tc.page), points.ExchangeInput{Code: codes[0].Code, Password: codes[0].Password}); err != nil {
				t.Fatal(err)
			}
			want := map[string]int{"payment_slip": 1, "points_issued": 2}
			if !tc.pointsOnly {
				want = map[string]int{"payment_slip": 2, "points_issued": 2, "gogo_pass_issued": 1, "coupon_ticket_purchased": 1, "coupon_ticket_refunded": 1}
				otherProducts()
			}

			ms, err := outbox.List(t.Context(), 500)
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]int{}
			for _, m := range ms {
				if seen[m.ID] {
					continue // the other member's
				}
				seen[m.ID] = true
				kinds[m.Kind]++
				if string(m.Lang) != tc.mailLang {
					t.Errorf("%s mail in %s, want the mail language %s", m.Kind, m.Lang, tc.mailLang)
				}
				for part, s := range map[string]string{"subject": m.Subject, "text": m.Text, "html": m.HTML} {
					if w := foreignScript[tc.mailLang].FindString(s); w != "" {
						t.Errorf("%s mail (%s, bought on a %s page): %q in its %s:\n%s", m.Kind, tc.mailLang, tc.page, w, part, s)
					}
				}
			}
			for k, n := range want {
				if kinds[k] != n {
					t.Errorf("%s: %d %s mails, want %d (all: %v)", tc.mailLang, kinds[k], k, n, kinds)
				}
			}
		}
	})
}
