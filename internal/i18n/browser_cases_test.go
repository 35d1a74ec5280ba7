package i18n

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The browser-language rule is defined once for both sides: the app's test
// (web/src/i18n/languages.test.ts) reads the same table.
func TestFromBrowserSharedCases(t *testing.T) {
	b, err := os.ReadFile("../../testdata/browser-languages.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Languages []string `json:"languages"`
			Want      Lang     `json:"want"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 10 {
		t.Fatalf("only %d cases", len(table.Cases))
	}
	for _, c := range table.Cases {
		header := strings.Join(c.Languages, ",")
		if got := FromBrowser(header); got != c.Want {
			t.Errorf("FromBrowser(%q) = %s, want %s", header, got, c.Want)
		}
	}
	// q-values order the header the way navigator.languages is ordered.
	if got := FromBrowser("ko;q=0.5,zh-HK;q=0.9,fr"); got != HK {
		t.Errorf("by q-value: got %s, want hk", got)
	}
}
