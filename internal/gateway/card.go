package gateway

import (
	"strconv"
	"strings"
	"time"
)

// Brands as the gateway names them (lower case, the members side's
// creditCardType names without the gateway prefix).
const (
	Visa       = "visa"
	Mastercard = "mastercard"
	JCB        = "jcb"
	Amex       = "amex"
	Diners     = "diners"
	Discover   = "discover"
)

// Behaviour is what a tokenised test card does when authorised. It is
// derived from the number at tokenisation, so the number itself is never
// kept.
type Behaviour string

// Test card behaviours.
const (
	Succeed           Behaviour = "succeed"
	Decline           Behaviour = "card_declined"
	InsufficientFunds Behaviour = "insufficient_funds"
	ExpiredCard       Behaviour = "expired_card"
	Challenge         Behaviour = "challenge"
	SlowAuthorize     Behaviour = "slow_authorize"
)

// testCards maps the special test numbers to their behaviour; every other
// valid number succeeds.
var testCards = map[string]Behaviour{
	"4000000000000002": Decline,
	"4000000000009995": InsufficientFunds,
	"4000000000000069": ExpiredCard,
	"4000000000003220": Challenge,
	"4000000000000119": SlowAuthorize,
}

// Field error codes of tokenisation (400 validationErrors).
const (
	CodeRequired = "required"
	CodeDigits   = "digits"
	CodeLength   = "length"
	CodeLuhn     = "luhn"
	CodeExpired  = "expired"
	CodeFormat   = "format"
)

// CardInput is the browser's tokenisation request. It lives only for the
// length of the request.
type CardInput struct {
	CardNumber     string `json:"cardNumber"`
	ExpirationDate string `json:"expirationDate"`
	CVV            string `json:"cvv"`
	HolderName     string `json:"holderName"`
}

// Card is what remains of a card after tokenisation.
type Card struct {
	Brand          string
	Last4          string
	ExpirationDate string // YY/MM
	HolderName     string
	Behaviour      Behaviour
}

// maxHolderName bounds the holder name (embossed names are short).
const maxHolderName = 64

// CheckCard validates a card (14 to 16 digits, American Express
// 15, Luhn, CVV 3 digits or 4 for American Express, YY/MM read as 20YY and
// not past) and returns what may be kept, or field errors (first failing
// rule per field).
func CheckCard(in CardInput, now time.Time) (Card, map[string][]string) {
	errs := map[string][]string{}
	fail := func(field, code string) {
		if _, ok := errs[field]; !ok {
			errs[field] = []string{code}
		}
	}
	number := strings.NewReplacer(" ", "", "-", "").Replace(in.CardNumber)
	brand := ""
	switch {
	case number == "":
		fail("cardNumber", CodeRequired)
	case !allDigits(number):
		fail("cardNumber", CodeDigits)
	case len(number) < 14 || len(number) > 16:
		fail("cardNumber", CodeLength)
	default:
		brand = brandOf(number)
		switch {
		case brand == "":
			fail("cardNumber", CodeFormat)
		case brand == Amex && len(number) != 15, brand != Amex && brand != Diners && len(number) != 16:
			fail("cardNumber", CodeLength)
		case !luhn(number):
			fail("cardNumber", CodeLuhn)
		}
	}

	cvvLen := 3
	if brand == Amex {
		cvvLen = 4
	}
	switch {
	case in.CVV == "":
		fail("cvv", CodeRequired)
	case !allDigits(in.CVV):
		fail("cvv", CodeDigits)
	case len(in.CVV) != cvvLen:
		fail("cvv", CodeLength)
	}

	exp := strings.TrimSpace(in.ExpirationDate)
	if exp == "" {
		fail("expirationDate", CodeRequired)
	} else if _, _, ok := parseExpiry(exp); !ok {
		fail("expirationDate", CodeFormat)
	} else if expired(exp, now) {
		fail("expirationDate", CodeExpired)
	}

	holder := strings.TrimSpace(in.HolderName)
	switch {
	case holder == "":
		fail("holderName", CodeRequired)
	case len([]rune(holder)) > maxHolderName:
		fail("holderName", CodeLength)
	}
	if len(errs) > 0 {
		return Card{}, errs
	}
	b, ok := testCards[number]
	if !ok {
		b = Succeed
	}
	return Card{Brand: brand, Last4: number[len(number)-4:], ExpirationDate: exp, HolderName: holder, Behaviour: b}, nil
}

// expired reports whether a "YY/MM" expiry is past at now: a card is good
// through the last day of its month.
func expired(exp string, now time.Time) bool {
	yy, mm, ok := parseExpiry(exp)
	if !ok {
		return false
	}
	y, m := now.Year(), int(now.Month())
	return 2000+yy < y || (2000+yy == y && mm < m)
}

// parseExpiry reads "YY/MM".
func parseExpiry(s string) (yy, mm int, ok bool) {
	if len(s) != 5 || s[2] != '/' || !allDigits(s[:2]) || !allDigits(s[3:]) {
		return 0, 0, false
	}
	yy, _ = strconv.Atoi(s[:2])
	mm, _ = strconv.Atoi(s[3:])
	return yy, mm, mm >= 1 && mm <= 12
}

// brandOf recognises the issuer from the number's prefix (IIN ranges).
func brandOf(n string) string {
	p2, _ := strconv.Atoi(n[:2])
	p3, _ := strconv.Atoi(n[:3])
	p4, _ := strconv.Atoi(n[:4])
	switch {
	case n[0] == '4':
		return Visa
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720:
		return Mastercard
	case p4 >= 3528 && p4 <= 3589:
		return JCB
	case p2 == 34 || p2 == 37:
		return Amex
	case p2 == 36 || p2 == 38 || p2 == 39 || (p3 >= 300 && p3 <= 305) || p4 == 3095:
		return Diners
	case p4 == 6011 || p2 == 65 || (p3 >= 644 && p3 <= 649):
		return Discover
	}
	return ""
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// luhn checks the mod-10 check digit.
func luhn(n string) bool {
	sum := 0
	double := false
	for i := len(n) - 1; i >= 0; i-- {
		d := int(n[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}
