package i18n

import (
	"encoding/json"
	"os"
	"testing"
)

func readTable(t *testing.T, name string, cases any) {
	t.Helper()
	b, err := os.ReadFile("../../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &struct {
		Cases any `json:"cases"`
	}{cases}); err != nil {
		t.Fatal(err)
	}
}

// The same table as the app's format test (web/src/i18n/format.test.ts).
func TestFormatMoneySharedCases(t *testing.T) {
	var cases []struct {
		Minor          int64
		Currency, Lang string
		Want           string
	}
	readTable(t, "amounts.json", &cases)
	if len(cases) < 10 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		if got := FormatMoney(Lang(c.Lang), c.Minor, c.Currency); got != c.Want {
			t.Errorf("%s %d %s = %q, want %q", c.Lang, c.Minor, c.Currency, got, c.Want)
		}
	}
}

func TestPluralSharedCases(t *testing.T) {
	var cases []struct {
		Lang, Want string
		N          int
	}
	readTable(t, "plurals.json", &cases)
	for _, c := range cases {
		if got := PluralCategory(Lang(c.Lang), c.N); got != c.Want {
			t.Errorf("%s %d = %q, want %q", c.Lang, c.N, got, c.Want)
		}
	}
}

func TestPersonNameSharedCases(t *testing.T) {
	var cases []struct{ Lang, Given, Family, Want string }
	readTable(t, "names.json", &cases)
	for _, c := range cases {
		if got := PersonName(Lang(c.Lang), c.Given, c.Family); got != c.Want {
			t.Errorf("%s %q %q = %q, want %q", c.Lang, c.Given, c.Family, got, c.Want)
		}
	}
}

func TestTNPicksTheFormAndSetsN(t *testing.T) {
	c := &Catalog{msgs: map[Lang]map[string]string{
		EN: {"x_one": "{n} passenger", "x_other": "{n} passengers"},
		JP: {"x_other": "{n}名"},
	}}
	for _, tt := range []struct {
		lang Lang
		n    int
		want string
	}{{EN, 1, "1 passenger"}, {EN, 2, "2 passengers"}, {JP, 1, "1名"}} {
		if got := c.TN(tt.lang, "x", tt.n); got != tt.want {
			t.Errorf("%s %d = %q, want %q", tt.lang, tt.n, got, tt.want)
		}
	}
}
