package gateway_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	stdpng "image/png"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	qr "github.com/piglig/go-qr"

	"members/internal/apitest"
	"members/internal/store"
)

// page GETs a customer page.
func (g *gw) page(path string) (int, string, http.Header) {
	g.t.Helper()
	res, err := g.client.Get(g.URL + path)
	if err != nil {
		g.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// submit posts a page form as the browser does (same origin).
func (g *gw) submit(path, action string) *http.Response {
	g.t.Helper()
	req, _ := http.NewRequest("POST", g.URL+path, strings.NewReader(url.Values{"action": {action}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := g.client.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	res.Body.Close()
	return res
}

const returnURL = "https://members.example.com/payment/return"

func TestChallengePage(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		for _, tc := range []struct {
			action, status, failure string
		}{{"approve", "authorized", ""}, {"fail", "failed", "authentication_failed"}} {
			p := g.action(g.create("card", g.tokenize("4000000000003220"), 2500).ID, "authorize", nil, 200)
			path := strings.TrimPrefix(p.NextAction.URL, g.URL)
			st, body, hdr := g.page(path + "?lang=jp")
			if st != 200 || !strings.Contains(body, "お支払いの確認") || !strings.Contains(body, "承認する") ||
				!strings.Contains(body, "2,500円") || !strings.Contains(body, "Visa •••• 3220") || !strings.Contains(body, `lang="ja"`) {
				t.Fatalf("challenge page: %d %s", st, body)
			}
			if !strings.Contains(hdr.Get("Content-Security-Policy"), "form-action 'self' https://members.example.com") ||
				hdr.Get("X-Frame-Options") != "DENY" {
				t.Fatalf("headers %v", hdr)
			}
			// A cross-site form post is refused.
			req, _ := http.NewRequest("POST", g.URL+path, strings.NewReader("action=approve"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "cross-site")
			res, err := g.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 403 || g.get(p.ID).Status != "requires_action" {
				t.Fatalf("cross-site post: %d, status %s", res.StatusCode, g.get(p.ID).Status)
			}
			res = g.submit(path+"?lang=jp", tc.action)
			if res.StatusCode != 303 || res.Header.Get("Location") != returnURL+"?paymentId="+p.ID {
				t.Fatalf("%s: %d → %s", tc.action, res.StatusCode, res.Header.Get("Location"))
			}
			got := g.get(p.ID)
			if got.Status != tc.status || got.FailureCode != tc.failure || got.NextAction != nil {
				t.Fatalf("%s: %+v", tc.action, got)
			}
			// A second click changes nothing and still goes back to the shop.
			res = g.submit(path, "approve")
			if res.StatusCode != 303 || g.get(p.ID).Status != tc.status {
				t.Fatalf("second click: %d %s", res.StatusCode, g.get(p.ID).Status)
			}
			// The page now tells where the payment stands.
			if _, body, _ := g.page(path); !strings.Contains(body, "Return to the shop") {
				t.Fatalf("finished page: %s", body)
			}
		}
		if st, body, _ := g.page("/challenge/pay_nope?lang=kr"); st != 404 || !strings.Contains(body, "존재하지") {
			t.Fatalf("unknown: %d %s", st, body)
		}
	})
}

func TestQRAndSlipPages(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		names := map[string]string{"rakuten_pay": "Rakuten Pay", "paypay": "PayPay", "d_payment": "d Payment",
			"wechat": "WeChat Pay", "alipay": "Alipay", "unionpay": "UnionPay"}
		for method, name := range names {
			p := g.action(g.create(method, "", 1000).ID, "authorize", nil, 200)
			if p.Status != "pending" || p.NextAction == nil || p.NextAction.URL != g.URL+"/pay/"+p.ID {
				t.Fatalf("%s: %+v", method, p)
			}
			st, body, _ := g.page("/pay/" + p.ID + "?lang=xx")
			if st != 200 || !strings.Contains(body, "Pay with "+name) || !strings.Contains(body, `src="/gateway/pay/`+p.ID+`/qr.png?lang=en"`) {
				t.Fatalf("%s page: %d %s", method, st, body)
			}
			st, png, hdr := g.page("/pay/" + p.ID + "/qr.png?lang=en")
			if st != 200 || hdr.Get("Content-Type") != "image/png" || !bytes.HasPrefix([]byte(png), []byte("\x89PNG")) {
				t.Fatalf("%s qr: %d %s", method, st, hdr)
			}
			// the code opens the pay page itself when scanned
			img, err := stdpng.Decode(strings.NewReader(png))
			if err != nil {
				t.Fatalf("%s qr: %v", method, err)
			}
			// the code opens the pay page itself, in the page's language
			if text, err := qr.Decode(img); err != nil || text != p.NextAction.URL+"?lang=en" {
				t.Fatalf("%s qr reads %q (%v), want %q", method, text, err, p.NextAction.URL+"?lang=en")
			}
		}
		// Pay now settles straight to captured and goes back to the shop.
		p := g.action(g.create("paypay", "", 1000).ID, "authorize", nil, 200)
		if res := g.submit("/pay/"+p.ID, "pay"); res.StatusCode != 303 || g.get(p.ID).Status != "captured" {
			t.Fatalf("pay: %d %s", res.StatusCode, g.get(p.ID).Status)
		}
		p = g.action(g.create("alipay", "", 1000).ID, "authorize", nil, 200)
		if res := g.submit("/pay/"+p.ID, "cancel"); res.StatusCode != 303 || g.get(p.ID).FailureCode != "payment_failed" {
			t.Fatalf("cancel: %d %+v", res.StatusCode, g.get(p.ID))
		}

		// The konbini slip: numbers that stay the same, a deadline 3 days
		// away (a slip is paid at a shop or a bank), pay later keeps it pending.
		p = g.action(g.create("konbini", "", 4321).ID, "authorize", nil, 200)
		st, body, _ := g.page("/pay/" + p.ID + "?lang=th")
		if st != 200 || !strings.Contains(body, "ใบแจ้งชำระเงิน") || !strings.Contains(body, "58191") || !strings.Contains(body, "JPY 4,321") ||
			!strings.Contains(body, "23 พ.ย. 2569 15:00 (เวลาญี่ปุ่น)") {
			t.Fatalf("slip: %d %s", st, body)
		}
		if _, again, _ := g.page("/pay/" + p.ID + "?lang=th"); again != body {
			t.Fatal("the slip changed between visits")
		}
		if res := g.submit("/pay/"+p.ID, "later"); res.StatusCode != 303 || g.get(p.ID).Status != "pending" {
			t.Fatalf("later: %d %s", res.StatusCode, g.get(p.ID).Status)
		}
		if res := g.submit("/pay/"+p.ID, "pay"); res.StatusCode != 303 || g.get(p.ID).Status != "captured" {
			t.Fatalf("pay slip: %d %s", res.StatusCode, g.get(p.ID).Status)
		}
	})
}

func TestPagesInEveryLanguage(t *testing.T) {
	g := newGateway(t, store.SQLite)
	p := g.action(g.create("card", g.tokenize("4000000000003220"), 2500).ID, "authorize", nil, 200)
	want := map[string]string{"jp": "承認する", "en": "Approve", "sg": "Approve", "kr": "승인", "cn": "批准", "tw": "核准", "hk": "批准", "th": "อนุมัติ"}
	for l, w := range want {
		if _, body, _ := g.page("/challenge/" + p.ID + "?lang=" + l); !strings.Contains(body, w) {
			t.Errorf("%s: no %q", l, w)
		}
	}
}

// The slip's deadline is written as the language writes dates (Thai with
// the Buddhist-era year), with the time and Japan time named.
func TestSlipDeadlineInTheLanguage(t *testing.T) {
	g := newGateway(t, store.SQLite)
	p := g.action(g.create("konbini", "", 4321).ID, "authorize", nil, 200)
	for l, want := range map[string]string{"en": "Nov 23, 2026 15:00 (Japan time)", "jp": "2026年11月23日 15:00（日本時間）",
		"th": "23 พ.ย. 2569 15:00 (เวลาญี่ปุ่น)", "kr": "2026. 11. 23. 15:00 (일본 시간)", "sg": "23 Nov 2026 15:00 (Japan time)"} {
		_, body, _ := g.page("/pay/" + p.ID + "?lang=" + l)
		if !strings.Contains(body, want) || strings.Contains(body, "2026-11-23") {
			t.Errorf("%s: no %q in %s", l, want, body)
		}
	}
}

// The slip's amount is written as the product writes money in the
// language: yen in Japanese as "4,321円", the code in front elsewhere.
func TestSlipAmountInTheLanguage(t *testing.T) {
	g := newGateway(t, store.SQLite)
	p := g.action(g.create("konbini", "", 4321).ID, "authorize", nil, 200)
	for _, c := range []struct{ lang, want, not string }{
		{"jp", "4,321円", "JPY 4,321"},
		{"en", "JPY 4,321", "4,321円"},
		{"th", "JPY 4,321", "4,321円"},
	} {
		_, body, _ := g.page("/pay/" + p.ID + "?lang=" + c.lang)
		if !strings.Contains(body, c.want) || strings.Contains(body, c.not) {
			t.Errorf("%s: want %q and no %q in %s", c.lang, c.want, c.not, body)
		}
	}
}

// The QR page learns of the outcome from the state URL without a reload:
// its one script is allowed by hash, the state answers pending, then the
// failure in the page's language.
func TestQRPagePollsState(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		g := newGateway(t, engine)
		p := g.action(g.create("paypay", "", 1000).ID, "authorize", nil, 200)
		st, body, hdr := g.page("/pay/" + p.ID + "?lang=jp")
		if st != 200 || !strings.Contains(body, `data-url="/gateway/pay/`+p.ID+`/state?lang=jp"`) ||
			!strings.Contains(body, "自動で切り替わります") || !strings.Contains(body, `id="back" hidden`) {
			t.Fatalf("qr page: %d %s", st, body)
		}
		_, script, ok := strings.Cut(body, "<script>")
		script, _, ok2 := strings.Cut(script, "</script>")
		if !ok || !ok2 {
			t.Fatalf("no script: %s", body)
		}
		sum := sha256.Sum256([]byte(script))
		csp := hdr.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Fatalf("the policy does not allow the page's script: %s", csp)
		}
		state := func() (int, map[string]string, http.Header) {
			st, b, h := g.page("/pay/" + p.ID + "/state?lang=jp")
			var v map[string]string
			if st == 200 {
				if err := json.Unmarshal([]byte(b), &v); err != nil {
					t.Fatal(err)
				}
			}
			return st, v, h
		}
		if st, v, h := state(); st != 200 || v["status"] != "pending" || v["message"] != "" || h.Get("Cache-Control") != "no-store" {
			t.Fatalf("pending state: %d %v %v", st, v, h)
		}
		g.submit("/pay/"+p.ID, "cancel")
		if st, v, _ := state(); st != 200 || v["status"] != "failed" || v["message"] != "このお支払いは完了しませんでした。" {
			t.Fatalf("failed state: %d %v", st, v)
		}
		if st, _, _ := g.page("/pay/pay_nope/state"); st != 404 {
			t.Fatalf("unknown payment state: %d", st)
		}
		// The slip page has no script and no state to poll.
		s := g.action(g.create("konbini", "", 4321).ID, "authorize", nil, 200)
		if _, body, _ := g.page("/pay/" + s.ID + "?lang=en"); strings.Contains(body, "<script") {
			t.Fatalf("slip page with a script: %s", body)
		}
	})
}
