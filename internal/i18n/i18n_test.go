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
// gateway's slip page, the slip mail and the web's Pending payments. So
// has the internet banking where the Pay-easy numbers are entered: each
// language names it one way (payEasy), with "Pay-easy" as on the numbers'
// labels, on the slip page, in the slip mail, on the web's slip pages and
// Pending payments; the payment method's short label names the banking
// alone. Other names a language once used (others) appear nowhere.
func TestSlipNumbersOneName(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	payEasy := map[Lang]struct {
		name, banking string
		others        []string
	}{
		EN: {"internet banking (Pay-easy)", "internet banking", []string{" net banking", "internet bank "}},
		SG: {"internet banking (Pay-easy)", "internet banking", []string{" net banking", "internet bank "}},
		JP: {"ネットバンキング（Pay-easy）", "ネットバンキング", []string{"ペイジー", "インターネットバンキング"}},
		KR: {"인터넷 뱅킹(Pay-easy)", "인터넷 뱅킹", []string{"페이지(Pay-easy)"}},
		TW: {"網路銀行（Pay-easy）", "網路銀行", []string{"網上銀行"}},
		HK: {"網上銀行（Pay-easy）", "網上銀行", []string{"網路銀行"}},
		CN: {"网上银行（Pay-easy）", "网上银行", []string{"网络银行"}},
		TH: {"อินเทอร์เน็ตแบงกิ้ง (Pay-easy)", "อินเทอร์เน็ตแบงกิ้ง", []string{"ธนาคารออนไลน์", "แบงก์กิ้ง"}},
	}
	goFiles, err := filepath.Glob("messages/*.json")
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
				Slip     map[string]string `json:"slip"`
				SlipHint string            `json:"slipHint"`
			} `json:"pendingPage"`
			Prepared struct {
				SlipText string `json:"slipText"`
			} `json:"prepared"`
			Wait struct {
				Slip struct {
					Text string `json:"text"`
				} `json:"slip"`
			} `json:"wait"`
			Methods struct {
				ConvenienceStore string `json:"convenienceStore"`
			} `json:"methods"`
		}
		if err := json.Unmarshal(b, &web); err != nil {
			t.Fatal(err)
		}
		// the web's <nobr> marks keep a term on one line; they are not words
		plain := strings.NewReplacer("<nobr>", "", "</nobr>", "").Replace
		web.PendingPage.SlipHint, web.Prepared.SlipText, web.Wait.Slip.Text =
			plain(web.PendingPage.SlipHint), plain(web.Prepared.SlipText), plain(web.Wait.Slip.Text)
		pe, ok := payEasy[lang]
		if !ok {
			t.Fatalf("%s: no name for Pay-easy's banking", lang)
		}
		for where, text := range map[string]string{
			"the slip page":                   c.T(lang, "gateway.slip.intro"),
			"the slip mail":                   c.T(lang, "mail.payment_slip.body"),
			"Pending payments":                web.PendingPage.SlipHint,
			"the web's slip before it is out": web.Prepared.SlipText,
			"the web's slip while it waits":   web.Wait.Slip.Text,
		} {
			if !strings.Contains(text, pe.name) {
				t.Errorf("%s: %s does not name Pay-easy's banking %q: %q", lang, where, pe.name, text)
			}
		}
		if !strings.Contains(web.Methods.ConvenienceStore, pe.banking) {
			t.Errorf("%s: the payment method does not name the banking %q: %q", lang, pe.banking, web.Methods.ConvenienceStore)
		}
		files, err := filepath.Glob("../../web/src/features/*/locales/" + string(lang) + ".json")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, "../../web/src/locales/"+string(lang)+".json")
		for _, f := range goFiles {
			if strings.HasSuffix(f, "."+string(lang)+".json") {
				files = append(files, f)
			}
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, other := range pe.others {
				if strings.Contains(string(b), other) {
					t.Errorf("%s: %s names Pay-easy's banking %q; it is %q", lang, f, other, pe.name)
				}
			}
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
