package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// members oidc clients add | list | remove | rotate-secret, as the
// operator runs them: the output's shape, the refusals.
func TestOIDCClientsCommand(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	line := regexp.MustCompile(`^([A-Za-z0-9_-]{22})\t([A-Za-z0-9_-]{43})\n$`)

	out, _, err := call(t, "oidc", "clients", "add", "--name", "Booking site", "--redirect-uri", "https://booking.example.com/oidc/callback",
		"--redirect-uri", "https://booking.example.com/oidc/callback2", "--first-party", "--backchannel-logout-uri", "https://booking.example.com/oidc/logout", "--db", dsn)
	if err != nil {
		t.Fatal(err)
	}
	m := line.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("add printed %q, want CLIENT_ID<TAB>CLIENT_SECRET", out)
	}
	id, secret := m[1], m[2]

	out, _, err = call(t, "oidc", "clients", "list", "--db", dsn)
	want := id + "\tBooking site\tfirst-party\tclient_secret_basic\thttps://booking.example.com/oidc/callback,https://booking.example.com/oidc/callback2\thttps://booking.example.com/oidc/logout\n"
	if err != nil || out != want {
		t.Errorf("list = %q %v, want %q", out, err, want)
	}
	if strings.Contains(out, secret) {
		t.Error("list shows the secret")
	}

	out, _, err = call(t, "oidc", "clients", "rotate-secret", id, "--db", dsn)
	if m := line.FindStringSubmatch(out); err != nil || m == nil || m[1] != id || m[2] == secret {
		t.Errorf("rotate-secret = %q %v", out, err)
	}

	// A private_key_jwt client: its public keys from a file, no secret.
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	set, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: k.Public(), KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	jwks := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(jwks, set, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err = call(t, "oidc", "clients", "add", "--name", "Hotel partner", "--redirect-uri", "https://hotel.example/cb",
		"--auth-method", "private_key_jwt", "--jwks", jwks, "--db", dsn)
	if err != nil || !regexp.MustCompile(`^[A-Za-z0-9_-]{22}\t\n$`).MatchString(out) {
		t.Errorf("add private_key_jwt = %q %v", out, err)
	}
	pk := strings.TrimSpace(out)
	if _, _, err := call(t, "oidc", "clients", "rotate-secret", pk, "--db", dsn); err == nil {
		t.Error("rotate-secret of a private_key_jwt client")
	}

	for name, args := range map[string][]string{
		"no name":             {"--redirect-uri", "https://a.example/cb"},
		"no redirect URI":     {"--name", "A"},
		"plain http":          {"--name", "A", "--redirect-uri", "http://a.example/cb"},
		"a fragment":          {"--name", "A", "--redirect-uri", "https://a.example/cb#x"},
		"a relative URI":      {"--name", "A", "--redirect-uri", "/cb"},
		"custom scheme":       {"--name", "A", "--redirect-uri", "app://cb"},
		"http logout URI":     {"--name", "A", "--redirect-uri", "https://a.example/cb", "--backchannel-logout-uri", "http://a.example/logout"},
		"keys without method": {"--name", "A", "--redirect-uri", "https://a.example/cb", "--jwks", jwks},
		"method without keys": {"--name", "A", "--redirect-uri", "https://a.example/cb", "--auth-method", "private_key_jwt"},
		"unknown auth method": {"--name", "A", "--redirect-uri", "https://a.example/cb", "--auth-method", "none"},
		"an unexpected word":  {"--name", "A", "--redirect-uri", "https://a.example/cb", "extra"},
	} {
		if out, _, err := call(t, append([]string{"oidc", "clients", "add", "--db", dsn}, args...)...); err == nil {
			t.Errorf("add with %s: %q, want a refusal", name, out)
		}
	}

	if _, _, err := call(t, "oidc", "clients", "remove", id, "--db", dsn); err != nil {
		t.Fatal(err)
	}
	if _, _, err := call(t, "oidc", "clients", "remove", id, "--db", dsn); err == nil || !strings.Contains(err.Error(), "no client") {
		t.Errorf("remove again: %v", err)
	}
	if out, _, _ := call(t, "oidc", "clients", "list", "--db", dsn); strings.Contains(out, id) {
		t.Errorf("removed client still listed: %q", out)
	}
	if _, _, err := call(t, "oidc", "clients", "rotate-secret", "--db", dsn); err == nil {
		t.Error("rotate-secret without an id")
	}
}
