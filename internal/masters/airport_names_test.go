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
	if got := AirportShortName("BKK", i18n.TH); got != "กรุงเทพฯ (สุวรรณภูมิ)" {
		t.Errorf("BKK th = %q", got)
	}
	if got := LocalizedAirports(i18n.KR)[0].LocalName; got != "오사카(간사이)" {
		t.Errorf("KIX kr = %q", got)
	}
}
