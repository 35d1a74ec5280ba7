package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/platform"
	"members/internal/store"
)

func sessionInfo(t *testing.T, c *apitest.Client) (logID string, loggedIn bool) {
	t.Helper()
	r := c.Get("/api/session/info")
	if r.Status != http.StatusOK {
		t.Fatalf("session info = %d %s", r.Status, r.Body)
	}
	var v struct {
		SessionLogID string `json:"sessionLogId"`
		LoggedIn     bool   `json:"loggedIn"`
	}
	r.JSON(t, &v)
	return v.SessionLogID, v.LoggedIn
}

func TestSessionEndpoints(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)

		// Anonymous: a log id is there and stable, and a CSRF token comes
		// with the pre-login cookie.
		anonID, in := sessionInfo(t, c)
		if anonID == "" || in {
			t.Fatalf("anonymous info = %q, loggedIn %v", anonID, in)
		}
		if again, _ := sessionInfo(t, c); again != anonID {
			t.Errorf("anonymous log id changed: %q → %q", anonID, again)
		}
		anonToken := c.CSRFToken()
		if anonToken == "" || c.Cookie("members_anon") == "" {
			t.Fatalf("no anonymous CSRF token/cookie")
		}
		if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Fatalf("check without session = %d", r.Status)
		}

		c.Login(apitest.DemoEmail, apitest.DemoPassword)
		logID, in := sessionInfo(t, c)
		if !in || logID == "" || logID == anonID {
			t.Fatalf("after login: log id %q (anon %q), loggedIn %v", logID, anonID, in)
		}
		if c.Cookie("members_anon") != "" {
			t.Errorf("pre-login cookie kept after login")
		}
		if tok := c.CSRFToken(); tok == anonToken || tok == "" {
			t.Errorf("CSRF token not rebound to the session: %q", tok)
		}
		for i := 0; i < 3; i++ {
			if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
				t.Fatalf("check = %d", r.Status)
			}
			if again, _ := sessionInfo(t, c); again != logID {
				t.Fatalf("log id not stable within a session: %q → %q", logID, again)
			}
		}
		if r := c.Do(http.MethodPost, "/api/session/token", nil); r.Status != http.StatusNoContent {
			t.Fatalf("refresh = %d %s", r.Status, r.Body)
		}
		if again, _ := sessionInfo(t, c); again != logID {
			t.Errorf("refresh changed the log id")
		}

		if r := c.Do(http.MethodDelete, "/api/session", nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout = %d %s", r.Status, r.Body)
		}
		if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Fatalf("check after logout = %d", r.Status)
		}
		if r := c.Do(http.MethodPost, "/api/session/token", nil); r.Status != http.StatusForbidden {
			t.Errorf("refresh after logout = %d", r.Status)
		}
		if id, in := sessionInfo(t, c); in || id == "" || id == logID {
			t.Errorf("info after logout = %q loggedIn %v", id, in)
		}

		c.Login(apitest.DemoEmail, apitest.DemoPassword)
		if id2, _ := sessionInfo(t, c); id2 == logID || id2 == "" {
			t.Errorf("log id after re-login = %q, was %q", id2, logID)
		}
		// A second member's session has its own log id.
		if other, _ := sessionInfo(t, env.Member2(t)); other == logID {
			t.Errorf("two sessions share a log id")
		}
	})
}

func TestMasters(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		anon := env.Client(t)
		m := env.Member(t)

		// Which masters need a session.
		for _, tt := range []struct {
			path string
			anon int
		}{
			{"/api/masters/languages", http.StatusOK},
			{"/api/masters/currencies", http.StatusOK},
			{"/api/masters/airports", http.StatusForbidden},
			{"/api/masters/countries", http.StatusForbidden},
		} {
			if r := anon.Get(tt.path); r.Status != tt.anon {
				t.Errorf("anonymous %s = %d, want %d", tt.path, r.Status, tt.anon)
			}
			if r := m.Get(tt.path); r.Status != http.StatusOK {
				t.Errorf("member %s = %d", tt.path, r.Status)
			}
		}

		var langs []struct{ Code, Name string }
		anon.Get("/api/masters/languages").JSON(t, &langs)
		var codes []string
		for _, l := range langs {
			codes = append(codes, l.Code)
			if l.Name == "" {
				t.Errorf("language %s has no name", l.Code)
			}
		}
		if got := strings.Join(codes, " "); got != "jp en sg kr cn tw hk th" {
			t.Errorf("languages = %s", got)
		}

		var airports []struct{ Code, TimeZone, Name, NameAlt string }
		m.Get("/api/masters/airports").JSON(t, &airports)
		codes = codes[:0]
		tz := map[string]string{}
		for _, a := range airports {
			codes = append(codes, a.Code)
			tz[a.Code] = a.TimeZone
		}
		want := "KIX MMB KUH CTS SDJ KIJ NRT HND NGO MYJ FUK OIT NGS KMI KOJ ASJ OKA ISG ICN GMP PUS HKG TPE KHH PVG BKK SIN"
		if got := strings.Join(codes, " "); got != want {
			t.Errorf("airports = %s", got)
		}
		for code, z := range map[string]string{"KIX": "+09:00", "ICN": "+09:00", "HKG": "+08:00", "BKK": "+07:00", "SIN": "+08:00"} {
			if tz[code] != z {
				t.Errorf("time zone of %s = %q, want %q", code, tz[code], z)
			}
		}

		for _, tt := range []struct{ lang, japan string }{
			{"en", "Japan"}, {"jp", "日本"}, {"th", "ญี่ปุ่น"}, {"kr", "일본"},
		} {
			m.Lang = tt.lang
			var countries []struct{ Code, Name string }
			m.Get("/api/masters/countries").JSON(t, &countries)
			if n := len(countries); n < 240 || n > 260 {
				t.Errorf("%s: %d countries, want the ISO 3166 set (~249)", tt.lang, n)
			}
			names := map[string]string{}
			for _, c := range countries {
				names[c.Code] = c.Name
			}
			if names["JP"] != tt.japan {
				t.Errorf("%s: JP = %q, want %q", tt.lang, names["JP"], tt.japan)
			}
		}
		m.Lang = "en"

		var curs []struct {
			Code     string
			Decimals int
		}
		anon.Get("/api/masters/currencies").JSON(t, &curs)
		dec := map[string]int{}
		for _, c := range curs {
			dec[c.Code] = c.Decimals
		}
		if d, ok := dec["SGD"]; !ok || d != 2 {
			t.Errorf("SGD decimals = %d (present %v)", d, ok)
		}
		if dec["JPY"] != 0 {
			t.Errorf("JPY decimals = %d", dec["JPY"])
		}
	})
}

func TestOperatorSwitches(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)
		tests := []struct {
			path, key string
			value     any
			defaults  map[string]any
			after     map[string]any
		}{
			{
				"/api/cookie_consent", platform.KeyCookieConsent,
				platform.CookieConsent{Required: true, AnalyticsTagURL: "https://tags.example.com/a.js"},
				map[string]any{"isCookieConsentRequired": false},
				map[string]any{"isCookieConsentRequired": true, "analyticsTagUrl": "https://tags.example.com/a.js"},
			},
			{
				"/api/topic_banner", platform.KeyTopicBanner,
				platform.TopicBanner{TargetPage: "home", IsActive: true, Message1: "Sale", Message2: "now", Href: "https://example.com/sale"},
				map[string]any{"is_active": false, "message1": ""},
				map[string]any{"is_active": true, "target_page": "home", "message1": "Sale", "message2": "now", "href": "https://example.com/sale"},
			},
			{
				"/api/gogo_pass_status", platform.KeyGogoPass,
				platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassLotteryPhase: true},
				map[string]any{"isGogoPassPublic": false, "isGogoPassPurchasable": false, "isGogoPassLotteryPhase": false},
				map[string]any{"isGogoPassPublic": true, "isGogoPassPurchasable": false, "isGogoPassLotteryPhase": true},
			},
			{
				"/api/coupon_ticket_status", platform.KeyCouponTicket,
				platform.CouponTicketStatus{IsCouponTicketPublic: true},
				map[string]any{"isCouponTicketPublic": false},
				map[string]any{"isCouponTicketPublic": true},
			},
		}
		check := func(path string, want map[string]any) {
			t.Helper()
			r := c.Get(path)
			if r.Status != http.StatusOK {
				t.Fatalf("%s = %d %s", path, r.Status, r.Body)
			}
			got := r.Map(t)
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: %s = %v, want %v (body %s)", path, k, got[k], v, r.Body)
				}
			}
		}
		for _, tt := range tests {
			check(tt.path, tt.defaults)
		}
		for _, tt := range tests {
			if err := env.App.Platform.Set(context.Background(), tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
		}
		for _, tt := range tests {
			check(tt.path, tt.after)
		}
	})
}

func TestOriginAccess(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		type answer struct {
			Enabled bool `json:"restriction_enabled"`
			Allowed bool `json:"allowed_to_call_api"`
			TTL     int  `json:"time_to_live"`
		}
		ask := func() answer {
			t.Helper()
			r := env.Client(t).Get("/api_ext/origin_access_request")
			if r.Status != http.StatusOK {
				t.Fatalf("origin access = %d %s", r.Status, r.Body)
			}
			var a answer
			r.JSON(t, &a)
			return a
		}
		for i := 0; i < 5; i++ {
			if a := ask(); a.Enabled || !a.Allowed || a.TTL <= 0 {
				t.Fatalf("off by default: got %+v", a)
			}
		}
		err := env.App.Platform.Set(context.Background(), platform.KeyOriginAccess,
			platform.OriginAccessConfig{Enabled: true, Limit: 2, WindowSeconds: 60})
		if err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(15 * time.Second) // 45 s left in the current minute window
		for i := 0; i < 2; i++ {
			if a := ask(); !a.Enabled || !a.Allowed {
				t.Fatalf("caller %d refused: %+v", i+1, a)
			}
		}
		a := ask()
		if !a.Enabled || a.Allowed {
			t.Fatalf("third caller admitted: %+v", a)
		}
		if a.TTL < 1 || a.TTL > 45 {
			t.Errorf("time_to_live = %d, want up to the window end (45 s)", a.TTL)
		}
		env.Clock.Advance(time.Duration(a.TTL) * time.Second)
		if a := ask(); !a.Enabled || !a.Allowed {
			t.Fatalf("after the window: %+v", a)
		}
		// Turning it off admits everybody again.
		if err := env.App.Platform.Set(context.Background(), platform.KeyOriginAccess, platform.OriginAccessConfig{}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if a := ask(); a.Enabled || !a.Allowed {
				t.Fatalf("after switching off: %+v", a)
			}
		}
		// A nonsensical setting is refused.
		if err := env.App.Platform.Set(context.Background(), platform.KeyOriginAccess,
			platform.OriginAccessConfig{Enabled: true}); err == nil {
			t.Errorf("enabled with limit 0 accepted")
		}
	})
}

func TestExceptionNotify(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		reports := store.NewReports(env.App.DB)
		count := func() int {
			t.Helper()
			n, err := reports.CountReports(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		c := env.Client(t)
		secret := "TypeError: secret-detail-42"
		body := map[string]string{"name": "TypeError", "message": secret, "stack": "at x", "path": "/account"}

		for _, tt := range []struct {
			name string
			body any
		}{
			{"no name", map[string]string{"message": "m"}},
			{"no message", map[string]string{"name": "n"}},
			{"blank", map[string]string{"name": " ", "message": ""}},
			{"not an object", []byte(`"x"`)},
		} {
			if r := c.Do(http.MethodPost, "/api/exception_notify", tt.body); r.Status != http.StatusBadRequest {
				t.Errorf("%s: status %d %s", tt.name, r.Status, r.Body)
			}
		}
		c.NoCSRF = true
		if r := c.Do(http.MethodPost, "/api/exception_notify", body); r.Status != http.StatusForbidden {
			t.Errorf("without CSRF token: %d", r.Status)
		}
		c.NoCSRF = false
		if n := count(); n != 0 {
			t.Fatalf("refused reports stored: %d", n)
		}

		for i := 1; i <= 11; i++ {
			r := c.Do(http.MethodPost, "/api/exception_notify", body)
			if r.Status != http.StatusNoContent {
				t.Fatalf("report %d: %d %s", i, r.Status, r.Body)
			}
			if len(r.Body) != 0 || strings.Contains(string(r.Body), secret) {
				t.Fatalf("report echoed: %s", r.Body)
			}
		}
		if n := count(); n != 10 {
			t.Errorf("stored %d reports, want 10 (rate limit per address per minute)", n)
		}
		env.Clock.Advance(time.Minute)
		if r := c.Do(http.MethodPost, "/api/exception_notify", body); r.Status != http.StatusNoContent {
			t.Fatalf("next minute: %d", r.Status)
		}
		if n := count(); n != 11 {
			t.Errorf("after a minute: %d reports, want 11", n)
		}
		// A logged-in member can report too.
		if r := env.Member(t).Do(http.MethodPost, "/api/exception_notify", body); r.Status != http.StatusNoContent {
			t.Errorf("member report: %d", r.Status)
		}
	})
}
