package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/mail/mailtest"
	"members/internal/points"
	"members/internal/store"
)

// The demo clock is 2026-11-20 15:00 Japan time: the demo vouchers are
// relative to it (one expires 2026-11-30, one 2026-12-31…).

func TestPointsSummary(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		r := c.Get("/api/peachpoints/summary")
		if r.Status != http.StatusOK {
			t.Fatalf("summary = %d %s", r.Status, r.Body)
		}
		var got []struct {
			CurrencyCode, Currency, Group string
			Amount                        int64
		}
		r.JSON(t, &got)
		var order []string
		amounts := map[string]int64{}
		for _, e := range got {
			if len(order) == 0 || order[len(order)-1] != e.CurrencyCode {
				order = append(order, e.CurrencyCode)
			}
			amounts[e.CurrencyCode+"/"+e.Group] = e.Amount
		}
		if strings.Join(order, " ") != "KRW CNY JPY TWD HKD THB SGD" || len(got) != 21 {
			t.Fatalf("order %v (%d entries)", order, len(got))
		}
		want := map[string]int64{
			"JPY/available": 8000, "JPY/expireThisMonth": 3000, "JPY/expireNextMonth": 0,
			"KRW/available": 50000, "KRW/expireNextMonth": 50000,
			"TWD/available": 0, // expired: not available, but reissuable
			"CNY/available": 300, "SGD/available": 5000, "HKD/available": 500, "THB/available": 2000,
		}
		for k, v := range want {
			if amounts[k] != v {
				t.Errorf("%s = %d, want %d", k, amounts[k], v)
			}
		}
		// Member 2 sees only their own.
		r2 := env.Member2(t).Get("/api/peachpoints/summary")
		var got2 []struct {
			CurrencyCode, Group string
			Amount              int64
		}
		r2.JSON(t, &got2)
		for _, e := range got2 {
			if e.Group == "available" && e.Amount != map[string]int64{"KRW": 30000}[e.CurrencyCode] {
				t.Errorf("member 2 %s available = %d", e.CurrencyCode, e.Amount)
			}
		}
		if r := env.Client(t).Get("/api/peachpoints/summary"); r.Status != http.StatusForbidden {
			t.Errorf("anonymous summary = %d", r.Status)
		}
	})
}

func TestPointsSearch(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		type list struct {
			Peachpoints []struct {
				PointNumber, Currency, StatusCode, ExpireDate string
				Balance                                       int64
				Rules                                         []struct{ Type string }
			}
			PerPage, CurrentPage, Total, TotalPages int
		}
		search := func(q string) list {
			t.Helper()
			r := c.Get("/api/peachpoints" + q)
			if r.Status != http.StatusOK {
				t.Fatalf("search %s = %d %s", q, r.Status, r.Body)
			}
			var l list
			r.JSON(t, &l)
			return l
		}
		// Defaults: with a balance, active only: 8 of member 1's 10 vouchers
		// (not the two expired, not the spent one… the spent one has no balance).
		l := search("")
		if l.Total != 7 || len(l.Peachpoints) != 7 || l.PerPage != 10 || l.CurrentPage != 1 || l.TotalPages != 1 {
			t.Fatalf("default search: %+v", l)
		}
		for i := 1; i < len(l.Peachpoints); i++ {
			if l.Peachpoints[i-1].ExpireDate > l.Peachpoints[i].ExpireDate {
				t.Errorf("not sorted by expiry: %+v", l.Peachpoints)
			}
		}
		rules := map[string]bool{}
		for _, p := range l.Peachpoints {
			for _, r := range p.Rules {
				rules[r.Type] = true
			}
		}
		if len(rules) != 3 {
			t.Errorf("rule types shown: %v", rules)
		}
		if l := search("?isOnlyActive=false"); l.Total != 9 {
			t.Errorf("with expired: %d", l.Total)
		}
		if l := search("?isOnlyActive=false&hasBalance=false"); l.Total != 10 {
			t.Errorf("everything: %d", l.Total)
		}
		if l := search("?currencyCode=JPY"); l.Total != 2 {
			t.Errorf("JPY: %d", l.Total)
		}
		if l := search("?expireDate=2026-12-31"); l.Total != 2 {
			t.Errorf("expiring by end of next month: %+v", l)
		}
		if l := search("?travelExpireDate=2027-12-01"); l.Total != 3 {
			t.Errorf("travel until 2027-12-01: %d", l.Total)
		}
		if l := search("?page=2"); len(l.Peachpoints) != 0 || l.Total != 7 || l.CurrentPage != 2 {
			t.Errorf("page 2: %+v", l)
		}
		// Bad conditions are 400 with one message per field.
		for q, field := range map[string]string{"?currencyCode=USD": "currencyCode", "?expireDate=2026-13-01": "expireDate",
			"?travelExpireDate=tomorrow": "travelExpireDate", "?page=0": "page"} {
			r := c.Get("/api/peachpoints" + q)
			if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"`+field+`"`) {
				t.Errorf("%s = %d %s", q, r.Status, r.Body)
			}
		}
		if r := c.Get("/api/peachpoints?hasBalance=maybe"); r.Status != http.StatusBadRequest {
			t.Errorf("bad boolean = %d", r.Status)
		}
		// Paging over more than one page.
		for i := 0; i < 12; i++ {
			if _, _, err := pointsService(t, env).Issue(t.Context(), issueInput("THB", 100)); err != nil {
				t.Fatal(err)
			}
		}
		if l := search("?currencyCode=THB&page=2"); l.Total != 13 || l.TotalPages != 2 || len(l.Peachpoints) != 3 {
			t.Errorf("THB page 2: total %d pages %d len %d", l.Total, l.TotalPages, len(l.Peachpoints))
		}
	})
}

func TestPointsDetailIsTheMembersOnly(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		r := c.Get("/api/peachpoints/vouchers/" + demo.DemoVoucherUsed)
		if r.Status != http.StatusOK {
			t.Fatalf("detail = %d %s", r.Status, r.Body)
		}
		var d struct {
			Peachpoint struct{ StatusCode string }
			Ledger     []struct {
				Kind         string
				Delta        int64
				BalanceAfter int64
			}
		}
		r.JSON(t, &d)
		if d.Peachpoint.StatusCode != "USED" || len(d.Ledger) != 2 || d.Ledger[1].Delta != -1000 || d.Ledger[1].BalanceAfter != 0 {
			t.Errorf("detail: %+v", d)
		}
		other := c.Get("/api/peachpoints/vouchers/" + demo.DemoVoucherMember2)
		missing := c.Get("/api/peachpoints/vouchers/9999999999999999")
		if other.Status != http.StatusNotFound || missing.Status != http.StatusNotFound || string(other.Body) != string(missing.Body) {
			t.Errorf("another member's voucher = %d %s, missing = %d %s", other.Status, other.Body, missing.Status, missing.Body)
		}
		if r := c.Get("/api/peachpoints/vouchers/" + strings.Repeat("1", 200)); r.Status != http.StatusNotFound {
			t.Errorf("long number = %d", r.Status)
		}
	})
}

func TestPointsExpiredInAndTimeline(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		r := c.Get("/api/peachpoints/expired_in?month=2026-11&currencyCode=JPY")
		if r.Status != http.StatusOK || r.Map(t)["amount"] != float64(3000) {
			t.Errorf("expired_in 2026-11 JPY = %d %s", r.Status, r.Body)
		}
		// The expired TWD voucher (reissuable) expired last month.
		if r := c.Get("/api/peachpoints/expired_in?month=2026-10&currencyCode=TWD"); r.Map(t)["amount"] != float64(1000) {
			t.Errorf("expired_in 2026-10 TWD = %s", r.Body)
		}
		for _, q := range []string{"", "?month=2026-1&currencyCode=JPY", "?month=2026-11&currencyCode=EUR", "?month=2026-11"} {
			if r := c.Get("/api/peachpoints/expired_in" + q); r.Status != http.StatusBadRequest {
				t.Errorf("expired_in%s = %d", q, r.Status)
			}
		}
		var tl struct {
			Months []struct {
				Month       string
				Peachpoints []struct{ PointNumber string }
			}
		}
		c.Get("/api/peachpoints/timeline").JSON(t, &tl)
		if len(tl.Months) < 5 || tl.Months[0].Month != "2026-09" {
			t.Fatalf("timeline: %+v", tl)
		}
		n := 0
		for i, m := range tl.Months {
			n += len(m.Peachpoints)
			if i > 0 && tl.Months[i-1].Month >= m.Month {
				t.Errorf("months out of order: %+v", tl.Months)
			}
		}
		if n != 9 { // every voucher with a balance, expired ones included
			t.Errorf("timeline has %d vouchers", n)
		}
	})
}

func TestPointsReissue(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		env := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
		c := env.Member(t)
		body := map[string]any{"pointNumber": " " + demo.DemoVoucherExpiredTW + " ", "pin": demo.DemoVoucherPin, "email": " DEMO@example.com "}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for kk, vv := range body {
				m[kk] = vv
			}
			m[k] = v
			return m
		}
		// 400s: field rules, wrong PIN, a voucher not expired, another member's, a JPY one.
		for name, tc := range map[string]struct {
			body  map[string]any
			field string
		}{
			"empty number":               {with("pointNumber", ""), "pointNumber"},
			"long pin":                   {with("pin", strings.Repeat("1", 101)), "pin"},
			"bad email":                  {with("email", "hanako@"), "email"},
			"not the registered address": {with("email", "thief@example.net"), "email"},
			"wrong pin":                  {with("pin", "00000000"), "pin"},
			"not expired":                {with("pointNumber", demo.DemoVoucherCNY), "pointNumber"},
			"other member":               {with("pointNumber", demo.DemoVoucherMember2), "pin"},
			"not CNY/TWD":                {with("pointNumber", demo.DemoVoucherThisMonth), "pointNumber"},
			"unknown":                    {with("pointNumber", "123"), "pin"},
		} {
			r := c.Do(http.MethodPost, "/api/peachpoints/reissue/validate", tc.body)
			if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"`+tc.field+`"`) {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
			}
		}
		// The PIN goes to the registered address only: another typed at
		// the reissue itself is a field error in the member's language,
		// and nothing is issued or mailed.
		c.Lang = "jp"
		if r := c.Do(http.MethodPost, "/api/peachpoints/reissue/reissue", with("email", "thief@example.net")); r.Status != http.StatusBadRequest ||
			!strings.Contains(string(r.Body), "会員登録されているメールアドレス") || !strings.Contains(string(r.Body), `"email"`) {
			t.Fatalf("reissue to another address = %d %s", r.Status, r.Body)
		}
		c.Lang = "en"
		if n := count(t, env, `SELECT COUNT(*) FROM point_vouchers WHERE reissued_from IS NOT NULL`); n != 0 {
			t.Fatalf("%d vouchers reissued for another address", n)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'thief@example.net'`); n != 0 {
			t.Fatalf("%d mails to another address", n)
		}
		if r := c.Do(http.MethodPost, "/api/peachpoints/reissue/validate", body); r.Status != http.StatusOK {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		r := c.Do(http.MethodPost, "/api/peachpoints/reissue/reissue", body)
		if r.Status != http.StatusOK {
			t.Fatalf("reissue = %d %s", r.Status, r.Body)
		}
		var res struct {
			Peachpoint struct {
				PointNumber, StatusCode, Currency string
				Balance                           int64
			}
			Pin, ErrorKey string
		}
		r.JSON(t, &res)
		if res.Peachpoint.Balance != 1000 || res.Peachpoint.Currency != "TWD" || res.Peachpoint.StatusCode != "ACTIVE" || len(res.Pin) != 8 || res.ErrorKey != "" {
			t.Errorf("reissue result %+v", res)
		}
		d := srv.WaitFor(apitest.DemoEmail).Decode(t)
		if !strings.Contains(string(d.Parts["text/plain"]), res.Peachpoint.PointNumber) || !strings.Contains(string(d.Parts["text/plain"]), res.Pin) {
			t.Errorf("reissue mail lacks number or PIN: %s", d.Parts["text/plain"])
		}
		// The old voucher points to the new one; the balance moved by the ledger.
		var old struct {
			Peachpoint struct {
				StatusCode, CurrentCode string
				Balance                 int64
			}
			Ledger []struct{ Kind string }
		}
		c.Get("/api/peachpoints/vouchers/"+demo.DemoVoucherExpiredTW).JSON(t, &old)
		if old.Peachpoint.StatusCode != "REISSUED" || old.Peachpoint.CurrentCode != res.Peachpoint.PointNumber || old.Peachpoint.Balance != 0 ||
			len(old.Ledger) != 2 || old.Ledger[1].Kind != "reissue_out" {
			t.Errorf("old voucher: %+v", old)
		}
		// The new PIN works on the new voucher (it is hashed, not stored
		// plain: a keyed HMAC; the demo voucher's PIN was an argon2id hash
		// of before, and it still verified above).
		var pinHash string
		pins, herr := env.App.SecretHasher(t.Context(), app.Config{})
		if err := env.App.DB.QueryRow(`SELECT pin_hash FROM point_vouchers WHERE number = $1`, res.Peachpoint.PointNumber).Scan(&pinHash); err != nil || herr != nil ||
			strings.Contains(pinHash, res.Pin) || !strings.HasPrefix(pinHash, "$hmac-sha256$") || !pins.Verify(res.Pin, pinHash) {
			t.Errorf("pin stored as %q (%v %v)", pinHash, err, herr)
		}
		// Twice: cancelled, no second voucher.
		r = c.Do(http.MethodPost, "/api/peachpoints/reissue/reissue", body)
		if r.Status != http.StatusInternalServerError || r.Map(t)["errorKey"] != "voucher_reissue_error" {
			t.Errorf("second reissue = %d %s", r.Status, r.Body)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM point_vouchers WHERE reissued_from IS NOT NULL`); n != 1 {
			t.Errorf("%d reissued vouchers", n)
		}

		// Concurrent reissues of the CNY voucher: one new voucher.
		cny := with("pointNumber", demo.DemoVoucherExpiredCN)
		statuses := concurrently(20, func() int { return c.Do(http.MethodPost, "/api/peachpoints/reissue/reissue", cny).Status })
		if statuses[http.StatusOK] != 1 || statuses[http.StatusInternalServerError] != 19 {
			t.Errorf("parallel reissues: %v", statuses)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM point_vouchers WHERE reissued_from IS NOT NULL`); n != 2 {
			t.Errorf("%d reissued vouchers after the parallel ones", n)
		}
	})
}

// TestPointsReissueOnItsCurrencyPage: the CNY page (currencyCode CNY)
// refuses a TWD voucher with a message that names the voucher's currency,
// and reissues nothing; the TWD page takes it. A currency with no reissue
// page is a field error.
func TestPointsReissueOnItsCurrencyPage(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		body := func(currency string) map[string]any {
			return map[string]any{"pointNumber": demo.DemoVoucherExpiredTW, "pin": demo.DemoVoucherPin, "email": apitest.DemoEmail, "currencyCode": currency}
		}
		for _, path := range []string{"/api/peachpoints/reissue/validate", "/api/peachpoints/reissue/reissue"} {
			r := c.Do(http.MethodPost, path, body("CNY"))
			if f := fieldErrors(t, r); r.Status != http.StatusBadRequest || len(f["pointNumber"]) != 1 ||
				f["pointNumber"][0] != "These points are in TWD. Reissue them on the TWD reissue page." {
				t.Errorf("%s on the CNY page = %d %v", path, r.Status, f)
			}
		}
		if f := fieldErrors(t, c.Do(http.MethodPost, "/api/peachpoints/reissue/validate", body("JPY"))); len(f["currencyCode"]) != 1 {
			t.Errorf("JPY page = %v", f)
		}
		if r := c.Do(http.MethodPost, "/api/peachpoints/reissue/reissue", body("TWD")); r.Status != http.StatusOK {
			t.Errorf("on the TWD page = %d %s", r.Status, r.Body)
		}
	})
}

func TestPointsReissueMailFailure(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		env := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
		c := env.Member(t)
		srv.Stop()
		r := c.Do(http.MethodPost, "/api/peachpoints/reissue/reissue",
			map[string]any{"pointNumber": demo.DemoVoucherExpiredCN, "pin": demo.DemoVoucherPin, "email": apitest.DemoEmail})
		if r.Status != http.StatusOK || r.Map(t)["errorKey"] != "mobile_mail_error" || r.Map(t)["pin"] == "" {
			t.Errorf("reissue with mail down = %d %s", r.Status, r.Body)
		}
	})
}

func TestPointsExchange(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		post := func(path string, body map[string]any) *apitest.Response {
			t.Helper()
			return c.Do(http.MethodPost, "/api/peachpoints/exchange/"+path, body)
		}
		other := map[string]any{"code": "  democode2026 ", "password": " " + demo.DemoCodePassword + " ", "ana": false}
		ana := map[string]any{"code": demo.DemoCodeAna, "password": demo.DemoCodePassword, "ana": true}
		// Field rules.
		if r := post("validate", map[string]any{"code": " ", "password": ""}); r.Status != http.StatusBadRequest ||
			!strings.Contains(string(r.Body), "Enter the conversion code") || !strings.Contains(string(r.Body), `"password"`) {
			t.Errorf("empty = %d %s", r.Status, r.Body)
		}
		// Mismatch: wrong password, unknown code, and a code of the other kind.
		for name, b := range map[string]map[string]any{
			"wrong password": {"code": demo.DemoCodeOther, "password": "nope"},
			"unknown code":   {"code": "NOSUCHCODE", "password": demo.DemoCodePassword},
			"ana on other":   {"code": demo.DemoCodeAna, "password": demo.DemoCodePassword, "ana": false},
			"other on ana":   {"code": demo.DemoCodeOther, "password": demo.DemoCodePassword, "ana": true},
		} {
			if r := post("validate", b); r.Status != http.StatusInternalServerError || r.Map(t)["errorKey"] != "peachpoint_exchange_mismatch_error" {
				t.Errorf("%s = %d %s", name, r.Status, r.Body)
			}
		}
		r := post("validate", other)
		if r.Status != http.StatusOK || r.Map(t)["amount"] != float64(3000) || r.Map(t)["currencyCode"] != "JPY" {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		r = post("exchange", other)
		var res struct {
			Peachpoint struct {
				PointNumber string
				Balance     int64
			}
			Pin string
		}
		r.JSON(t, &res)
		if r.Status != http.StatusOK || res.Peachpoint.Balance != 3000 || len(res.Pin) != 8 {
			t.Fatalf("exchange = %d %s", r.Status, r.Body)
		}
		if d := c.Get("/api/peachpoints/vouchers/" + res.Peachpoint.PointNumber); d.Status != http.StatusOK {
			t.Errorf("new voucher not the member's: %d", d.Status)
		}
		// Used: the error key of a failed exchange, at both steps.
		for _, step := range []string{"validate", "exchange"} {
			// ...with a message that says the code was used, not "an error occurred"
			if r := post(step, other); r.Status != http.StatusInternalServerError || r.Map(t)["errorKey"] != "peachpoint_exchange_error" ||
				r.Map(t)["message"] != "This code has already been exchanged. If you exchanged it, its points are in your holdings under Points." {
				t.Errorf("used code %s = %d %s", step, r.Status, r.Body)
			}
		}
		// Partner miles.
		if r := post("exchange", ana); r.Status != http.StatusOK {
			t.Errorf("ana exchange = %d %s", r.Status, r.Body)
		}
		// A code is used once under 20 parallel requests (by two members).
		codes := makeCodes(t, env, "JPY", 2000, 1, false)
		code := map[string]any{"code": codes[0][0], "password": codes[0][1]}
		c2 := env.Member2(t)
		var turn atomic.Int32
		statuses := concurrently(20, func() int {
			cl := c
			if turn.Add(1)%2 == 0 {
				cl = c2
			}
			return cl.Do(http.MethodPost, "/api/peachpoints/exchange/exchange", code).Status
		})
		if statuses[http.StatusOK] != 1 || statuses[http.StatusInternalServerError] != 19 {
			t.Errorf("parallel exchanges: %v", statuses)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM point_vouchers v JOIN point_exchange_codes c ON c.id = v.exchange_code_id WHERE c.code = '`+codes[0][0]+`'`); n != 1 {
			t.Errorf("%d vouchers from one code", n)
		}
	})
}

func TestPointsGuessingIsLimited(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		// 45 guesses at once: 40 are checked, the rest refused.
		var i atomic.Int32
		statuses := concurrently(45, func() int {
			return c.Do(http.MethodPost, "/api/peachpoints/exchange/validate",
				map[string]any{"code": demo.DemoCodeOther, "password": fmt.Sprint("guess", i.Add(1))}).Status
		})
		if statuses[http.StatusTooManyRequests] != 5 || statuses[http.StatusInternalServerError] != 40 {
			t.Errorf("45 guesses: %v", statuses)
		}
		r := c.Do(http.MethodPost, "/api/peachpoints/exchange/validate", map[string]any{"code": demo.DemoCodeOther, "password": demo.DemoCodePassword})
		if r.Status != http.StatusTooManyRequests {
			t.Errorf("the right password after the limit = %d %s", r.Status, r.Body)
		}
		// Other member unaffected.
		if r := env.Member2(t).Do(http.MethodPost, "/api/peachpoints/exchange/validate", map[string]any{"code": demo.DemoCodeOther, "password": demo.DemoCodePassword}); r.Status != http.StatusOK {
			t.Errorf("member 2 = %d", r.Status)
		}
	})
}

func TestPointsRefusals(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		anon := env.Client(t)
		for _, p := range []string{"/api/peachpoints", "/api/peachpoints/summary", "/api/peachpoints/timeline", "/api/peachpoints/sale_options",
			"/api/peachpoints/vouchers/" + demo.DemoVoucherCNY, "/api/peachpoints/expired_in?month=2026-11&currencyCode=JPY"} {
			if r := anon.Get(p); r.Status != http.StatusForbidden {
				t.Errorf("anonymous %s = %d", p, r.Status)
			}
		}
		c := env.Member(t)
		c.NoCSRF = true
		for _, p := range []string{"reissue/validate", "reissue/reissue", "exchange/validate", "exchange/exchange"} {
			if r := c.Do(http.MethodPost, "/api/peachpoints/"+p, map[string]any{}); r.Status != http.StatusForbidden {
				t.Errorf("no CSRF %s = %d", p, r.Status)
			}
		}
		c.NoCSRF = false
		for _, p := range []string{"reissue/validate", "exchange/exchange"} {
			if r := c.Do(http.MethodPost, "/api/peachpoints/"+p, []byte(`{"code": 5`)); r.Status != http.StatusBadRequest {
				t.Errorf("broken JSON %s = %d", p, r.Status)
			}
			if r := c.Do(http.MethodPost, "/api/peachpoints/"+p, map[string]any{"extra": 1}); r.Status != http.StatusBadRequest {
				t.Errorf("unknown field %s = %d", p, r.Status)
			}
		}
		var opts struct {
			Currencies []struct {
				CurrencyCode string
				Amounts      []int64
			}
		}
		c.Get("/api/peachpoints/sale_options").JSON(t, &opts)
		if len(opts.Currencies) != 7 || opts.Currencies[0].CurrencyCode != "KRW" || len(opts.Currencies[6].Amounts) == 0 {
			t.Errorf("sale options: %+v", opts)
		}
	})
}

func concurrently(n int, f func() int) map[int]int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := map[int]int{}
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s := f()
			mu.Lock()
			out[s]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return out
}

func count(t *testing.T, env *apitest.Env, q string) int {
	t.Helper()
	var n int
	if err := env.App.DB.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func pointsService(t *testing.T, env *apitest.Env) *points.Service {
	t.Helper()
	svc, err := env.App.PointsService(app.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func issueInput(currency string, amount int64) points.IssueInput {
	return points.IssueInput{Email: apitest.DemoEmail, Currency: currency, Amount: amount}
}

// makeCodes makes exchange codes as the operator command does; each is
// {code, password}.
func makeCodes(t *testing.T, env *apitest.Env, currency string, amount int64, n int, ana bool) [][2]string {
	t.Helper()
	cs, err := pointsService(t, env).MakeCodes(t.Context(), points.CodesInput{Currency: currency, Amount: amount, Count: n, Ana: ana})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][2]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, [2]string{c.Code, c.Password})
	}
	return out
}

func TestPointsPurchaseWithTheSandbox(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		pe := &payEnv{Env: env}
		c := env.Member(t)
		tok := pe.Tokenize(t, "4242424242424242", "123")
		body := map[string]any{"nominee": "Hanako Yamada", "currencyCode": "SGD", "amount": 5000, "paymentMethod": "creditCard",
			"creditCardToken": tok["token"], "requestId": newRequestID()}
		bad := map[string]any{"nominee": "山田", "currencyCode": "SGD", "amount": 1234, "paymentMethod": "creditCard", "creditCardToken": tok["token"]}
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", bad); r.Status != http.StatusBadRequest ||
			!contains(string(r.Body), `"nominee"`) || !contains(string(r.Body), `"amount"`) {
			t.Fatalf("validate bad = %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodPost, "/api/peachpoints/buy/validate", body); r.Status != http.StatusOK {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		p := buy(t, c, body)
		done := contSettled(t, c, p.PaymentProcessID)
		var goods points.Goods
		var sec points.Secret
		if err := json.Unmarshal(done.Goods, &goods); err != nil || goods.IssuedCurrencyAmount != 5000 || goods.CurrencyCode != "SGD" || goods.IssuedName != "Hanako Yamada" {
			t.Fatalf("goods %s (%v)", done.Goods, err)
		}
		if err := json.Unmarshal(done.Secret, &sec); err != nil || len(sec.Pin) != 8 {
			// The secret is shown in the first status read after settlement.
			again := status(t, c, p.PaymentProcessID)
			_ = json.Unmarshal(again.Secret, &sec)
			if len(sec.Pin) != 8 {
				t.Fatalf("no PIN: %s / %s", done.Secret, again.Secret)
			}
		}
		if later := status(t, c, p.PaymentProcessID); len(later.Secret) > 0 && contains(string(later.Secret), sec.Pin) {
			t.Errorf("PIN shown twice")
		}
		if r := c.Get("/api/peachpoints/vouchers/" + goods.PointNumber); r.Status != http.StatusOK {
			t.Errorf("bought voucher = %d", r.Status)
		}
		if r := env.Member2(t).Get("/api/peachpoints/vouchers/" + goods.PointNumber); r.Status != http.StatusNotFound {
			t.Errorf("member 2 sees the bought voucher: %d", r.Status)
		}
		// A repeated continue grants nothing more.
		cont(t, c, p.PaymentProcessID)
		if n := count(t, env, `SELECT COUNT(*) FROM point_vouchers WHERE source = 'purchase'`); n != 1 {
			t.Errorf("%d vouchers bought", n)
		}
		// The mail with number and PIN.
		deadline := time.Now().Add(5 * time.Second)
		for {
			var n int
			_ = env.App.DB.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE kind = 'points_issued' AND text_body LIKE $1`, "%"+goods.PointNumber+"%").Scan(&n)
			if n == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no purchase mail with the voucher number")
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}
