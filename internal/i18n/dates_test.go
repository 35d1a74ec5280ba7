package i18n

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

// The same table as the app's format test (web/src/i18n/format.test.ts).
func TestFormatDateSharedCases(t *testing.T) {
	b, err := os.ReadFile("../../testdata/dates.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Date, Lang, Want, Weekday string
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	for _, c := range table.Cases {
		d, err := time.Parse("2006-01-02", c.Date)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatDate(Lang(c.Lang), d, false); got != c.Want {
			t.Errorf("%s %s = %q, want %q", c.Lang, c.Date, got, c.Want)
		}
		if got := FormatDate(Lang(c.Lang), d, true); got != c.Weekday {
			t.Errorf("%s %s with weekday = %q, want %q", c.Lang, c.Date, got, c.Weekday)
		}
	}
	if got := FormatISODate(TH, "2026-11-22"); got != "22 พ.ย. 2569" {
		t.Errorf("FormatISODate = %q", got)
	}
}
