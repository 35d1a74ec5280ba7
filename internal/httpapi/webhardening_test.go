package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/booking"
	"members/internal/platform"
	"members/internal/store"
)

// directive returns one directive of a Content-Security-Policy.
func directive(csp, name string) string {
	for _, d := range strings.Split(csp, ";") {
		d = strings.TrimSpace(d)
		if strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}

// Scripts and connections come from this site and the configured consent
// and analytics origins only.
func TestContentSecurityPolicy(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		plain := apitest.New(t, engine)
		csp := plain.Client(t).Get("/login").Header.Get("Content-Security-Policy")
		for _, d := range []string{"script-src", "connect-src"} {
			if got := directive(csp, d); got != d+" 'self'" {
				t.Errorf("%s = %q, want only 'self'", d, got)
			}
		}
		if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "object-src 'none'") {
			t.Errorf("CSP %q", csp)
		}

		configured := apitest.New(t, engine, func(c *app.Config) { c.GatewayURL = "https://pay.example.net/gateway" })
		if err := configured.App.Platform.Set(context.Background(), platform.KeyCookieConsent, platform.CookieConsent{
			Required: true, ConsentScriptURL: "https://consent.example.com/v2/banner.js?site=1",
			AnalyticsTagURL: "javascript:alert(1)",
		}); err != nil {
			t.Fatal(err)
		}
		csp = configured.Client(t).Get("/").Header.Get("Content-Security-Policy")
		if got := directive(csp, "script-src"); got != "script-src 'self' https://consent.example.com" {
			t.Errorf("script-src = %q", got)
		}
		if got := directive(csp, "connect-src"); got != "connect-src 'self' https://consent.example.com https://pay.example.net" {
			t.Errorf("connect-src = %q", got)
		}
	})
}

// A missing build file is a 404, not the app page.
func TestMissingAssetIs404(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, store.SQLite)
	c := env.Client(t)
	for _, p := range []string{"/assets/missing-0123abcd.js", "/assets/", "/assets"} {
		if r := c.Get(p); r.Status != http.StatusNotFound || strings.Contains(string(r.Body), "<html") {
			t.Errorf("%s = %d %.60q", p, r.Status, r.Body)
		}
	}
	if r := c.Get("/bookings"); r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("app page = %d %s", r.Status, r.Header.Get("Content-Type"))
	}
}

// A hand-over token is redeemed once by the booking site; a replay, a
// forgery or an expired token is refused.
func TestHandoverTokenSingleUse(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		site := env.Client(t)
		site.NoContract = true // the booking site's own endpoint, outside /api
		issue := func() string {
			r := c.Do(http.MethodPost, "/api/sso/booking", nil)
			if r.Status != http.StatusOK {
				t.Fatalf("hand-over = %d", r.Status)
			}
			return r.Map(t)["token"].(string)
		}
		redeem := func(token string) *apitest.Response {
			site.NoCSRF = true
			defer func() { site.NoCSRF = false }()
			return site.Do(http.MethodPost, app.HandoverRedeemPath, map[string]string{"token": token})
		}
		token := issue()
		// 20 redeemers at once: exactly one gets the claims.
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := redeem(token)
				mu.Lock()
				codes[r.Status]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if codes[http.StatusOK] != 1 || codes[http.StatusNotFound] != 19 {
			t.Fatalf("20 parallel redemptions: %v, want one 200", codes)
		}
		if r := redeem(token); r.Status != http.StatusNotFound {
			t.Errorf("replay = %d", r.Status)
		}
		fresh := issue()
		r := redeem(fresh)
		if r.Status != http.StatusOK || r.Map(t)["sub"] == "" || r.Map(t)["jti"] == "" {
			t.Fatalf("redeem = %d %s", r.Status, r.Body)
		}
		forged := issue()
		if r := redeem(forged[:len(forged)-2] + "AA"); r.Status != http.StatusNotFound {
			t.Errorf("forged = %d", r.Status)
		}
		late := issue()
		env.Clock.Advance(booking.HandoverTTL)
		if r := redeem(late); r.Status != http.StatusNotFound {
			t.Errorf("expired = %d", r.Status)
		}
		if r := redeem(""); r.Status != http.StatusBadRequest {
			t.Errorf("empty = %d", r.Status)
		}
		env.Clock.Advance(time.Minute)
	})
}
