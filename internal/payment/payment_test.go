package payment

import (
	"strings"
	"testing"
	"time"
)

func TestVerifySignature(t *testing.T) {
	secret := []byte("whsec_test")
	body := []byte(`{"id":"evt_1"}`)
	now := time.Unix(1_800_000_000, 0)
	good := Sign(secret, body, now)
	if err := VerifySignature(secret, body, good, now, 5*time.Minute); err != nil {
		t.Fatalf("good signature refused: %v", err)
	}
	// a second v1 (secret rotation) is accepted when one matches
	if err := VerifySignature(secret, body, good+",v1=00ff", now, 5*time.Minute); err != nil {
		t.Errorf("rotation: %v", err)
	}
	for name, c := range map[string]struct {
		secret []byte
		body   string
		header string
		at     time.Time
	}{
		"other body":        {secret, `{"id":"evt_2"}`, good, now},
		"other secret":      {[]byte("x"), string(body), good, now},
		"6 minutes late":    {secret, string(body), good, now.Add(6 * time.Minute)},
		"6 minutes early":   {secret, string(body), good, now.Add(-6 * time.Minute)},
		"no timestamp":      {secret, string(body), strings.Split(good, ",")[1], now},
		"no signature":      {secret, string(body), strings.Split(good, ",")[0], now},
		"empty":             {secret, string(body), "", now},
		"empty secret":      {nil, string(body), good, now},
		"garbage signature": {secret, string(body), "t=1800000000,v1=zz", now},
	} {
		if err := VerifySignature(c.secret, []byte(c.body), c.header, c.at, 5*time.Minute); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := VerifySignature(secret, body, good, now.Add(4*time.Minute), 5*time.Minute); err != nil {
		t.Errorf("4 minutes late refused: %v", err)
	}
}

func TestCardExpiry(t *testing.T) {
	// "26/11" is valid through November 2026 in Japan time
	if !CardValid("26/11", time.Date(2026, 11, 30, 14, 59, 0, 0, time.UTC)) {
		t.Error("last minute of the month (JST) refused")
	}
	if CardValid("26/11", time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)) {
		t.Error("first minute of December (JST) accepted")
	}
	for _, bad := range []string{"", "2611", "26/13", "26/00", "6/11", "ab/cd", "26/1"} {
		if _, ok := ExpiryEnd(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	if end, _ := ExpiryEnd("99/12"); end.Year() != 2100 {
		t.Errorf("99/12 read as %v, want the end of 2099", end)
	}
}

func TestCardScopesAndTypes(t *testing.T) {
	cases := []struct{ brand, currency, scope, typ string }{
		{"visa", "JPY", ScopeJPY, "ndhk_visa"},
		{"mastercard", "JPY", ScopeJPY, "ndhk_mastercard"},
		{"jcb", "ALL", ScopeJPY, "ndhk_jcb"},
		{"visa", "KRW", ScopeNonJPY, "visa"},
		{"jcb", "NON_JPY", ScopeNonJPY, "jcb"},
		{"amex", "JPY", ScopeAll, "amex"},
		{"diners", "THB", ScopeAll, "diners"},
		{"discover", "SGD", ScopeAll, "discover"},
	}
	for _, c := range cases {
		s := scopeFor(c.brand, c.currency)
		if s != c.scope || CreditCardType(c.brand, s) != c.typ {
			t.Errorf("%s for %s: %s %s, want %s %s", c.brand, c.currency, s, CreditCardType(c.brand, s), c.scope, c.typ)
		}
	}
	for _, c := range []struct {
		scope, currency string
		ok              bool
	}{{ScopeJPY, "JPY", true}, {ScopeJPY, "KRW", false}, {ScopeNonJPY, "JPY", false}, {ScopeNonJPY, "HKD", true},
		{ScopeNonJPY, "SGD", true}, {ScopeAll, "JPY", true}, {ScopeAll, "CNY", true}, {"", "JPY", false}} {
		if ScopeServes(c.scope, c.currency) != c.ok {
			t.Errorf("%s serves %s: want %v", c.scope, c.currency, c.ok)
		}
	}
}

func TestSortCardsBrandOrder(t *testing.T) {
	base := time.Unix(0, 0)
	cs := []SavedCard{
		{Brand: "discover", CreatedAt: base}, {Brand: "visa", CreatedAt: base.Add(2)}, {Brand: "amex", CreatedAt: base},
		{Brand: "jcb", CreatedAt: base}, {Brand: "visa", CreatedAt: base.Add(1)}, {Brand: "diners", CreatedAt: base},
		{Brand: "mastercard", CreatedAt: base},
	}
	SortCards(cs)
	var got []string
	for _, c := range cs {
		got = append(got, c.Brand)
	}
	if strings.Join(got, ",") != "visa,visa,mastercard,jcb,amex,diners,discover" || !cs[0].CreatedAt.Before(cs[1].CreatedAt) {
		t.Errorf("order %v", got)
	}
}

func TestAvailability(t *testing.T) {
	jpy := AvailabilityFor("JPY")
	if !jpy.ConvenienceStore || !jpy.otherAllowed(OtherPayPay) || jpy.otherAllowed(OtherWeChat) || strings.Join(jpy.CreditCard, ",") != "visa,mastercard,jcb,amex,diners,discover" {
		t.Errorf("JPY: %+v", jpy)
	}
	cny := AvailabilityFor("CNY")
	if cny.ConvenienceStore || !cny.otherAllowed(OtherAlipay) || cny.otherAllowed(OtherPayPay) {
		t.Errorf("CNY: %+v", cny)
	}
	if krw := AvailabilityFor("KRW"); krw.ConvenienceStore || !krw.otherAllowed(OtherUnionPay) || len(krw.OtherPayment) != 1 {
		t.Errorf("KRW: %+v", krw)
	}
}

func TestTransitionsTable(t *testing.T) {
	all := []Status{Prepared, Pending, Settled, Failed, Expired, Refunded}
	legal := map[[2]Status]bool{
		{Prepared, Pending}: true, {Prepared, Expired}: true, {Pending, Settled}: true, {Pending, Failed}: true,
		{Pending, Expired}: true, {Settled, Refunded}: true, {Refunded, Refunded}: true,
	}
	for _, from := range all {
		for _, to := range all {
			if CanMove(from, to) != legal[[2]Status{from, to}] {
				t.Errorf("%s → %s: CanMove %v", from, to, CanMove(from, to))
			}
		}
	}
	if !Prepared.Open() || !Pending.Open() || Settled.Open() || Failed.Open() || Expired.Open() {
		t.Error("open states")
	}
}
