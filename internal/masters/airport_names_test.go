package masters

import (
	"testing"

	"members/internal/i18n"
)

// Every airport has a short name in every language, and the languages that
// do not read Latin script never fall back to the English name.
func TestAirportNamesInEveryLanguage(t *testing.T) {
	for _, a := range Airports() {
		for _, l := range i18n.Langs {
			name := AirportShortName(a.Code, l)
			if name == "" || name == a.Code {
				t.Errorf("%s in %s: %q", a.Code, l, name)
			}
			if l != i18n.EN && l != i18n.SG && name == a.ShortName {
				t.Errorf("%s in %s falls back to English %q", a.Code, l, name)
			}
		}
	}
	// each language its own column of the names
	for l, want := range map[i18n.Lang]string{
		i18n.JP: "大阪(関西)", i18n.EN: "Osaka (Kansai)", i18n.SG: "Osaka (Kansai)", i18n.KR: "오사카(간사이)",
		i18n.CN: "大阪(关西)", i18n.TW: "大阪(關西)", i18n.HK: "大阪(關西)", i18n.TH: "โอซาก้า (คันไซ)",
	} {
		if got := AirportShortName("KIX", l); got != want {
			t.Errorf("KIX %s = %q, want %q", l, got, want)
		}
	}
	if got := AirportShortName("BKK", i18n.TH); got != "กรุงเทพฯ (สุวรรณภูมิ)" {
		t.Errorf("BKK th = %q", got)
	}
	if got := AirportShortName("ZZZ", i18n.JP); got != "ZZZ" {
		t.Errorf("unknown airport = %q, want its code", got)
	}
	if got := LocalizedAirports(i18n.KR)[0].LocalName; got != "오사카(간사이)" {
		t.Errorf("KIX kr = %q", got)
	}
}
