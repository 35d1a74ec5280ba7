package brand

import (
	"testing"

	"members/internal/i18n"
)

func TestLoad(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if b.Name(i18n.JP) != "Peach メンバーズ" || b.Airline != "Peach Aviation" {
		t.Errorf("brand = %+v", b)
	}
	if r, g, bl, err := RGB(b.Colors.Accent); err != nil || r != 0xa3 || g != 0x18 || bl != 0x6b {
		t.Errorf("accent = %d %d %d %v", r, g, bl, err)
	}
	if _, _, _, err := RGB("red"); err == nil {
		t.Error("RGB(red) accepted")
	}
}

func TestIssuer(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if !ValidInvoiceNumber(b.Issuer.RegistrationNumber) {
		t.Errorf("registration number %q", b.Issuer.RegistrationNumber)
	}
	for _, l := range i18n.Langs {
		if b.LegalName(l) == "" || b.Address(l) == "" {
			t.Errorf("%s: issuer block incomplete", l)
		}
	}
	if b.LegalName(i18n.JP) == b.LegalName(i18n.EN) {
		t.Error("the Japanese legal name is the English one")
	}
}

func TestValidInvoiceNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"T6012345678901": true,
		"T7120001096473": true,
		"T5012345678901": false, // wrong check digit
		"6012345678901":  false, // no T
		"T601234567890":  false, // 12 digits
		"T60123456789O1": false, // a letter
		"t6012345678901": false,
	} {
		if got := ValidInvoiceNumber(s); got != want {
			t.Errorf("%s = %v, want %v", s, got, want)
		}
	}
}
