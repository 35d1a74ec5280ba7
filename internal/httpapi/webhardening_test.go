package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
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
