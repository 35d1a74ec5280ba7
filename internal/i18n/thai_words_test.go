package i18n_test

import (
	"strings"
	"testing"

	"members/internal/i18n"
)

// The Thai catalogues name the products with one word each, the one the
// products' own names use: พาส for the unlimited pass and the coupon pass
// (คันไซ ดิสคัฟเวอรี่ พาส, คูปองพาส, Peach GoGo Pass) and พอยต์ for Peach
// Points; บัตร stays where it means a card (a credit card, its issuer) and
// คะแนน is not used. Each key is named: a text that speaks of both a card
// and a pass could not be told by counting words.
func TestThaiProductWords(t *testing.T) {
	cat, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	th := cat.Keys(i18n.TH)
	for _, tc := range []struct {
		word, not string
		keys      []string
	}{
		{"พาส", "บัตร", []string{
			"pass.plan.all.name_alt", "pass.plan.weekday.name_alt", "coupon.product.kansai.name",
			"pass.error.maintenance", "pass.error.exchange", "pass.error.exchange_unknown",
			"pass.error.not_on_sale", "pass.error.already_held",
			"coupon.error.already_refunded", "coupon.error.not_refundable",
			"mail.gogo_pass_lottery_won.body", "mail.pass.name", "mail.pass.code",
			"mail.coupon_ticket_purchased.body", "mail.coupon_ticket_refunded.body",
			"security.deletion.unconfirmed_losses",
		}},
		{"พอยต์", "คะแนน", []string{
			"mail.points.number", "mail.points_reissued.body", "mail.points_reminder.body", "mail.points_issued.body",
			"points.insufficient", "points.not_found", "points.error.peachpoint_exchange_error",
			"points.error.peachpoint_exchange_unknown_error", "points.error.exchange_code_used",
			"points.validation.already_reissued", "points.validation.not_expired", "points.validation.number_or_pin",
			"points.validation.reissue_currency", "points.validation.reissue_other_page",
			"notify.kind.points_reminders", "security.deletion.unconfirmed_losses",
		}},
		// a card, not a product: left as it is
		{"บัตร", "พาส", []string{
			"gateway.card", "gateway.challenge.intro", "payment.card.declined", "payment.card.too_many",
			"mail.card_registered.subject", "mail.card_deleted.body",
		}},
	} {
		for _, k := range tc.keys {
			v, ok := th[k]
			if !ok {
				t.Errorf("th %s: missing", k)
				continue
			}
			if !strings.Contains(v, tc.word) || strings.Contains(v, tc.not) {
				t.Errorf("th %s says %q: want %s, not %s", k, v, tc.word, tc.not)
			}
		}
	}
	// No Thai text of the points or the pass speaks of คะแนน, nor of บัตร
	// outside the card's own words.
	for k, v := range th {
		pointsKey := strings.HasPrefix(k, "points.") || strings.HasPrefix(k, "mail.points")
		passKey := strings.HasPrefix(k, "pass.") || strings.HasPrefix(k, "coupon.") || strings.HasPrefix(k, "mail.pass.") ||
			strings.HasPrefix(k, "mail.gogo_pass") || strings.HasPrefix(k, "mail.coupon")
		if (pointsKey && strings.Contains(v, "คะแนน")) || (passKey && strings.Contains(v, "บัตร")) {
			t.Errorf("th %s says %q", k, v)
		}
	}
}
