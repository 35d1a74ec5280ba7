package httpapi_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/coupon"
	"members/internal/demo"
	"members/internal/mail/mailtest"
	"members/internal/payment"
	"members/internal/platform"
	"members/internal/store"
)

func setFlags(t *testing.T, env *apitest.Env, gp platform.GogoPassStatus, couponPublic bool) {
	t.Helper()
	ctx := context.Background()
	if err := env.App.Platform.Set(ctx, platform.KeyGogoPass, gp); err != nil {
		t.Fatal(err)
	}
	if err := env.App.Platform.Set(ctx, platform.KeyCouponTicket, platform.CouponTicketStatus{IsCouponTicketPublic: couponPublic}); err != nil {
		t.Fatal(err)
	}
}

func fieldErrors(t *testing.T, r *apitest.Response) map[string][]string {
	t.Helper()
	var v struct {
		ValidationErrors map[string][]string `json:"validationErrors"`
	}
	r.JSON(t, &v)
	return v.ValidationErrors
}

func TestPassesHiddenByFlags(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		for _, p := range []string{"/api/gogo_pass", "/api/gogo_pass/applicable", "/api/coupon_ticket"} {
			if r := c.Get(p); r.Status != http.StatusNotFound {
				t.Errorf("%s with the flags off = %d, want 404", p, r.Status)
			}
		}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", map[string]string{"code": "GPX-DEMO-0001", "password": "pass1234"}); r.Status != http.StatusNotFound {
			t.Errorf("exchange with the flags off = %d", r.Status)
		}
		// What a member holds is always shown.
		var held struct {
			GogoPasses []map[string]any `json:"gogoPasses"`
		}
		c.Get("/api/user/gogo_pass").JSON(t, &held)
		if len(held.GogoPasses) != 1 || held.GogoPasses[0]["name"] != "Peach GoGo Pass" || held.GogoPasses[0]["nameAlt"] != "All-you-can-fly pass" {
			t.Errorf("member 1's passes = %+v", held.GogoPasses)
		}
		c2 := env.Member2(t)
		c2.Get("/api/user/gogo_pass").JSON(t, &held)
		if len(held.GogoPasses) != 0 {
			t.Errorf("member 2 sees passes: %+v", held.GogoPasses)
		}
		anon := env.Client(t)
		for _, p := range []string{"/api/user/gogo_pass", "/api/user/coupon_ticket", "/api/gogo_pass"} {
			if r := anon.Get(p); r.Status != http.StatusForbidden {
				t.Errorf("anonymous %s = %d", p, r.Status)
			}
		}
	})
}

func TestGogoPassCatalogueAndMaintenance(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		setFlags(t, env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, false)
		c := env.Member(t)
		c.Lang = "jp"
		var cat struct {
			GogoPasses []struct {
				ID, Name, NameAlt string
				Periods           []struct {
					ID    string
					Price struct{ Happy, Happlus int64 }
				}
			}
			Purchasable, Maintenance bool
		}
		c.Get("/api/gogo_pass").JSON(t, &cat)
		if len(cat.GogoPasses) != 2 || cat.GogoPasses[0].Name != "Peach GoGo パス" || cat.GogoPasses[0].NameAlt != "乗り放題パス" {
			t.Fatalf("catalogue = %+v", cat)
		}
		if p := cat.GogoPasses[0].Periods; len(p) != 2 || p[0].Price.Happy != 49800 || p[0].Price.Happlus != 69800 {
			t.Errorf("periods = %+v", p)
		}
		if !cat.Purchasable || cat.Maintenance {
			t.Errorf("open sale: purchasable %v maintenance %v", cat.Purchasable, cat.Maintenance)
		}
		// 03:30 Japan time: maintenance, in the status call too.
		env.Clock.Set(time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC))
		c = env.Member(t)
		c.Lang = "jp"
		c.Get("/api/gogo_pass").JSON(t, &cat)
		if cat.Purchasable || !cat.Maintenance {
			t.Errorf("03:30 JST: purchasable %v maintenance %v", cat.Purchasable, cat.Maintenance)
		}
		if st := c.Get("/api/gogo_pass_status").Map(t); st["isGogoPassMaintenance"] != true {
			t.Errorf("status at 03:30 JST = %v", st)
		}
		r := c.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", map[string]string{"code": "GPX-DEMO-0001", "password": "pass1234"})
		if m := r.Map(t); r.Status != http.StatusInternalServerError || m["errorKey"] != "gogopass_maintenance_error" || !strings.Contains(m["message"].(string), "午前3時") {
			t.Errorf("exchange in maintenance = %d %s", r.Status, r.Body)
		}
		// The operator lifts it; 05:00 ends it by the clock.
		if err := env.App.Platform.Set(context.Background(), platform.KeyGogoPassMaintenance, platform.MaintenanceOff); err != nil {
			t.Fatal(err)
		}
		if c.Get("/api/gogo_pass").JSON(t, &cat); cat.Maintenance {
			t.Error("maintenance off still closes the sale")
		}
		if err := env.App.Platform.Set(context.Background(), platform.KeyGogoPassMaintenance, platform.MaintenanceAuto); err != nil {
			t.Fatal(err)
		}
		env.Clock.Set(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
		c = env.Member(t)
		if c.Get("/api/gogo_pass").JSON(t, &cat); cat.Maintenance || !cat.Purchasable {
			t.Error("05:00 JST is open again")
		}
		if err := env.App.Platform.Set(context.Background(), platform.KeyGogoPassMaintenance, platform.MaintenanceOn); err != nil {
			t.Fatal(err)
		}
		if c.Get("/api/gogo_pass").JSON(t, &cat); !cat.Maintenance {
			t.Error("maintenance on does not close the sale")
		}
		// A purchase in maintenance: the catalogued key with a 500, as every
		// catalogued key, and the maintenance hours in the message.
		buy := map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus", "paymentMethod": "creditCard", "requestId": "req-maint-1"}
		r = c.Do(http.MethodPost, "/api/gogo_pass/buy/validate", buy)
		if m := r.Map(t); r.Status != http.StatusInternalServerError || m["errorKey"] != "gogopass_maintenance_error" || !strings.Contains(m["message"].(string), "3:00 am") {
			t.Errorf("buy in maintenance = %d %s", r.Status, r.Body)
		}
	})
}

func TestGogoPassLottery(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		var cfg app.Config
		env := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL(); cfg = *c })
		setFlags(t, env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true, IsGogoPassLotteryPhase: true}, false)
		c := env.Member(t)
		var app1 struct {
			Applicable bool
			GogoPasses []struct {
				ID      string
				Periods []struct{ ID string }
			}
			Entries []map[string]any
		}
		c.Get("/api/gogo_pass/applicable").JSON(t, &app1)
		if !app1.Applicable || len(app1.GogoPasses) != 2 || len(app1.Entries) != 0 {
			t.Fatalf("applicable = %+v", app1)
		}
		// In the lottery phase nobody buys before winning.
		if m := c.Get("/api/gogo_pass").Map(t); m["purchasable"] != false {
			t.Errorf("purchasable before the draw: %v", m)
		}
		r := c.Do(http.MethodPost, "/api/gogo_pass/apply/validate", map[string]string{})
		if f := fieldErrors(t, r); r.Status != http.StatusBadRequest || len(f["planId"]) != 1 || len(f["periodId"]) != 1 || len(f["fareType"]) != 1 {
			t.Fatalf("empty entry = %d %s", r.Status, r.Body)
		}
		r = c.Do(http.MethodPost, "/api/gogo_pass/apply/validate", map[string]string{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodCurrent, "fareType": "happy"})
		if f := fieldErrors(t, r); r.Status != http.StatusBadRequest || len(f["periodId"]) != 1 {
			t.Fatalf("a period outside the lottery = %d %s", r.Status, r.Body)
		}
		entry := map[string]string{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus"}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/apply/validate", entry); r.Status != http.StatusOK {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		c.Lang = "th"
		if r := c.Do(http.MethodPost, "/api/gogo_pass/apply", entry); r.Status != http.StatusOK || r.Map(t)["entry"].(map[string]any)["result"] != "pending" {
			t.Fatalf("apply = %d %s", r.Status, r.Body)
		}
		if d := srv.WaitFor(apitest.DemoEmail).Decode(t); !strings.Contains(d.Subject, "Peach GoGo Pass") {
			t.Errorf("entry mail subject %q", d.Subject)
		}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/apply", entry); r.Status != http.StatusConflict {
			t.Fatalf("second entry = %d %s", r.Status, r.Body)
		}

		passes, err := env.App.NewPasses(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := len(srv.Messages())
		d, err := passes.Pass.Draw(context.Background(), "audit-seed", 72*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if d.Seed != "audit-seed" || d.Entrants != 2 || d.Winners != 2 {
			t.Fatalf("draw = %+v (quota 50, two entrants)", d)
		}
		// Every entrant gets the result in the language they entered in.
		deadline := time.Now().Add(5 * time.Second)
		for len(srv.Messages()) < n+2 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		subjects := map[string]string{}
		for _, m := range srv.Messages()[n:] {
			dm := m.Decode(t)
			subjects[m.To[0]] = dm.Subject
		}
		if !strings.Contains(subjects[apitest.DemoEmail], "คุณได้รับสิทธิ์") || !strings.Contains(subjects[apitest.Demo2Email], "당첨") {
			t.Errorf("result mails = %v", subjects)
		}
		if _, err := passes.Pass.Draw(context.Background(), "", 0); err == nil {
			t.Error("a second draw with nothing pending must fail")
		}
		if _, ok, err := passes.Pass.VerifyLastDraw(context.Background()); err != nil || !ok {
			t.Errorf("verify = %v %v", ok, err)
		}
		// Winners may buy within the window, and only then.
		var cat struct {
			Purchasable bool
			Wins        []map[string]any
		}
		c.Get("/api/gogo_pass").JSON(t, &cat)
		if !cat.Purchasable || len(cat.Wins) != 1 {
			t.Errorf("winner after the draw: %+v", cat)
		}
		env.Clock.Advance(73 * time.Hour)
		c = env.Member(t)
		if c.Get("/api/gogo_pass").JSON(t, &cat); cat.Purchasable {
			t.Error("the buying window is over")
		}
	})
}

func TestGogoPassExchange(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		setFlags(t, env, platform.GogoPassStatus{IsGogoPassPublic: true}, false)
		env.Clock.Set(time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)) // 12:00 JST
		c := env.Member(t)
		r := c.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", map[string]string{"code": " ", "password": ""})
		if f := fieldErrors(t, r); r.Status != http.StatusBadRequest || len(f["code"]) != 1 || len(f["password"]) != 1 {
			t.Fatalf("blank = %d %s", r.Status, r.Body)
		}
		r = c.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", map[string]string{"code": "GPX-DEMO-0001", "password": "wrong"})
		if m := r.Map(t); r.Status != http.StatusInternalServerError || m["errorKey"] != "gogopass_exchange_error" || !strings.Contains(m["message"].(string), "contact center") {
			t.Fatalf("wrong password = %d %s", r.Status, r.Body)
		}
		r = c.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", map[string]string{"code": " gpx-demo-0001 ", "password": "pass1234"})
		if m := r.Map(t); r.Status != http.StatusOK || m["fareType"] != "happlus" || m["name"] != "Peach GoGo Pass" {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		r = c.Do(http.MethodPost, "/api/gogo_pass/exchange/exchange", map[string]string{"code": "GPX-DEMO-0001", "password": "pass1234"})
		if r.Status != http.StatusOK {
			t.Fatalf("exchange = %d %s", r.Status, r.Body)
		}
		p := r.Map(t)["purchasedGogoPass"].(map[string]any)
		if p["source"] != "exchange" || !strings.HasPrefix(p["code"].(string), "GP") {
			t.Errorf("pass = %v", p)
		}
		c2 := env.Member2(t)
		if r := c2.Do(http.MethodPost, "/api/gogo_pass/exchange/exchange", map[string]string{"code": "GPX-DEMO-0001", "password": "pass1234"}); r.Status != http.StatusInternalServerError || r.Map(t)["errorKey"] != "gogopass_exchange_error" {
			t.Fatalf("the same code twice = %d %s", r.Status, r.Body)
		}
		var held struct{ GogoPasses []map[string]any }
		if c.Get("/api/user/gogo_pass").JSON(t, &held); len(held.GogoPasses) != 2 {
			t.Errorf("member 1 holds %d passes, want 2", len(held.GogoPasses))
		}
		// Ten attempts per 15 minutes, wrong ones included.
		var last *apitest.Response
		for range 10 {
			last = c2.Do(http.MethodPost, "/api/gogo_pass/exchange/validate", map[string]string{"code": "NOPE", "password": "x"})
		}
		if last.Status != http.StatusTooManyRequests {
			t.Errorf("11th attempt = %d", last.Status)
		}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/exchange/exchange", []byte(`{"code":"x","password":"y","extra":1}`)); r.Status != http.StatusBadRequest {
			t.Errorf("unknown field = %d", r.Status)
		}
	})
}

func passenger(typ, birth string) map[string]string {
	return map[string]string{
		"passengerType": typ, "lastname": "Lee", "firstname": "Mina", "gender": "female", "dateOfBirth": birth,
		"nationalityCode": "KR", "passportNo": "M1234567", "dateOfEntry": "2026-12-03", "inboundTransportMethod": "air", "inboundFlightNo": "MM702",
	}
}

func TestCouponPrepareAndAgeRules(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		setFlags(t, env, platform.GogoPassStatus{}, true)
		c := env.Member(t)
		var products struct {
			CouponTickets []struct {
				ID      string
				Periods []struct {
					ID                     string
					AvailablePeriodToBoard struct{ Begin string }
				}
			}
		}
		c.Get("/api/coupon_ticket").JSON(t, &products)
		if len(products.CouponTickets) != 2 {
			t.Fatalf("products = %+v", products)
		}
		first := products.CouponTickets[0].Periods[0].AvailablePeriodToBoard.Begin // 2026-12-04 (today + 14, Japan time)
		firstDay, _ := time.Parse("2006-01-02", first)
		before2 := firstDay.AddDate(-2, 0, 1).Format("2006-01-02") // turns 2 the day after the first boarding day
		exactly2 := firstDay.AddDate(-2, 0, 0).Format("2006-01-02")
		body := map[string]any{
			"requestId": "req-1", "productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "standard", "agreeTerms": true,
			"additionalPassengers": []any{passenger("adult", "1990-01-01"), passenger("child", before2), passenger("infant", exactly2)},
		}
		r := c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body)
		f := fieldErrors(t, r)
		if r.Status != http.StatusBadRequest || len(f) != 2 ||
			f["additionalPassengers.1.dateOfBirth"][0] != "Passenger 3: children and adults must be 2 years old or over on the first boarding day." ||
			f["additionalPassengers.2.dateOfBirth"][0] != "Passenger 4: infants must be under 2 years old on the first boarding day." {
			t.Fatalf("age rules = %d %v", r.Status, f)
		}
		body["additionalPassengers"] = []any{passenger("adult", "1990-01-01"), passenger("child", exactly2), passenger("infant", before2)}
		body["agreeTerms"] = false
		if f := fieldErrors(t, c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body)); len(f) != 1 || len(f["agreeTerms"]) != 1 {
			t.Fatalf("terms = %v", f)
		}
		body["agreeTerms"] = true
		r = c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body)
		if r.Status != http.StatusOK {
			t.Fatalf("prepare = %d %s", r.Status, r.Body)
		}
		tk := r.Map(t)["couponTicket"].(map[string]any)
		// The member, an adult and a child pay; the infant has no seat.
		if tk["totalPrice"] != float64(3*32800) || tk["totalPassengersCount"] != float64(4) || tk["items"] != float64(3) {
			t.Errorf("ticket = %v", tk)
		}
		r = c.Get("/api/coupon_ticket?request_id=req-1")
		if r.Status != http.StatusOK || r.Map(t)["couponTicket"].(map[string]any)["totalPrice"] != float64(3*32800) {
			t.Errorf("prepared = %d %s", r.Status, r.Body)
		}
		if r := env.Member2(t).Get("/api/coupon_ticket?request_id=req-1"); r.Status != http.StatusNotFound {
			t.Errorf("another member's prepared ticket = %d", r.Status)
		}
		// A purchaser under 12 on the first boarding day is refused.
		if _, err := env.App.DB.ExecContext(context.Background(), `UPDATE members SET birth = $1 WHERE id = $2`,
			firstDay.AddDate(-12, 0, 1).Format("2006-01-02"), demo.Member1); err != nil {
			t.Fatal(err)
		}
		if f := fieldErrors(t, c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body)); len(f["purchaser"]) != 1 {
			t.Errorf("young purchaser = %v", f)
		}
	})
}

// TestCouponTripNeedsAndPeriod: a domestic product (Okinawa) asks no
// passport or entry details and keeps none that are sent; an international
// one (Kansai) requires them. A period not on sale is an error of the
// period field, worded for it, with no passenger position.
func TestCouponTripNeedsAndPeriod(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		setFlags(t, env, platform.GogoPassStatus{}, true)
		c := env.Member(t)
		var products struct {
			CouponTickets []struct {
				ID            string
				International bool
			}
		}
		c.Get("/api/coupon_ticket").JSON(t, &products)
		intl := map[string]bool{}
		for _, p := range products.CouponTickets {
			intl[p.ID] = p.International
		}
		if !intl[demo.DemoCouponKansai] || intl[demo.DemoCouponOkinawa] {
			t.Fatalf("international flags = %v", intl)
		}
		bare := map[string]string{"passengerType": "adult", "lastname": "Lee", "firstname": "Mina", "gender": "female", "dateOfBirth": "1990-01-01"}
		body := map[string]any{
			"requestId": "req-dom", "productId": demo.DemoCouponOkinawa, "periodId": demo.DemoCouponPeriodOka, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{bare, passenger("adult", "1991-02-02")},
		}
		r := c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body)
		if r.Status != http.StatusOK {
			t.Fatalf("domestic prepare = %d %s", r.Status, r.Body)
		}
		tk := r.Map(t)["couponTicket"].(map[string]any)
		if tk["international"] != false {
			t.Errorf("ticket international = %v", tk["international"])
		}
		for i, p := range tk["additionalPassengers"].([]any) {
			if pp := p.(map[string]any); pp["passportNo"] != "" || pp["dateOfEntry"] != "" || pp["nationalityCode"] != "" {
				t.Errorf("domestic passenger %d keeps entry details: %v", i, pp)
			}
		}
		body["requestId"], body["productId"], body["periodId"] = "req-intl", demo.DemoCouponKansai, demo.DemoCouponPeriodWin
		f := fieldErrors(t, c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body))
		for _, field := range []string{"passportNo", "dateOfEntry", "nationalityCode", "inboundTransportMethod", "inboundFlightNo"} {
			if got := f["additionalPassengers.0."+field]; len(got) != 1 || got[0] != "Passenger 2: this field is required." {
				t.Errorf("international %s = %v", field, got)
			}
		}
		body["periodId"] = "gone"
		c.Lang = "jp"
		f = fieldErrors(t, c.Do(http.MethodPost, "/api/coupon_ticket/buy/prepare", body))
		if got := f["periodId"]; len(got) != 1 || got[0] != "この期間は販売を終了しました。別の期間を選んでください。" {
			t.Errorf("period error = %v", f)
		}
	})
}

// recordingRefunder stands in for the payment engine's Refund (the gateway
// call is the engine's, tested there).
type recordingRefunder struct {
	calls []int64
	fail  error
}

func (r *recordingRefunder) Refund(_ context.Context, _, _ string, amount int64, _ string) error {
	if r.fail != nil {
		return r.fail
	}
	r.calls = append(r.calls, amount)
	return nil
}

func TestCouponGrantViewAndRefund(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		setFlags(t, env, platform.GogoPassStatus{}, true)
		ref := &recordingRefunder{fail: errors.New("gateway down")}
		passes, err := env.App.NewPasses(app.Config{}, ref)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		sale := passes.Coupon.Sale()
		body, _ := json.Marshal(map[string]any{
			"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{passenger("adult", "1990-01-01")}, "paymentMethod": "creditCard", "requestId": "r1",
		})
		var sel coupon.Selection
		if err := json.Unmarshal(body, &sel); err != nil {
			t.Fatal(err)
		}
		order, err := sale.Quote(ctx, demo.Member1, "en", sel)
		if err != nil || order.Amount != 2*19800 || order.Currency != "JPY" {
			t.Fatalf("quote = %+v %v", order, err)
		}
		grant := payment.Grant{ProcessID: "proc-1", MemberID: demo.Member1, Lang: "en", Order: order, SettledAt: env.Clock.Now()}
		var goods payment.Granted
		if err := env.App.DB.Tx(ctx, func(tx *sql.Tx) error {
			goods, err = sale.Grant(ctx, store.UnitOfWork(tx), grant)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(goods.Goods), `"fareType":"happy"`) {
			t.Errorf("goods = %s", goods.Goods)
		}
		// A second grant of the same process fails (UNIQUE payment_process_id).
		if err := env.App.DB.Tx(ctx, func(tx *sql.Tx) error { _, err := sale.Grant(ctx, store.UnitOfWork(tx), grant); return err }); err == nil {
			t.Error("the same process granted twice")
		}
		c := env.Member(t)
		var list struct {
			CouponTickets []struct {
				ID, FareType               string
				RefundFee, RefundAmount    int64
				PurchasedPrice, Items      int64
				Refundable, Disabled       bool
				AvailableNumberOfUse       int
				AvailableDaysAfterFirstUse int
				Passengers                 []map[string]any
				Purchaser                  map[string]string
			}
		}
		c.Get("/api/user/coupon_ticket").JSON(t, &list)
		if len(list.CouponTickets) != 3 {
			t.Fatalf("coupons = %+v", list)
		}
		got := list.CouponTickets[0]
		if got.FareType != "happy" || got.PurchasedPrice != 39600 || got.RefundFee != 18000 || got.RefundAmount != 21600 ||
			!got.Refundable || got.AvailableNumberOfUse != 4 || got.AvailableDaysAfterFirstUse != 7 || len(got.Passengers) != 1 ||
			got.Purchaser["lastname"] != "Yamada" {
			t.Fatalf("granted coupon = %+v", got)
		}
		if r := env.Member2(t).Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": got.ID}); r.Status != http.StatusNotFound {
			t.Errorf("member 2 refunds member 1's coupon = %d", r.Status)
		}
		// The engine knows no process "proc-1": the refund fails cleanly and
		// the coupon stays refundable (the claim is released).
		if r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": got.ID}); r.Status != http.StatusServiceUnavailable {
			t.Errorf("refund of an unknown process = %d %s", r.Status, r.Body)
		}
		if c.Get("/api/user/coupon_ticket").JSON(t, &list); list.CouponTickets[0].Disabled || !list.CouponTickets[0].Refundable {
			t.Errorf("after a failed refund: %+v", list.CouponTickets[0])
		}
		if _, err := passes.Coupon.Refund(ctx, demo.Member1, "en", got.ID); err == nil {
			t.Fatal("a failed gateway refund must fail")
		}
		ref.fail = nil
		done, err := passes.Coupon.Refund(ctx, demo.Member1, "en", got.ID)
		if err != nil || !done.Disabled || len(ref.calls) != 1 || ref.calls[0] != 21600 {
			t.Fatalf("refund = %+v %v calls %v", done, err, ref.calls)
		}
		if _, err := passes.Coupon.Refund(ctx, demo.Member1, "en", got.ID); !errors.Is(err, coupon.ErrAlreadyRefunded) || len(ref.calls) != 1 {
			t.Fatalf("second refund = %v, calls %v", err, ref.calls)
		}
		c.Get("/api/user/coupon_ticket").JSON(t, &list)
		if !list.CouponTickets[0].Disabled || list.CouponTickets[0].Refundable {
			t.Errorf("refunded coupon = %+v", list.CouponTickets[0])
		}
	})
}
