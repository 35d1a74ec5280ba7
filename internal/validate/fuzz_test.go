package validate

import (
	"testing"
	"unicode/utf8"
)

// Fuzz targets (make fuzz runs them longer): the predicates never panic and
// mean what they say.

func FuzzPredicates(f *testing.F) {
	for _, s := range []string{"", "a@b.co", "hanako@example.com", "ｈａｎａｋｏ@example.com", "0312345678", "ABC123",
		"𠮷野家", "Yamada-Taro", "1990-02-30", "2024-02-29", "\x00\xff", "a@b@c", " a@b.co "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if IsDigits(s) {
			for _, r := range s {
				if r < '0' || r > '9' {
					t.Fatalf("IsDigits(%q) with %q", s, r)
				}
			}
		}
		if IsAlnum(s) {
			for _, r := range s {
				if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
					t.Fatalf("IsAlnum(%q) with %q", s, r)
				}
			}
		}
		if HasFourByteChars(s) {
			four := false
			for _, r := range s {
				four = four || utf8.RuneLen(r) == 4
			}
			if !four {
				t.Fatalf("HasFourByteChars(%q) without one", s)
			}
		}
		if IsEmail(s) && (len(s) < 3 || !utf8.ValidString(s)) {
			t.Fatalf("IsEmail(%q)", s)
		}
		_ = IsLatinName(s)
		if d, ok := ParseDate(s); ok && d.Format("2006-01-02") != s {
			t.Fatalf("ParseDate(%q) = %v", s, d)
		}
		e := Errors{}
		if e.Required("f", s) {
			e.MaxLen("f", s, 10)
			e.Email("f", s)
		}
		if len(e) > 1 {
			t.Fatalf("more than one field: %v", e)
		}
	})
}
