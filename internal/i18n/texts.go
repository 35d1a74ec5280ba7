package i18n

import (
	"encoding/json"
	"strings"
)

// Texts are one text in each language: the names and descriptions an
// operator gives the products of the catalogue (members catalogue apply).
//
// A product's name column holds either a message key of the embedded
// catalogues (the demo's products: "pass.plan.all.name") or the texts
// themselves, stored as a JSON object {"jp": "…", "en": "…", …} (Encode).
// Catalog.Text reads both, so every page, mail and payment description
// that translated a product's key shows an operator's texts the same way.
type Texts map[Lang]string

// Encode returns the stored form of the texts: a JSON object with the
// languages in a fixed order (encoding/json sorts a map's keys).
func (t Texts) Encode() string {
	b, err := json.Marshal(t)
	if err != nil { // a map of strings always marshals
		panic(err)
	}
	return string(b)
}

// Equal reports whether both hold the same text in every language.
func (t Texts) Equal(o Texts) bool {
	if len(t) != len(o) {
		return false
	}
	for l, s := range t {
		if v, ok := o[l]; !ok || v != s {
			return false
		}
	}
	return true
}

// DecodeTexts reads a stored value that Encode wrote; false for a message
// key (or anything else that is not a JSON object of texts).
func DecodeTexts(stored string) (Texts, bool) {
	if !strings.HasPrefix(strings.TrimSpace(stored), "{") {
		return nil, false
	}
	var t Texts
	if json.Unmarshal([]byte(stored), &t) != nil {
		return nil, false
	}
	return t, true
}

// Text is the text of a stored product name or description in lang: the
// operator's text in that language (English when it has none), or the
// message key translated.
func (c *Catalog) Text(lang Lang, keyOrTexts string) string {
	if t, ok := DecodeTexts(keyOrTexts); ok {
		if s, ok := t[lang]; ok && s != "" {
			return s
		}
		return t[EN]
	}
	return c.T(lang, keyOrTexts)
}

// TextsOf is the text of a stored name or description in every language
// (the catalogue's export).
func (c *Catalog) TextsOf(keyOrTexts string) Texts {
	if t, ok := DecodeTexts(keyOrTexts); ok {
		return t
	}
	t := Texts{}
	for _, l := range Langs {
		t[l] = c.T(l, keyOrTexts)
	}
	return t
}
