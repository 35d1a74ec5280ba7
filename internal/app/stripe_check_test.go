package app_test

import (
	"strings"
	"testing"

	"members/internal/app"
)

// CheckStripe refuses a live key sent to another address than Stripe's
// and warns when live keys start on a loopback public URL (the links of
// Stripe's pages and mails would lead to the operator's own machine).
func TestCheckStripeLiveKeys(t *testing.T) {
	keys := func(secret, publishable, apiURL string) app.StripeConfig {
		return app.StripeConfig{SecretKey: secret, PublishableKey: publishable, WebhookSecret: "whsec_a", APIURL: apiURL}
	}
	for _, tc := range []struct {
		name      string
		stripe    app.StripeConfig
		publicURL string
		err, warn string
	}{
		{"live key with the test URL", keys("sk_live_a", "pk_live_a", "http://127.0.0.1:9"), "https://members.example.com", "--stripe-api-url is for tests only", ""},
		{"restricted live key with the test URL", keys("rk_live_a", "pk_live_a", "https://example.net"), "https://members.example.com", "--stripe-api-url is for tests only", ""},
		{"live keys on a loopback site", keys("sk_live_a", "pk_live_a", ""), "http://127.0.0.1:8080", "", "STRIPE LIVE KEY ON A LOOPBACK PUBLIC URL"},
		{"live keys on localhost", keys("rk_live_a", "pk_live_a", ""), "http://localhost:8080", "", "STRIPE LIVE KEY ON A LOOPBACK PUBLIC URL"},
		{"live keys without a public URL", keys("sk_live_a", "pk_live_a", ""), "", "", "STRIPE LIVE KEY ON A LOOPBACK PUBLIC URL"},
		{"live keys on the site", keys("sk_live_a", "pk_live_a", ""), "https://members.example.com", "", ""},
		{"test key with the test URL", keys("sk_test_a", "pk_test_a", "http://127.0.0.1:9"), "http://127.0.0.1:8080", "", ""},
		{"test key on a public site", keys("sk_test_a", "pk_test_a", ""), "https://members.example.com", "", "STRIPE TEST-MODE KEY ON A PUBLIC SITE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			warn, err := app.CheckStripe(app.Config{Gateway: app.GatewayStripe, Stripe: tc.stripe, PublicURL: tc.publicURL})
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (tc.warn == "") != (warn == "") || !strings.HasPrefix(warn, tc.warn) {
				t.Errorf("warning %q, want %q", warn, tc.warn)
			}
		})
	}
}
