// Package validate collects field errors the way the product reports them:
// one message per field key, the first failing rule wins. Messages are
// translation keys with named arguments; the HTTP layer translates them.
package validate

import (
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Message is a translation key with its arguments (name, value pairs).
type Message struct {
	Key  string
	Args []any
}

// Errors maps a field key to its first failing rule. The key "something"
// means an unknown problem.
type Errors map[string]Message

// Add records msg for field unless the field already has an error.
func (e Errors) Add(field, key string, args ...any) {
	if _, ok := e[field]; ok {
		return
	}
	e[field] = Message{Key: key, Args: args}
}

// Has reports whether field already failed.
func (e Errors) Has(field string) bool { _, ok := e[field]; return ok }

// Empty reports whether no rule failed.
func (e Errors) Empty() bool { return len(e) == 0 }

// Check runs a rule for field only if the field has not failed yet, so
// callers write rules in order and the first failure is kept.
func (e Errors) Check(field string, ok bool, key string, args ...any) {
	if !ok {
		e.Add(field, key, args...)
	}
}

// Required checks that s is not blank; it returns false when it added an error.
func (e Errors) Required(field, s string) bool {
	if strings.TrimSpace(s) == "" {
		e.Add(field, "validation.required")
		return false
	}
	return !e.Has(field)
}

// MaxLen checks that s has at most max characters.
func (e Errors) MaxLen(field, s string, max int) {
	e.Check(field, utf8.RuneCountInString(s) <= max, "validation.max_length", "max", max)
}

// Email checks the address shape.
func (e Errors) Email(field, s string) {
	e.Check(field, IsEmail(s), "validation.email")
}

// IsEmail reports whether s is a bare e-mail address (no display name).
func IsEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndexByte(s, '@'):], ".")
}

var latinName = regexp.MustCompile(`^[A-Za-z][A-Za-z .'\-]*$`)

// IsLatinName reports whether s is written in English (Latin) letters,
// allowing spaces, hyphens, apostrophes and dots between them.
func IsLatinName(s string) bool { return latinName.MatchString(s) }

// HasFourByteChars reports whether s has characters outside the Basic
// Multilingual Plane (emoji and the like), which legacy systems refuse.
func HasFourByteChars(s string) bool {
	for _, r := range s {
		if utf8.RuneLen(r) == 4 {
			return true
		}
	}
	return false
}

// IsDigits reports whether s is non-empty and only ASCII digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// IsAlnum reports whether s is non-empty and only single-byte letters and digits.
func IsAlnum(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// DateLayout is the wire format of calendar dates.
const DateLayout = "2006-01-02"

// ParseDate parses an ISO calendar date strictly.
func ParseDate(s string) (time.Time, bool) {
	t, err := time.Parse(DateLayout, s)
	return t, err == nil
}
