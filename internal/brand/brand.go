// Package brand is the airline's brand in one place (brand.json): the
// airline's name, the product's name in each language and the colours. The
// server's mails and PDFs read it here; the web app imports the same file
// (web/src/brand.ts) for the header, the browser-tab titles and its colours.
package brand

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"

	"members/internal/i18n"
)

//go:embed brand.json
var raw []byte

// Brand is the parsed brand.json.
type Brand struct {
	Airline string               `json:"airline"`
	Product map[i18n.Lang]string `json:"product"`
	Colors  struct {
		Accent     string `json:"accent"`
		AccentDark string `json:"accentDark"`
		AccentSoft string `json:"accentSoft"`
		LogoLight  string `json:"logoLight"`
	} `json:"colors"`
	// Issuer is who issues the receipts and other documents: the
	// airline's legal name and postal address in each language and its
	// registration number (a Japanese qualified-invoice issuer number:
	// "T" and 13 digits, the last 12 of them the corporate number).
	Issuer struct {
		LegalName          map[i18n.Lang]string `json:"legalName"`
		Address            map[i18n.Lang]string `json:"address"`
		RegistrationNumber string               `json:"registrationNumber"`
	} `json:"issuer"`
}

// Load parses the embedded brand.json and checks that every language has a
// product name and the colours are #rrggbb.
func Load() (Brand, error) {
	var b Brand
	if err := json.Unmarshal(raw, &b); err != nil {
		return b, fmt.Errorf("brand: %w", err)
	}
	if b.Airline == "" {
		return b, fmt.Errorf("brand: airline name missing")
	}
	for _, l := range i18n.Langs {
		if b.Product[l] == "" {
			return b, fmt.Errorf("brand: product name for %s missing", l)
		}
	}
	if _, _, _, err := RGB(b.Colors.Accent); err != nil {
		return b, err
	}
	for _, c := range []string{b.Colors.AccentDark, b.Colors.AccentSoft, b.Colors.LogoLight} {
		if _, _, _, err := RGB(c); err != nil {
			return b, err
		}
	}
	for _, l := range i18n.Langs {
		if b.Issuer.LegalName[l] == "" || b.Issuer.Address[l] == "" {
			return b, fmt.Errorf("brand: issuer legal name or address for %s missing", l)
		}
	}
	if !ValidInvoiceNumber(b.Issuer.RegistrationNumber) {
		return b, fmt.Errorf("brand: issuer registration number %q is not T and 13 digits with a valid check digit", b.Issuer.RegistrationNumber)
	}
	return b, nil
}

// LegalName is the issuer's legal name in lang.
func (b Brand) LegalName(lang i18n.Lang) string {
	if n := b.Issuer.LegalName[lang]; n != "" {
		return n
	}
	return b.Issuer.LegalName[i18n.Default]
}

// Address is the issuer's postal address in lang.
func (b Brand) Address(lang i18n.Lang) string {
	if a := b.Issuer.Address[lang]; a != "" {
		return a
	}
	return b.Issuer.Address[i18n.Default]
}

// ValidInvoiceNumber reports whether s is a Japanese qualified-invoice
// issuer number: "T" and 13 digits whose first digit is the corporate
// number's check digit, 9 - (the sum of the other 12 digits, weighted 1
// and 2 alternately from the last, mod 9).
func ValidInvoiceNumber(s string) bool {
	if len(s) != 14 || s[0] != 'T' {
		return false
	}
	sum := 0
	for i := 13; i >= 1; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			return false
		}
		if i == 1 {
			break
		}
		w := 1
		if (13-i)%2 == 1 {
			w = 2
		}
		sum += int(c-'0') * w
	}
	return int(s[1]-'0') == 9-sum%9
}

// Name is the product's name in lang.
func (b Brand) Name(lang i18n.Lang) string {
	if n := b.Product[lang]; n != "" {
		return n
	}
	return b.Product[i18n.Default]
}

// RGB reads a "#rrggbb" colour.
func RGB(hex string) (r, g, b uint8, err error) {
	if len(hex) != 7 || hex[0] != '#' {
		return 0, 0, 0, fmt.Errorf("brand: colour %q is not #rrggbb", hex)
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("brand: colour %q: %w", hex, err)
	}
	return uint8(v >> 16), uint8(v >> 8), uint8(v), nil // #nosec G115 -- six hex digits: v < 2^24, and each byte is taken on purpose
}
