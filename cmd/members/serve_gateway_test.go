package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
)

// serveLogged runs `members serve` in process until the test ends and
// returns its base URL and its log (stderr).
func serveLogged(t *testing.T, env map[string]string, args ...string) (string, *apitest.LogBuffer) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out, errb := &apitest.LogBuffer{}, &apitest.LogBuffer{}
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dsn}, args...), out, errb)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	re := regexp.MustCompile(`listening on (http://\S+)`)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1], errb
		}
		select {
		case err := <-done:
			t.Fatalf("serve exited: %v\n%s", err, errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("serve did not start: %s", errb.String())
	return "", nil
}

// gatewayEnv clears the gateway's and the keys' variables of the
// environment the tests run in.
var gatewayEnv = []string{"MEMBERS_GATEWAY_URL", "MEMBERS_GATEWAY_SANDBOX", "MEMBERS_GATEWAY_KEY", "MEMBERS_GATEWAY_WEBHOOK_SECRET",
	"MEMBERS_PUBLIC_URL", "MEMBERS_HANDOVER_SECRET", "MEMBERS_PIN_KEY", "MEMBERS_TRUSTED_PROXIES", "MEMBERS_UNSUBSCRIBE_KEY"}

func cleanEnv(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, g := range gatewayEnv {
			drop = drop || k == g
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// The real binary without a gateway refuses to start: one line on stderr,
// exit 2, nothing listening. The sandbox is an explicit choice
// (--gateway-sandbox or MEMBERS_GATEWAY_SANDBOX=1) or the demo's.
func TestServeWithoutGatewayRefuses(t *testing.T) {
	bin := membersBinary(t)
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", dsn) // #nosec G204 -- the test's own binary
	cmd.Env = cleanEnv()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("exit = %v, want 2; stdout %q stderr %q", err, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "members: no payment gateway: give --gateway-url") || stdout.Len() != 0 {
		t.Errorf("stderr %q stdout %q, want one line that names --gateway-url", stderr.String(), stdout.String())
	}

	// The environment's switch starts the sandbox.
	t.Run("MEMBERS_GATEWAY_SANDBOX=1", func(t *testing.T) {
		base, _ := serveLogged(t, map[string]string{"MEMBERS_GATEWAY_SANDBOX": "1"})
		tok := postJSON(t, base+"/gateway/v1/tokens", "", "", `{"cardNumber":"4242424242424242","expirationDate":"35/01","cvv":"123","holderName":"A"}`)
		if tok["gateway"] != "ndhk" {
			t.Fatalf("token %v", tok)
		}
	})
}

// The sandbox on a public site warns at start and on every payment, and
// sends the customer to the public URL, not to the listen address; on a
// loopback site it does neither.
func TestServeSandboxOnPublicSite(t *testing.T) {
	for _, tc := range []struct {
		name, publicURL string
		warns           bool
	}{
		{"public", "https://members.example.com", true},
		{"loopback", "http://127.0.0.1:9", false},
		{"localhost", "http://localhost:9", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range gatewayEnv {
				t.Setenv(k, "")
			}
			base, log := serveLogged(t, nil, "--gateway-sandbox", "--public-url", tc.publicURL, "--gateway-key", "sk_test_pub")
			const startWarn = "SANDBOX GATEWAY ON A PUBLIC SITE"
			if got := strings.Contains(log.String(), startWarn) && strings.Contains(log.String(), `"level":"WARN"`); got != tc.warns {
				t.Errorf("start warning = %v, want %v:\n%s", got, tc.warns, log.String())
			}
			for i := range 2 {
				p := postJSON(t, base+"/gateway/v1/payments", "sk_test_pub", fmt.Sprint("create-", i), `{"amount":5000,"currency":"JPY","method":"konbini","reference":"r`+fmt.Sprint(i)+`"}`)
				p = postJSON(t, base+"/gateway/v1/payments/"+p["id"].(string)+"/authorize", "sk_test_pub", fmt.Sprint("auth-", i), "")
				next, _ := p["nextAction"].(map[string]any)
				want := strings.TrimRight(tc.publicURL, "/") + "/gateway/pay/" + p["id"].(string)
				if next == nil || next["url"] != want {
					t.Errorf("nextAction = %v, want url %s (not the listen address %s)", p["nextAction"], want, base)
				}
			}
			perPurchase := strings.Count(log.String(), "SANDBOX GATEWAY: a payment on a public site")
			if want := map[bool]int{true: 2, false: 0}[tc.warns]; perPurchase != want {
				t.Errorf("%d warnings for 2 payments, want %d:\n%s", perPurchase, want, log.String())
			}
		})
	}
}

// Outside --demo, a secret kept in the database is named by a warning at
// start; given from outside, it is not.
func TestServeWarnsOfSecretsInTheDatabase(t *testing.T) {
	const key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // base64 of 32 bytes
	warnings := []string{"no --pin-key", "no --oidc-signing-key", "no --gateway-webhook-secret", "no --unsubscribe-key"}
	keyFile := filepath.Join(t.TempDir(), "oidc.pem")
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(ec)
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []bool
	}{
		{"kept in the database", []string{"--gateway-sandbox"}, []bool{true, true, true, true}},
		{"given", []string{"--gateway-sandbox", "--pin-key", key, "--oidc-signing-key", keyFile, "--gateway-webhook-secret", "whsec_given",
			"--unsubscribe-key", key}, []bool{false, false, false, false}},
		{"demo", []string{"--demo"}, []bool{false, false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range gatewayEnv {
				t.Setenv(k, "")
			}
			_, log := serveLogged(t, nil, tc.args...)
			for i, w := range warnings {
				if got := strings.Contains(log.String(), w); got != tc.want[i] {
					t.Errorf("warning %q = %v, want %v:\n%s", w, got, tc.want[i], log.String())
				}
			}
		})
	}
}

// The sandbox's tokenisation limit counts the client that the trusted
// proxy names, like every other limit: one address over its burst is
// refused while another one behind the same proxy is not; without
// --trusted-proxies the forwarded address is not believed.
func TestServeSandboxTokeniserBehindProxy(t *testing.T) {
	card := `{"cardNumber":"4242424242424242","expirationDate":"35/01","cvv":"123","holderName":"A"}`
	tokenise := func(base, client string) int {
		req, _ := http.NewRequest("POST", base+"/gateway/v1/tokens", strings.NewReader(card))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", client)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		name    string
		args    []string
		otherOK bool
	}{
		{"trusted proxy", []string{"--trusted-proxies", "127.0.0.1/32"}, true},
		{"no trusted proxy", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range gatewayEnv {
				t.Setenv(k, "")
			}
			base, _ := serveLogged(t, nil, append([]string{"--demo"}, tc.args...)...)
			limited := false
			for i := 0; i < 150 && !limited; i++ { // the burst is 100
				limited = tokenise(base, "203.0.113.7") == http.StatusTooManyRequests
			}
			if !limited {
				t.Fatal("203.0.113.7 was never limited")
			}
			if got := tokenise(base, "203.0.113.8") == http.StatusOK; got != tc.otherOK {
				t.Errorf("another client behind the proxy accepted = %v, want %v", got, tc.otherOK)
			}
		})
	}
}
