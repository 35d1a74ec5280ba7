package payment

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"members/internal/validate"
)

// Card brands as the gateway names them, in the spec's display order
// (visa, mastercard, jcb, amex, diners, discover).
var brandOrder = []string{"visa", "mastercard", "jcb", "amex", "diners", "discover"}

func brandRank(b string) int {
	for i, x := range brandOrder {
		if x == b {
			return i
		}
	}
	return len(brandOrder)
}

// Card currency scopes: visa, mastercard and jcb cards are
// registered for JPY or for the other currencies; amex, diners and
// discover cards serve every currency.
const (
	ScopeJPY    = "JPY"
	ScopeNonJPY = "NON_JPY"
	ScopeAll    = "ALL"
)

// Currencies of the product.
var Currencies = []string{"JPY", "KRW", "CNY", "TWD", "HKD", "THB", "SGD"}

// NormalizeCurrency is how every call reads a currency or card scope: the
// code trimmed and upper-cased, so "jpy" and "JPY" are the same everywhere.
func NormalizeCurrency(c string) string { return strings.ToUpper(strings.TrimSpace(c)) }

// ValidCurrency reports whether c is one of the product's currencies.
func ValidCurrency(c string) bool {
	for _, x := range Currencies {
		if x == c {
			return true
		}
	}
	return false
}

// allCurrencyBrand reports whether brand's cards serve every currency.
func allCurrencyBrand(brand string) bool {
	return brand == "amex" || brand == "diners" || brand == "discover"
}

// scopeFor is the scope a card of brand gets when registered for currency.
// The spec lists KRW CNY TWD HKD THB as non-JPY and is silent on SGD; every
// currency other than JPY is treated as non-JPY (docs/payments.md).
func scopeFor(brand, currency string) string {
	switch {
	case allCurrencyBrand(brand):
		return ScopeAll
	case currency == "JPY" || currency == ScopeAll:
		// a visa, mastercard or jcb card asked for "all" is a JPY card
		return ScopeJPY
	default:
		return ScopeNonJPY
	}
}

// ScopeServes reports whether a card of scope may pay in currency.
func ScopeServes(scope, currency string) bool {
	switch scope {
	case ScopeAll:
		return true
	case ScopeJPY:
		return currency == "JPY"
	case ScopeNonJPY:
		return currency != "JPY"
	}
	return false
}

// CreditCardType is the spec's creditCardType: JPY-scope visa, mastercard
// and jcb cards are processed by the sandbox's domestic acquirer (ndhk_*).
func CreditCardType(brand, scope string) string {
	if scope == ScopeJPY && (brand == "visa" || brand == "mastercard" || brand == "jcb") {
		return "ndhk_" + brand
	}
	return brand
}

// ExpiryEnd parses "YY/MM" (read as 20YY) and returns the first instant
// after the card's last valid month, in Japan time.
func ExpiryEnd(exp string) (time.Time, bool) {
	yy, mm, ok := strings.Cut(exp, "/")
	if !ok || len(yy) != 2 || len(mm) != 2 || !validate.IsDigits(yy) || !validate.IsDigits(mm) {
		return time.Time{}, false
	}
	y, _ := strconv.Atoi(yy)
	m, _ := strconv.Atoi(mm)
	if m < 1 || m > 12 {
		return time.Time{}, false
	}
	return time.Date(2000+y, time.Month(m)+1, 1, 0, 0, 0, 0, jst), true
}

var jst = time.FixedZone("JST", 9*60*60)

// CardValid reports whether a card expiring exp is still usable at now.
func CardValid(exp string, now time.Time) bool {
	end, ok := ExpiryEnd(exp)
	return ok && now.Before(end)
}

// SavedCard is a member's saved card as stored.
type SavedCard struct {
	MemberID       string
	Gateway        string
	Token          string
	Brand          string
	Last4          string
	ExpirationDate string
	HolderName     string
	Currency       string
	CreatedAt      time.Time
}

// CardView is a saved card on the wire.
type SavedCardView struct {
	Token          string `json:"token"`
	CardNumber     string `json:"cardNumber"`
	Brand          string `json:"brand"`
	CreditCardType string `json:"creditCardType"`
	ExpirationDate string `json:"expirationDate"`
	Currency       string `json:"currency"`
	IsValid        bool   `json:"isValid"`
	// Usable is whether the card may pay: valid and held by the
	// configured gateway (a card saved with another gateway is shown, not
	// offered).
	Usable     bool   `json:"usable"`
	Gateway    string `json:"gateway"`
	HolderName string `json:"holderName"`
}

// view is the card on the wire; a card of another gateway than the
// configured one (gateway) is neither valid nor usable.
func (c SavedCard) view(now time.Time, gateway string) SavedCardView {
	valid := CardValid(c.ExpirationDate, now) && c.Gateway == gateway
	return SavedCardView{
		Token: c.Token, CardNumber: "**** **** **** " + c.Last4, Brand: c.Brand,
		CreditCardType: CreditCardType(c.Brand, c.Currency), ExpirationDate: c.ExpirationDate,
		Currency: c.Currency, IsValid: valid, Usable: valid, Gateway: c.Gateway, HolderName: c.HolderName,
	}
}

// SortCards puts cards in brand display order, oldest first within a brand.
func SortCards(cs []SavedCard) {
	sort.SliceStable(cs, func(i, j int) bool {
		ri, rj := brandRank(cs[i].Brand), brandRank(cs[j].Brand)
		if ri != rj {
			return ri < rj
		}
		return cs[i].CreatedAt.Before(cs[j].CreatedAt)
	})
}

// SameCard finds the saved card that c repeats: the same token, or the
// same card (brand, last four digits and expiry) saved for the same
// currency scope. A card may be saved once for yen and once for the other
// currencies, which the member chooses apart; never twice for the same.
func SameCard(saved []SavedCard, c SavedCard) (SavedCard, bool) {
	for _, s := range saved {
		if s.Gateway == c.Gateway && s.Token == c.Token {
			return s, true
		}
		if s.Brand == c.Brand && s.Last4 == c.Last4 && s.ExpirationDate == c.ExpirationDate && s.Currency == c.Currency {
			return s, true
		}
	}
	return SavedCard{}, false
}

func brandLabel(b string) string {
	switch b {
	case "visa":
		return "Visa"
	case "mastercard":
		return "Mastercard"
	case "jcb":
		return "JCB"
	case "amex":
		return "American Express"
	case "diners":
		return "Diners Club"
	case "discover":
		return "Discover"
	}
	return b
}
