package points

import (
	"testing"

	"members/internal/i18n"
)

func TestFormatAmount(t *testing.T) {
	for _, c := range []struct {
		minor int64
		cur   string
		lang  i18n.Lang
		want  string
	}{
		{1234567, "JPY", i18n.EN, "1,234,567"},
		{1234567, "JPY", i18n.JP, "1,234,567"},
		{5000, "SGD", i18n.SG, "50.00"},
		{123456, "SGD", i18n.EN, "1,234.56"},
		{50000, "KRW", i18n.KR, "50,000"},
		{0, "THB", i18n.TH, "0"},
	} {
		if got := FormatAmount(c.minor, c.cur, c.lang); got != c.want {
			t.Errorf("FormatAmount(%d, %s, %s) = %q, want %q", c.minor, c.cur, c.lang, got, c.want)
		}
	}
}

func TestParseAmount(t *testing.T) {
	for in, want := range map[string]int64{"1000": 1000, "12.5": 1250, "12.34": 1234} {
		cur := "JPY"
		if in != "1000" {
			cur = "SGD"
		}
		if got, err := ParseAmount(in, cur); err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "0", "-5", "1.5", "abc"} {
		if _, err := ParseAmount(bad, "JPY"); err == nil {
			t.Errorf("ParseAmount(%q) accepted", bad)
		}
	}
}
