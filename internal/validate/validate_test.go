package validate

import (
	"strings"
	"testing"
)

func TestFirstRuleWins(t *testing.T) {
	e := Errors{}
	e.Required("email", "")
	e.MaxLen("email", "", 100)
	if got := e["email"].Key; got != "validation.required" {
		t.Fatalf("first rule = %q, want validation.required", got)
	}
	if len(e) != 1 {
		t.Fatalf("errors = %v", e)
	}
}

func TestMaxLen(t *testing.T) {
	for _, tt := range []struct {
		s    string
		fail bool
	}{
		{strings.Repeat("a", 100), false},
		{strings.Repeat("a", 101), true},
		{strings.Repeat("あ", 100), false},
	} {
		e := Errors{}
		e.MaxLen("f", tt.s, 100)
		if e.Has("f") != tt.fail {
			t.Errorf("MaxLen(len %d) failed=%v, want %v", len(tt.s), e.Has("f"), tt.fail)
		}
	}
}

func TestPredicates(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) bool
		in   string
		want bool
	}{
		{"email ok", IsEmail, "a.b@example.com", true},
		{"email display name", IsEmail, "A <a@example.com>", false},
		{"email no dot", IsEmail, "a@localhost", false},
		{"email no at", IsEmail, "example.com", false},
		{"latin", IsLatinName, "Anne-Marie O'Neil", true},
		{"latin kana", IsLatinName, "タロウ", false},
		{"latin digits", IsLatinName, "Bob2", false},
		{"latin accent", IsLatinName, "José", false},
		{"4-byte emoji", HasFourByteChars, "abc😀", true},
		{"4-byte kanji", HasFourByteChars, "東京都", false},
		{"digits", IsDigits, "0312345678", true},
		{"digits hyphen", IsDigits, "03-1234", false},
		{"digits empty", IsDigits, "", false},
		{"alnum", IsAlnum, "ABC123", true},
		{"alnum fullwidth", IsAlnum, "ＡＢＣ", false},
		{"alnum symbol", IsAlnum, "AB-1", false},
	}
	for _, tt := range tests {
		if got := tt.fn(tt.in); got != tt.want {
			t.Errorf("%s(%q) = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
}
