// Package masters holds the product's reference data: languages, airports
// (in the airline's fixed order), countries and currencies.
package masters

import (
	"sort"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"members/internal/i18n"
)

// Language is a product language with its name in that language.
type Language struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Languages lists the product's languages, each named in itself.
func Languages() []Language {
	names := map[i18n.Lang]string{
		i18n.JP: "日本語", i18n.EN: "English", i18n.SG: "English (Singapore)", i18n.KR: "한국어",
		i18n.CN: "简体中文", i18n.TW: "繁體中文（台灣）", i18n.HK: "繁體中文（香港）", i18n.TH: "ไทย",
	}
	out := make([]Language, 0, len(i18n.Langs))
	for _, l := range i18n.Langs {
		out = append(out, Language{Code: string(l), Name: names[l]})
	}
	return out
}

// Country is an ISO 3166 country with its name in the request's language.
type Country struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// notISO3166 are codes CLDR treats as countries that ISO 3166-1 does not
// assign (exceptional reservations, withdrawn codes, groupings).
var notISO3166 = map[string]bool{
	"AC": true, "CP": true, "CQ": true, "DG": true, "EA": true, "IC": true, "TA": true,
	"UN": true, "EZ": true, "AN": true, "CS": true, "NT": true, "SU": true, "YU": true, "FQ": true, "PC": true,
}

// CountryCodes are every ISO 3166-1 alpha-2 country code known to x/text,
// computed once by the caller (NewCountries) rather than typed by hand.
func countryCodes() []language.Region {
	var out []language.Region
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			code := string([]rune{a, b})
			r, err := language.ParseRegion(code)
			if err != nil || !r.IsCountry() || r.String() != code || r.IsPrivateUse() ||
				r.Canonicalize() != r || notISO3166[code] {
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

// Countries serves the country list in every language, sorted by name
// in that language.
type Countries struct {
	byLang map[i18n.Lang][]Country
	codes  map[string]bool
}

// NewCountries builds the lists for every language.
func NewCountries() *Countries {
	regions := countryCodes()
	c := &Countries{byLang: map[i18n.Lang][]Country{}, codes: map[string]bool{}}
	for _, r := range regions {
		c.codes[r.String()] = true
	}
	for _, l := range i18n.Langs {
		namer := display.Regions(l.Tag())
		list := make([]Country, 0, len(regions))
		for _, r := range regions {
			name := namer.Name(r)
			if name == "" {
				name = display.English.Regions().Name(r)
			}
			list = append(list, Country{Code: r.String(), Name: name})
		}
		col := collate.New(l.Tag())
		sort.SliceStable(list, func(i, j int) bool { return col.CompareString(list[i].Name, list[j].Name) < 0 })
		c.byLang[l] = list
	}
	return c
}

// List returns the countries named in lang. The slice must not be changed.
func (c *Countries) List(lang i18n.Lang) []Country { return c.byLang[lang] }

// Valid reports whether code is an ISO 3166 country code.
func (c *Countries) Valid(code string) bool { return c.codes[code] }

// Name returns the country's name in lang ("" for an unknown code).
func (c *Countries) Name(lang i18n.Lang, code string) string {
	if !c.codes[code] {
		return ""
	}
	return display.Regions(lang.Tag()).Name(language.MustParseRegion(code))
}

// Currency is a currency with its count of minor-unit decimals.
type Currency struct {
	Code     string `json:"code"`
	Decimals int    `json:"decimals"`
}

// Currencies in the product's order. SGD has two decimals, the others none.
var currencies = []Currency{
	{"JPY", 0}, {"KRW", 0}, {"CNY", 0}, {"TWD", 0}, {"HKD", 0}, {"THB", 0}, {"SGD", 2},
}

// Currencies returns the product's currencies.
func Currencies() []Currency { return append([]Currency(nil), currencies...) }

// Relation is how a passenger or contact is related to the member, with
// its name in one language.
type Relation struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// RelationCodes are the relations in display order; their names are the
// catalogue keys "relation.<code>".
var RelationCodes = []string{"spouse", "child", "parent", "sibling", "grandparent", "grandchild", "relative", "friend", "colleague", "other"}

// Relations returns the relations named by t (the catalogue in one language).
func Relations(t func(key string) string) []Relation {
	out := make([]Relation, 0, len(RelationCodes))
	for _, c := range RelationCodes {
		out = append(out, Relation{Code: c, Name: t("relation." + c)})
	}
	return out
}
