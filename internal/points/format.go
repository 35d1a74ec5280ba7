package points

import (
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"members/internal/i18n"
)

// FormatAmount writes minor units with the language's thousands separators:
// SGD with two decimals, the other currencies with none.
func FormatAmount(minor int64, currency string, lang i18n.Lang) string {
	p := message.NewPrinter(lang.Tag())
	if d := Decimals(currency); d > 0 {
		return p.Sprint(number.Decimal(float64(minor)/100, number.Scale(d)))
	}
	return p.Sprint(number.Decimal(minor))
}

// FormatMoney is FormatAmount with the currency code in front ("JPY 1,234").
func FormatMoney(minor int64, currency string, lang i18n.Lang) string {
	return currency + " " + FormatAmount(minor, currency, lang)
}
