// Package i18n holds the eight languages of the product and the server's
// message catalogues. Catalogues are JSON files in messages/, one per domain
// and language (<domain>.<lang>.json), so each feature owns its own text.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/text/language"
)

// Lang is one of the product's language codes.
type Lang string

// The product's languages, in display order.
const (
	JP Lang = "jp"
	EN Lang = "en"
	SG Lang = "sg"
	KR Lang = "kr"
	CN Lang = "cn"
	TW Lang = "tw"
	HK Lang = "hk"
	TH Lang = "th"
)

// Default is the language used when nothing else is known.
const Default = EN

// Langs lists every language of the product.
var Langs = []Lang{JP, EN, SG, KR, CN, TW, HK, TH}

// Tag returns the BCP 47 tag of a language (for Intl, PDFs, mail).
func (l Lang) Tag() language.Tag {
	switch l {
	case JP:
		return language.Japanese
	case SG:
		return language.MustParse("en-SG")
	case KR:
		return language.Korean
	case CN:
		return language.SimplifiedChinese
	case TW:
		return language.MustParse("zh-TW")
	case HK:
		return language.MustParse("zh-HK")
	case TH:
		return language.Thai
	default:
		return language.English
	}
}

// BCP47 is the language's tag as the product hands it to other systems
// (Intl in the app, the OpenID Connect locale claim): jp→ja-JP, en→en,
// sg→en-SG, kr→ko-KR, cn→zh-CN, tw→zh-TW, hk→zh-HK, th→th-TH.
func (l Lang) BCP47() string {
	switch l {
	case JP:
		return "ja-JP"
	case SG:
		return "en-SG"
	case KR:
		return "ko-KR"
	case CN:
		return "zh-CN"
	case TW:
		return "zh-TW"
	case HK:
		return "zh-HK"
	case TH:
		return "th-TH"
	default:
		return "en"
	}
}

// FromLocales maps a list of BCP 47 tags in order of preference (the
// ui_locales of an OpenID Connect request) to a product language by the
// browser rule; false when none maps.
func FromLocales(tags []string) (Lang, bool) {
	for _, s := range tags {
		t, err := language.Parse(s)
		if err != nil {
			continue
		}
		if l, ok := fromTag(t); ok {
			return l, true
		}
	}
	return Default, false
}

// Parse returns the language for a code, and false when it is not one of ours.
func Parse(code string) (Lang, bool) {
	l := Lang(strings.ToLower(strings.TrimSpace(code)))
	for _, k := range Langs {
		if k == l {
			return l, true
		}
	}
	return Default, false
}

// FromBrowser maps an Accept-Language header to a product language,
// by the rule shared with the app (testdata/browser-languages.json): the
// first preferred language, by q-value, that maps to one of ours; Chinese
// with an explicit region TW gives tw, HK gives hk, any other Chinese cn
// (zh-Hant and zh-MO included); when nothing maps, en.
func FromBrowser(acceptLanguage string) Lang {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil {
		return Default
	}
	for _, t := range tags {
		if l, ok := fromTag(t); ok {
			return l
		}
	}
	return Default
}

func fromTag(t language.Tag) (Lang, bool) {
	base, _ := t.Base()
	// Only a region written in the tag counts: x/text infers TW for
	// zh-Hant, which the spec's rule does not.
	region := ""
	if r, conf := t.Region(); conf == language.Exact {
		region = r.String()
	}
	switch base.String() {
	case "zh":
		switch region {
		case "TW":
			return TW, true
		case "HK":
			return HK, true
		}
		return CN, true
	case "ja":
		return JP, true
	case "ko":
		return KR, true
	case "th":
		return TH, true
	case "en":
		if region == "SG" {
			return SG, true
		}
		return EN, true
	}
	return Default, false
}

//go:embed messages/*.json
var messageFiles embed.FS

// Catalog translates message keys. It is read-only after New.
type Catalog struct {
	msgs map[Lang]map[string]string
}

// New loads every embedded catalogue.
func New() (*Catalog, error) {
	c := &Catalog{msgs: map[Lang]map[string]string{}}
	for _, l := range Langs {
		c.msgs[l] = map[string]string{}
	}
	files, err := fs.Glob(messageFiles, "messages/*.json")
	if err != nil {
		return nil, fmt.Errorf("i18n: list catalogues: %w", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".json")
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 {
			return nil, fmt.Errorf("i18n: catalogue %s is not named <domain>.<lang>.json", f)
		}
		l, ok := Parse(name[dot+1:])
		if !ok {
			return nil, fmt.Errorf("i18n: catalogue %s has an unknown language", f)
		}
		b, err := messageFiles.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("i18n: read %s: %w", f, err)
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("i18n: parse %s: %w", f, err)
		}
		for k, v := range m {
			c.msgs[l][k] = v
		}
	}
	return c, nil
}

// T translates key into lang, replacing {name} placeholders with args given
// as name, value pairs. An unknown key falls back to English, then to the key.
func (c *Catalog) T(lang Lang, key string, args ...any) string {
	s, ok := c.msgs[lang][key]
	if !ok {
		if s, ok = c.msgs[EN][key]; !ok {
			s = key
		}
	}
	for i := 0; i+1 < len(args); i += 2 {
		s = strings.ReplaceAll(s, "{"+fmt.Sprint(args[i])+"}", fmt.Sprint(args[i+1]))
	}
	return s
}

// Keys returns the keys of one language, for completeness tests.
func (c *Catalog) Keys(lang Lang) map[string]string { return c.msgs[lang] }
