package gateway

import "members/internal/i18n"

// The customer pages' text lives in the server catalogues with every other
// text (internal/i18n/messages/gateway.<lang>.json, keys "gateway.…"): a
// key missing in a language falls back to English, and the catalogue tests
// check that all eight languages have every key. The payment apps' names
// are there too ("gateway.method.<method>"), since some are written
// differently in some languages.

// htmlLang is the BCP 47 tag of each product language code.
var htmlLang = map[string]string{"jp": "ja", "en": "en", "sg": "en-SG", "kr": "ko", "cn": "zh-Hans", "tw": "zh-Hant-TW",
	"hk": "zh-Hant-HK", "th": "th"}

// lang returns a product language code as given, or "en".
func lang(l string) string {
	if _, ok := htmlLang[l]; ok {
		return l
	}
	return "en"
}

// pageText translates the pages' keys (without their "gateway." prefix).
type pageText struct{ cat *i18n.Catalog }

// t translates key into l, replacing {name} placeholders with args given
// as name, value pairs.
func (p pageText) t(l, key string, args ...any) string {
	return p.cat.T(i18n.Lang(l), "gateway."+key, args...)
}

// methodName is a payment app's name in l; a method the catalogue does
// not name is shown by its code.
func (p pageText) methodName(l, method string) string {
	key := "gateway.method." + method
	if _, ok := p.cat.Keys(i18n.EN)[key]; !ok {
		return method
	}
	return p.cat.T(i18n.Lang(l), key)
}
