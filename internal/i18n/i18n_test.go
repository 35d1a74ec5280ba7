package i18n

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFromBrowser(t *testing.T) {
	tests := []struct {
		header string
		want   Lang
	}{
		{"zh-TW,zh;q=0.9", TW},
		{"zh-HK", HK},
		{"zh-Hant-HK", HK},
		{"zh-CN", CN},
		{"zh", CN},
		{"zh-SG", CN},
		{"ja-JP,ja;q=0.9,en;q=0.8", JP},
		{"ko", KR},
		{"th-TH", TH},
		{"en-SG", SG},
		{"en-US", EN},
		{"fr-FR", EN},
		{"", EN},
		{"!!!", EN},
	}
	for _, tt := range tests {
		if got := FromBrowser(tt.header); got != tt.want {
			t.Errorf("FromBrowser(%q) = %s, want %s", tt.header, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	if l, ok := Parse("JP"); !ok || l != JP {
		t.Errorf("Parse(JP) = %s %v", l, ok)
	}
	if l, ok := Parse("de"); ok || l != EN {
		t.Errorf("Parse(de) = %s %v, want en false", l, ok)
	}
}

// Every catalogue has every key of English, and no extra ones.
func TestCataloguesComplete(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	en := c.Keys(EN)
	if len(en) == 0 {
		t.Fatal("English catalogue is empty")
	}
	for _, l := range Langs {
		got := c.Keys(l)
		for k := range en {
			if got[k] == "" {
				t.Errorf("%s lacks %q", l, k)
			}
		}
		for k := range got {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q which en lacks", l, k)
			}
		}
	}
}

func TestTPlaceholders(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if got := c.T(EN, "validation.max_length", "max", 100); got != "Enter at most 100 characters." {
		t.Errorf("T = %q", got)
	}
	if got := c.T(JP, "no.such.key"); got != "no.such.key" {
		t.Errorf("unknown key = %q", got)
	}
}

// The coupon product has one Japanese name, クーポンパス (the product's
// title on the site), in the server's catalogues and the app's.
func TestJapaneseCouponPassName(t *testing.T) {
	files, err := filepath.Glob("messages/*.jp.json")
	if err != nil {
		t.Fatal(err)
	}
	web, err := filepath.Glob("../../web/src/features/*/locales/jp.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(web) == 0 {
		t.Fatal("no app catalogue found")
	}
	for _, f := range append(files, web...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "回数券") {
			t.Errorf("%s calls the coupon pass 回数券; it is クーポンパス", f)
		}
	}
}

// A slip's numbers have one name each wherever a member reads them: the
// gateway's slip page, the slip mail and the web's Pending payments.
func TestSlipNumbersOneName(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Langs {
		b, err := os.ReadFile(filepath.Join("../../web/src/features/payment/locales", string(lang)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var web struct {
			PendingPage struct {
				Slip map[string]string `json:"slip"`
			} `json:"pendingPage"`
		}
		if err := json.Unmarshal(b, &web); err != nil {
			t.Fatal(err)
		}
		for _, n := range []struct{ web, page, mail string }{
			{"institutionNumber", "gateway.slip.biller", "payment.slip.institution_number"},
			{"customerNumber", "gateway.slip.customer", "payment.slip.customer_number"},
			{"confirmationNumber", "gateway.slip.confirm", "payment.slip.confirmation_number"},
		} {
			want := web.PendingPage.Slip[n.web]
			if want == "" {
				t.Fatalf("%s: the web has no %s", lang, n.web)
			}
			if got := c.T(lang, n.page); got != want {
				t.Errorf("%s: the slip page names the %s %q, the web %q", lang, n.web, got, want)
			}
			if got := c.T(lang, n.mail); got != want {
				t.Errorf("%s: the mail names the %s %q, the web %q", lang, n.web, got, want)
			}
		}
	}
}
