package httpapi_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/i18n"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

// TestSlipEndedMailsNameTheAmountOnce: the mails of a points slip that
// ended unpaid (cancelled by the member, expired at its deadline) name the
// item beside its amount once in every language: "Peach Points (JPY
// 3,000)", never "Peach Points (JPY) (JPY 3,000)", in the text and the
// HTML part. Each language's slips are bought 31 minutes apart: a slip
// left for later blocks the next purchase for about 30 minutes only.
func TestSlipEndedMailsNameTheAmountOnce(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		env := apitest.New(t, engine, func(c *app.Config) {
			c.SMTPURL = srv.URL()
			c.GatewaySlow, c.GatewayTimeout = 3*time.Second, 1500*time.Millisecond
		})
		cat, err := i18n.New()
		if err != nil {
			t.Fatal(err)
		}
		// as a reader sees it: a no-break space is a space, a word joiner
		// nothing, a line break of the text part a space, tags gone
		tags := regexp.MustCompile(`<[^>]*>`)
		spaces := regexp.MustCompile(`\s+`)
		read := func(s string) string {
			s = strings.NewReplacer("\u00a0", " ", "\u2060", "", "&nbsp;", " ", "&#160;", " ").Replace(tags.ReplaceAllString(s, " "))
			return spaces.ReplaceAllString(s, " ")
		}
		check := func(lang i18n.Lang, kind string, d mailtest.Decoded, amount int64) {
			t.Helper()
			money := read(i18n.FormatMoney(lang, amount, "JPY"))
			name := read(cat.T(lang, "points.purchase.name"))
			twice := read(cat.T(lang, "points.purchase.description", "currency", "JPY"))
			for part, body := range map[string]string{"text": string(d.Parts["text/plain"]), "html": string(d.Parts["text/html"])} {
				got := read(body)
				if n := strings.Count(got, money); n != 1 || !strings.Contains(got, name) || strings.Contains(got, twice) {
					t.Errorf("%s %s mail, %s: the amount %q %d times, the item %q, the currency twice (%q) %v:\n%s",
						lang, kind, part, money, n, name, twice, strings.Contains(got, twice), got)
				}
			}
		}
		ctx := context.Background()
		c := env.Member(t)
		receipts := map[string]i18n.Lang{}
		slip := func(amount int64) map[string]any {
			b := slipBody(amount)
			b["nominee"] = "TARO PEACH"
			return b
		}
		for _, lang := range i18n.Langs {
			c.Lang = string(lang)
			// cancelled by the member
			p := buy(t, c, slip(3000))
			cont(t, c, p.PaymentProcessID)
			if r := c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil); r.Status != http.StatusOK {
				t.Fatalf("%s: cancel = %d %s", lang, r.Status, r.Body)
			}
			got := srv.Messages()
			check(lang, "cancelled", got[len(got)-1].Decode(t), 3000)
			// left to expire: the next language buys 31 minutes later
			p = buy(t, c, slip(5000))
			cont(t, c, p.PaymentProcessID)
			l := pendingOf(t, c)
			receipts[l.Payments[len(l.Payments)-1].Slip.ReceiptNumber] = lang
			env.Clock.Advance(31 * time.Minute)
			c = env.Member(t)
		}
		before := len(srv.Messages())
		env.Clock.Advance(73 * time.Hour)
		for range 2 {
			if _, err := env.App.Payments.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
		}
		expired := srv.Messages()[before:]
		if len(expired) != len(i18n.Langs) {
			t.Fatalf("%d expired slip mails, want %d", len(expired), len(i18n.Langs))
		}
		for _, m := range expired {
			d := m.Decode(t)
			var lang i18n.Lang
			for receipt, l := range receipts {
				if strings.Contains(string(d.Parts["text/plain"]), receipt) {
					lang = l
				}
			}
			if lang == "" {
				t.Fatalf("an expired slip mail with no receipt number of ours:\n%s", d.Parts["text/plain"])
			}
			check(lang, "expired", d, 5000)
		}
	})
}
