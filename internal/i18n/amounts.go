package i18n

import (
	"strconv"
	"strings"
)

// Amounts, counts and names have one written form per language, the same
// on pages, in mails and in PDFs; the app implements the same rules
// (web/src/i18n/format.ts) and both are tested against the tables
// testdata/amounts.json, testdata/plurals.json and testdata/names.json.

// CurrencyDecimals is the number of minor-unit decimals of a currency: SGD
// has two, the others (JPY, KRW, CNY, TWD, HKD, THB) none.
func CurrencyDecimals(currency string) int {
	if strings.EqualFold(currency, "SGD") {
		return 2
	}
	return 0
}

// FormatAmount writes an amount in minor units as a number with a comma
// between thousands and, for SGD, two decimals after a point: 47600 JPY is
// "47,600", 1234 SGD "12.34".
func FormatAmount(minor int64, currency string) string {
	neg := minor < 0
	// The magnitude: -minor of the smallest int64 overflows back to itself,
	// but its bits read as a uint64 are still the right magnitude.
	m := minor
	if neg {
		m = -minor
	}
	u := uint64(m) // #nosec G115 -- a magnitude, never negative but for the smallest int64, whose bits are its magnitude
	frac := ""
	if d := CurrencyDecimals(currency); d > 0 {
		p := uint64(1)
		for range d {
			p *= 10
		}
		frac = "." + strconv.FormatUint(u%p+p, 10)[1:]
		u /= p
	}
	s := strconv.FormatUint(u, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + frac
}

// FormatMoney writes an amount in minor units with its currency the one way
// of lang: the code in front ("JPY 47,600", "SGD 12.34"), except the
// language's own currency in its own form (yen in Japanese "47,600円", won
// in Korean "47,600원").
func FormatMoney(lang Lang, minor int64, currency string) string {
	cur := strings.ToUpper(currency)
	n := FormatAmount(minor, cur)
	switch {
	case lang == JP && cur == "JPY":
		return n + "円"
	case lang == KR && cur == "KRW":
		return n + "원"
	default:
		return cur + " " + n
	}
}

// PluralCategory is the plural category of n in lang: "one" for 1 in
// English (en, sg), "other" for every other number and in the languages
// without a singular form (jp, kr, cn, tw, hk, th).
func PluralCategory(lang Lang, n int) string {
	if (lang == EN || lang == SG) && n == 1 {
		return "one"
	}
	return "other"
}

// TN translates a counted text: the key base + "_one" or base + "_other" by
// lang's plural rule, with {n} set to the count.
func (c *Catalog) TN(lang Lang, base string, n int, args ...any) string {
	return c.T(lang, base+"_"+PluralCategory(lang, n), append([]any{"n", n}, args...)...)
}

// PersonName writes a person's name in running text (a greeting, a
// passenger list): family name first in Japanese, Korean and Chinese (jp,
// kr, cn, tw, hk), given name first in en, sg and th.
func PersonName(lang Lang, given, family string) string {
	given, family = strings.TrimSpace(given), strings.TrimSpace(family)
	switch lang {
	case JP, KR, CN, TW, HK:
		return strings.TrimSpace(family + " " + given)
	default:
		return strings.TrimSpace(given + " " + family)
	}
}
