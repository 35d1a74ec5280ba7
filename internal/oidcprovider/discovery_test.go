package oidcprovider_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

// The discovery document has every field OpenID Connect Discovery 1.0
// requires (section 3), says only what is served (the code flow with PKCE
// S256, no implicit or hybrid flow, no "none" signatures), and its JWKS
// publishes public signing keys only.
func TestDiscoveryDocumentAndJWKS(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	var d map[string]any
	getJSON(t, env.URL()+"/.well-known/openid-configuration", &d)

	// REQUIRED by OpenID Connect Discovery 1.0, section 3.
	for _, f := range []string{"issuer", "authorization_endpoint", "token_endpoint", "jwks_uri",
		"response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported"} {
		if d[f] == nil || d[f] == "" {
			t.Errorf("required %s missing", f)
		}
	}
	// RECOMMENDED, and served here.
	for _, f := range []string{"userinfo_endpoint", "scopes_supported", "claims_supported", "end_session_endpoint", "revocation_endpoint"} {
		if d[f] == nil || d[f] == "" {
			t.Errorf("%s missing", f)
		}
	}
	if d["issuer"] != env.URL() {
		t.Errorf("issuer %v, want %s (exactly the URL discovery is under)", d["issuer"], env.URL())
	}
	list := func(f string) []string {
		var out []string
		for _, v := range d[f].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	for f, want := range map[string][]string{
		"response_types_supported":              {"code"},
		"response_modes_supported":              {"query"},
		"grant_types_supported":                 {"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      {"S256"},
		"subject_types_supported":               {"public"},
		"token_endpoint_auth_methods_supported": {"client_secret_basic", "private_key_jwt"},
	} {
		if got := list(f); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", f, got, want)
		}
	}
	if !slices.Contains(list("scopes_supported"), "openid") {
		t.Error("scopes_supported lacks openid")
	}
	for _, alg := range list("id_token_signing_alg_values_supported") {
		if alg != "RS256" && alg != "ES256" {
			t.Errorf("ID tokens signed with %s", alg)
		}
	}
	for _, c := range []string{"sub", "email", "email_verified", "given_name", "family_name", "locale", "member_number"} {
		if !slices.Contains(list("claims_supported"), c) {
			t.Errorf("claims_supported lacks %s", c)
		}
	}
	if d["backchannel_logout_supported"] != true || d["backchannel_logout_session_supported"] != true {
		t.Errorf("back-channel logout not announced: %v %v", d["backchannel_logout_supported"], d["backchannel_logout_session_supported"])
	}
	for _, f := range []string{"device_authorization_endpoint", "introspection_endpoint", "check_session_iframe"} {
		if _, ok := d[f]; ok {
			t.Errorf("%s announced but not served", f)
		}
	}

	var jwks struct {
		Keys []map[string]any `json:"keys"`
	}
	getJSON(t, d["jwks_uri"].(string), &jwks)
	if len(jwks.Keys) == 0 {
		t.Fatal("no keys")
	}
	for _, k := range jwks.Keys {
		for _, f := range []string{"kty", "kid", "use", "alg"} {
			if k[f] == nil {
				t.Errorf("key lacks %s: %v", f, k)
			}
		}
		if k["use"] != "sig" {
			t.Errorf("key use %v", k["use"])
		}
		for _, private := range []string{"d", "p", "q", "dp", "dq", "qi"} {
			if _, ok := k[private]; ok {
				t.Errorf("JWKS publishes the private %s", private)
			}
		}
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}
