package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"members/internal/stripe/stripefake"
)

var stripeEnv = []string{"MEMBERS_GATEWAY", "MEMBERS_STRIPE_SECRET_KEY", "MEMBERS_STRIPE_PUBLISHABLE_KEY",
	"MEMBERS_STRIPE_WEBHOOK_SECRET", "MEMBERS_STRIPE_WEBHOOK_SECRET_PREVIOUS", "MEMBERS_STRIPE_API_URL"}

// --gateway stripe without a key refuses to start: one line naming the
// missing keys, exit 2.
func TestServeStripeWithoutKeysRefuses(t *testing.T) {
	bin := membersBinary(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no keys", nil, "members: --gateway stripe needs --stripe-secret-key (env MEMBERS_STRIPE_SECRET_KEY), --stripe-publishable-key"},
		{"no webhook secret", []string{"--stripe-secret-key", "sk_test_a", "--stripe-publishable-key", "pk_test_a"},
			"members: --gateway stripe needs --stripe-webhook-secret (env MEMBERS_STRIPE_WEBHOOK_SECRET)"},
		{"mixed modes", []string{"--stripe-secret-key", "sk_live_a", "--stripe-publishable-key", "pk_test_a", "--stripe-webhook-secret", "whsec_a"},
			"members: --stripe-secret-key and --stripe-publishable-key: one is a test-mode key"},
		{"with the sandbox", []string{"--gateway-sandbox"}, "members: --gateway stripe with --gateway-url or --gateway-sandbox"},
		{"live secret key elsewhere than Stripe", []string{"--stripe-secret-key", "sk_live_a", "--stripe-publishable-key", "pk_live_a",
			"--stripe-webhook-secret", "whsec_a", "--stripe-api-url", "http://127.0.0.1:9"},
			"members: --stripe-api-url is for tests only and is refused with a live key"},
		{"live restricted key elsewhere than Stripe", []string{"--stripe-secret-key", "rk_live_a", "--stripe-publishable-key", "pk_live_a",
			"--stripe-webhook-secret", "whsec_a", "--stripe-api-url", "https://stripe.example.net"},
			"members: --stripe-api-url is for tests only and is refused with a live key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dsn, "--gateway", "stripe"}, tc.args...)
			cmd := exec.Command(bin, args...) // #nosec G204 -- the test's own binary
			cmd.Env = cleanEnv()
			for i, kv := range cmd.Env {
				for _, k := range stripeEnv {
					if strings.HasPrefix(kv, k+"=") {
						cmd.Env[i] = "MEMBERS_UNUSED_" + kv
					}
				}
			}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("exit = %v, want 2; stderr %q", err, stderr.String())
			}
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], tc.want) || stdout.Len() != 0 {
				t.Errorf("stderr %q, want one line starting %q", stderr.String(), tc.want)
			}
		})
	}
}

// A start with Stripe keys serves; a test-mode key on a public site
// warns, on a loopback one it does not; no sandbox is mounted.
func TestServeStripe(t *testing.T) {
	fake := httptest.NewServer(stripefake.New(stripefake.Options{}))
	defer fake.Close()
	for _, tc := range []struct {
		name, publicURL string
		warns           bool
	}{
		{"public", "https://members.example.com", true},
		{"loopback", "http://127.0.0.1:9", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range append(append([]string{}, gatewayEnv...), stripeEnv...) {
				t.Setenv(k, "")
			}
			base, log := serveLogged(t, map[string]string{"MEMBERS_STRIPE_SECRET_KEY": "sk_test_a", "MEMBERS_STRIPE_PUBLISHABLE_KEY": "pk_test_a",
				"MEMBERS_STRIPE_WEBHOOK_SECRET": "whsec_a"},
				"--gateway", "stripe", "--public-url", tc.publicURL, "--stripe-api-url", fake.URL)
			if got := strings.Contains(log.String(), "STRIPE TEST-MODE KEY ON A PUBLIC SITE"); got != tc.warns {
				t.Errorf("warning = %v, want %v:\n%s", got, tc.warns, log.String())
			}
			res, err := http.Get(base + "/gateway/v1/tokens")
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMethodNotAllowed {
				// the SPA may answer unknown GETs; the sandbox's API must not be there
				if strings.Contains(res.Header.Get("Content-Type"), "json") {
					t.Errorf("sandbox mounted in Stripe mode: %d", res.StatusCode)
				}
			}
			res, err = http.Post(base+"/webhooks/stripe", "application/json", strings.NewReader(`{"id":"evt_1"}`))
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != http.StatusBadRequest {
				t.Errorf("unsigned webhook: %d, want 400", res.StatusCode)
			}
		})
	}
}
