package masters

import (
	"strings"
	"testing"

	"members/internal/i18n"
)

func TestAirportOrder(t *testing.T) {
	want := "KIX MMB KUH CTS SDJ KIJ NRT HND NGO MYJ FUK OIT NGS KMI KOJ ASJ OKA ISG ICN GMP PUS HKG TPE KHH PVG BKK SIN"
	var got []string
	for _, a := range Airports() {
		got = append(got, a.Code)
		if a.TimeZone == "" || a.Name == "" || a.NameAlt == "" {
			t.Errorf("%s lacks a field: %+v", a.Code, a)
		}
	}
	if strings.Join(got, " ") != want {
		t.Fatalf("order = %s", strings.Join(got, " "))
	}
	if AirportRank("KIX") != 0 || AirportRank("SIN") != 26 || AirportRank("XXX") != 27 {
		t.Error("AirportRank wrong")
	}
}

func TestCountries(t *testing.T) {
	c := NewCountries()
	en := c.List(i18n.EN)
	if len(en) < 240 || len(en) > 260 {
		t.Fatalf("got %d countries, want the ISO 3166 set (~249)", len(en))
	}
	for _, code := range []string{"JP", "KR", "TW", "HK", "TH", "SG", "CN", "US", "FR"} {
		if !c.Valid(code) {
			t.Errorf("%s missing", code)
		}
	}
	for _, code := range []string{"EU", "ZZ", "QO", "XA", "jp", "J"} {
		if c.Valid(code) {
			t.Errorf("%s should not be a country", code)
		}
	}
	tests := []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.EN, "Japan"}, {i18n.JP, "日本"}, {i18n.KR, "일본"}, {i18n.CN, "日本"}, {i18n.TH, "ญี่ปุ่น"},
	}
	for _, tt := range tests {
		if got := c.Name(tt.lang, "JP"); got != tt.want {
			t.Errorf("Name(%s, JP) = %q, want %q", tt.lang, got, tt.want)
		}
	}
	if got := c.Name(i18n.TW, "KR"); got != "南韓" {
		t.Errorf("tw KR = %q", got)
	}
	if got := c.Name(i18n.EN, "XX"); got != "" {
		t.Errorf("unknown = %q", got)
	}
}
