package gateway

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"members/internal/i18n"
)

// The pages' keys, read from their source: every one is in all eight
// server catalogues, and so is every payment app's name.
func TestEveryLanguageHasEveryMessage(t *testing.T) {
	cat, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range []string{"pages.go", "templates/page.html.tmpl"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:\.T|text\.t\(l,) "([a-z.]+)"`).FindAllStringSubmatch(string(src), -1) {
		used["gateway."+m[1]] = true
	}
	for _, m := range qrMethods {
		used["gateway.method."+m] = true
	}
	if len(used) < 30 {
		t.Fatalf("found only %d keys in pages.go and its template: %v", len(used), used)
	}
	for _, l := range i18n.Langs {
		if htmlLang[string(l)] == "" {
			t.Errorf("%s: no HTML lang", l)
		}
		have := cat.Keys(l)
		for k := range used {
			if have[k] == "" {
				t.Errorf("%s: missing %s", l, k)
			}
		}
		for _, k := range []string{"gateway.qr.title", "gateway.qr.intro"} {
			if !strings.Contains(have[k], "{method}") {
				t.Errorf("%s: %s lacks {method}: %q", l, k, have[k])
			}
		}
	}
	text := pageText{cat: cat}
	if got := text.t("jp", "qr.title", "method", text.methodName("jp", "rakuten_pay")); got != "楽天ペイで支払う" {
		t.Errorf("jp QR title = %q", got)
	}
	if got := text.methodName("kr", "unknown_app"); got != "unknown_app" {
		t.Errorf("unknown method = %q", got)
	}
}

func TestCheckCard(t *testing.T) {
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	ok := CardInput{CardNumber: "4242424242424242", ExpirationDate: "26/11", CVV: "123", HolderName: "A B"}
	with := func(f func(*CardInput)) CardInput { c := ok; f(&c); return c }
	cases := []struct {
		name string
		in   CardInput
		errs map[string][]string
	}{
		{"good, expires this month", ok, nil},
		{"empty", CardInput{}, map[string][]string{"cardNumber": {"required"}, "cvv": {"required"}, "expirationDate": {"required"}, "holderName": {"required"}}},
		{"letters", with(func(c *CardInput) { c.CardNumber = "4242x24242424242" }), map[string][]string{"cardNumber": {"digits"}}},
		{"13 digits", with(func(c *CardInput) { c.CardNumber = "4242424242424" }), map[string][]string{"cardNumber": {"length"}}},
		{"17 digits", with(func(c *CardInput) { c.CardNumber = "42424242424242424" }), map[string][]string{"cardNumber": {"length"}}},
		{"visa 15 digits", with(func(c *CardInput) { c.CardNumber = "424242424242426" }), map[string][]string{"cardNumber": {"length"}}},
		{"amex 16 digits", with(func(c *CardInput) { c.CardNumber = "3782822463100050"; c.CVV = "1234" }), map[string][]string{"cardNumber": {"length"}}},
		{"luhn", with(func(c *CardInput) { c.CardNumber = "4242424242424241" }), map[string][]string{"cardNumber": {"luhn"}}},
		{"unknown brand", with(func(c *CardInput) { c.CardNumber = "9999999999999995" }), map[string][]string{"cardNumber": {"format"}}},
		{"amex needs 4-digit cvv", with(func(c *CardInput) { c.CardNumber = "378282246310005" }), map[string][]string{"cvv": {"length"}}},
		{"amex 4-digit cvv", with(func(c *CardInput) { c.CardNumber = "378282246310005"; c.CVV = "1234" }), nil},
		{"visa 4-digit cvv", with(func(c *CardInput) { c.CVV = "1234" }), map[string][]string{"cvv": {"length"}}},
		{"cvv letters", with(func(c *CardInput) { c.CVV = "12a" }), map[string][]string{"cvv": {"digits"}}},
		{"expired last month", with(func(c *CardInput) { c.ExpirationDate = "26/10" }), map[string][]string{"expirationDate": {"expired"}}},
		{"expired last year", with(func(c *CardInput) { c.ExpirationDate = "25/12" }), map[string][]string{"expirationDate": {"expired"}}},
		{"MM/YY is not YY/MM", with(func(c *CardInput) { c.ExpirationDate = "13/30" }), map[string][]string{"expirationDate": {"format"}}},
		{"no slash", with(func(c *CardInput) { c.ExpirationDate = "3012" }), map[string][]string{"expirationDate": {"format"}}},
		{"month 00", with(func(c *CardInput) { c.ExpirationDate = "30/00" }), map[string][]string{"expirationDate": {"format"}}},
		{"holder too long", with(func(c *CardInput) { c.HolderName = string(make([]byte, 65)) + "x" }), map[string][]string{"holderName": {"length"}}},
	}
	for _, c := range cases {
		card, errs := CheckCard(c.in, now)
		if !reflect.DeepEqual(errs, c.errs) && !(len(errs) == 0 && len(c.errs) == 0) {
			t.Errorf("%s: errors %v, want %v", c.name, errs, c.errs)
		}
		if errs == nil && (card.Last4 == "" || card.Brand == "") {
			t.Errorf("%s: card %+v", c.name, card)
		}
	}
}

// Each address has its own bucket, and the map of addresses stays bounded.
func TestTokenLimiterPerAddress(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	l := newTokenLimiter(time.Second, 2, func() time.Time { return now })
	steps := []struct {
		addr string
		ok   bool
	}{{"a", true}, {"a", true}, {"a", false}, {"b", true}, {"b", true}, {"b", false}, {"a", false}}
	for i, s := range steps {
		if ok, _ := l.allow(s.addr); ok != s.ok {
			t.Fatalf("step %d (%s): allowed %v, want %v", i, s.addr, ok, s.ok)
		}
	}
	now = now.Add(time.Second)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("a second later: refused")
	}
	for i := range maxTrackedClients + 5 {
		l.allow(strconv.Itoa(i))
	}
	if n := len(l.clients); n > maxTrackedClients {
		t.Fatalf("%d addresses tracked", n)
	}
}
