package points

import (
	"members/internal/i18n"
)

// FormatAmount writes minor units with a comma between thousands: SGD with
// two decimals, the other currencies with none (i18n.FormatAmount, the rule
// shared with the app).
func FormatAmount(minor int64, currency string, _ i18n.Lang) string {
	return i18n.FormatAmount(minor, currency)
}

// FormatMoney is the amount with its currency written the language's one
// way ("JPY 1,234"; "1,234円" in Japanese): i18n.FormatMoney.
func FormatMoney(minor int64, currency string, lang i18n.Lang) string {
	return i18n.FormatMoney(lang, minor, currency)
}
