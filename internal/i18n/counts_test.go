package i18n

import (
	"regexp"
	"strings"
	"testing"
)

// A count never breaks from its unit in a server message (mails, pages):
// a no-break space after the number, a word joiner where the unit follows
// without a space (CJK, Hangul, Thai), and Thai "เที่ยวบิน" never broken
// inside; a count with an English plural is a _one/_other pair. PDF texts
// keep plain spaces (their fonts draw no word joiner).
func TestCountsKeepTheirUnit(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	count := regexp.MustCompile(`\{(n|count|days|hours|minutes)\}`)
	spaced := regexp.MustCompile(`\{(n|count|days|hours|minutes)\} [^\s\d({/\-–,.:;!?]`)
	glued := regexp.MustCompile(`\{(n|count|days|hours|minutes)\}[\p{Thai}\p{Hangul}\p{Hiragana}\p{Katakana}\p{Han}]`)
	plural := regexp.MustCompile(`\{(n|count)\}\x{00a0}[a-z]+s\b`)
	for _, l := range Langs {
		keys := c.Keys(l)
		for k, v := range keys {
			if !count.MatchString(v) || strings.Contains(k, ".pdf.") || strings.HasPrefix(k, "mail.flight_change") {
				continue
			}
			if spaced.MatchString(v) || glued.MatchString(v) || strings.Contains(v, "เที่ยวบิน") {
				t.Errorf("%s %s: a count that can break from its unit: %q", l, k, v)
			}
			if (l == EN || l == SG) && plural.MatchString(v) && !(strings.HasSuffix(k, "_other") && keys[strings.TrimSuffix(k, "_other")+"_one"] != "") {
				t.Errorf("%s %s: a plural with no singular beside it: %q", l, k, v)
			}
		}
	}
}
