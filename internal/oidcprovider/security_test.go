package oidcprovider_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/oidcprovider"
	"members/internal/store"
)

// Each refusal of the provider's security list, against real requests.
func TestProviderRefuses(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := context.Background()
		r := newRP(t, env)
		browser := env.Member(t)
		token := r.provider.Endpoint().TokenURL

		t.Run("redirect URI not an exact match", func(t *testing.T) {
			for _, uri := range []string{callback + "/", callback + "?x=1", strings.Replace(callback, "127.0.0.1:9", "127.0.0.1:90", 1),
				"https://evil.example/callback", strings.ToUpper(callback)} {
				u, _ := url.Parse(r.authURL(newFlow()))
				q := u.Query()
				q.Set("redirect_uri", uri)
				u.RawQuery = q.Encode()
				resp, err := browser.HTTP().Get(u.String())
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
					t.Errorf("redirect_uri %s: %d to %q, want 400 without a redirect", uri, resp.StatusCode, resp.Header.Get("Location"))
				}
			}
		})

		t.Run("PKCE missing or plain", func(t *testing.T) {
			f := newFlow()
			for name, opts := range map[string][]oauth2.AuthCodeOption{
				"missing":        nil,
				"plain":          {oauth2.SetAuthURLParam("code_challenge", f.verifier), oauth2.SetAuthURLParam("code_challenge_method", "plain")},
				"method missing": {oauth2.SetAuthURLParam("code_challenge", f.verifier)},
			} {
				loc := follow(t, browser, r.conf.AuthCodeURL(f.state, append(opts, oidc.Nonce(f.nonce))...))
				if q := loc.Query(); q.Get("error") != "invalid_request" || q.Get("code") != "" || q.Get("state") != f.state {
					t.Errorf("PKCE %s: %s, want invalid_request", name, loc)
				}
			}
		})

		t.Run("wrong PKCE verifier", func(t *testing.T) {
			f := newFlow()
			code := r.code(browser, f)
			if _, err := r.exchange(code, oauth2.GenerateVerifier()); !isOAuthError(err, "invalid_grant") {
				t.Errorf("wrong verifier: %v", err)
			}
			if _, err := r.exchange(code, ""); err == nil {
				t.Error("no verifier: tokens given")
			}
		})

		t.Run("code used twice revokes what it gave", func(t *testing.T) {
			f := newFlow()
			code := r.code(browser, f)
			tok, err := r.exchange(code, f.verifier)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.exchange(code, f.verifier); !isOAuthError(err, "invalid_grant") {
				t.Errorf("second use: %v, want invalid_grant", err)
			}
			if _, err := r.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err == nil {
				t.Error("the first use's access token still answers")
			}
			if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
				t.Error("the first use's refresh token still refreshes")
			}
		})

		t.Run("expired code", func(t *testing.T) {
			f := newFlow()
			code := r.code(browser, f)
			env.Clock.Advance(oidcprovider.CodeLifetime + time.Second)
			if _, err := r.exchange(code, f.verifier); !isOAuthError(err, "invalid_grant") {
				t.Errorf("expired code: %v, want invalid_grant", err)
			}
			browser = env.Member(t) // the clock moved: a fresh session
		})

		t.Run("wrong client secret", func(t *testing.T) {
			f := newFlow()
			code := r.code(browser, f)
			for _, secret := range []string{r.secret + "x", "", strings.ToUpper(r.secret)} {
				if status, body := post(t, token, r.tokenForm(code, f.verifier), r.id, secret); status != http.StatusUnauthorized || body["error"] != "invalid_client" {
					t.Errorf("secret %q: %d %v", secret, status, body)
				}
			}
			// Another client's secret for this client's code.
			other := newRP(t, env)
			if status, _ := post(t, token, r.tokenForm(code, f.verifier), other.id, other.secret); status == http.StatusOK {
				t.Error("another client exchanged the code")
			}
			// The code was not spent by the refusals.
			if _, err := r.exchange(code, f.verifier); err != nil {
				t.Errorf("the code after refused attempts: %v", err)
			}
		})

		t.Run("replayed private_key_jwt assertion", func(t *testing.T) {
			pk := newRP(t, env, privateKeyJWT)
			auth := func(a string) url.Values {
				return url.Values{"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}, "client_assertion": {a}, "client_id": {pk.id}}
			}
			f := newFlow()
			form := pk.tokenForm(pk.code(browser, f), f.verifier)
			a := pk.assertion(randomID(t), "rp-key-1")
			for k, v := range auth(a) {
				form[k] = v
			}
			if status, body := post(t, token, form, "", ""); status != http.StatusOK || body["id_token"] == nil {
				t.Fatalf("first use: %d %v", status, body)
			}
			g := newFlow()
			again := pk.tokenForm(pk.code(browser, g), g.verifier)
			for k, v := range auth(a) {
				again[k] = v
			}
			if status, body := post(t, token, again, "", ""); status != http.StatusUnauthorized || body["error"] != "invalid_client" {
				t.Errorf("replayed assertion: %d %v", status, body)
			}
			// A fresh assertion takes the same code: the replay spent nothing.
			for k, v := range auth(pk.assertion(randomID(t), "rp-key-1")) {
				again[k] = v
			}
			if status, body := post(t, token, again, "", ""); status != http.StatusOK {
				t.Errorf("fresh assertion: %d %v", status, body)
			}
			// A secret does not authenticate a private_key_jwt client.
			h := newFlow()
			if status, _ := post(t, token, pk.tokenForm(pk.code(browser, h), h.verifier), pk.id, "anything"); status == http.StatusOK {
				t.Error("a private_key_jwt client authenticated with a secret")
			}
		})

		t.Run("alg none or an unknown kid", func(t *testing.T) {
			pk := newRP(t, env, privateKeyJWT)
			_, idt := r.signIn(browser)
			_ = idt
			tok, _ := r.signIn(browser)
			raw := tok.Extra("id_token").(string)
			endSession := env.URL() + oidcprovider.EndSessionPath
			for name, hint := range map[string]string{"alg none": algNone(t, raw), "unknown kid": otherKid(t, raw)} {
				resp, err := browser.HTTP().Get(endSession + "?" + url.Values{"id_token_hint": {hint}}.Encode())
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest {
					t.Errorf("id_token_hint with %s: %d, want 400", name, resp.StatusCode)
				}
			}
			if browser.Get("/api/session").Status != http.StatusNoContent {
				t.Error("a forged hint ended the session")
			}
			f := newFlow()
			form := pk.tokenForm(pk.code(browser, f), f.verifier)
			form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
			form.Set("client_id", pk.id)
			for name, a := range map[string]string{
				"alg none":    algNone(t, pk.assertion(randomID(t), "rp-key-1")),
				"unknown kid": pk.assertion(randomID(t), "not-a-key"),
			} {
				form.Set("client_assertion", a)
				if status, body := post(t, token, form, "", ""); status != http.StatusUnauthorized {
					t.Errorf("client assertion with %s: %d %v", name, status, body)
				}
			}
		})

		t.Run("ID token meant for another audience", func(t *testing.T) {
			other := newRP(t, env)
			tok, _ := r.signIn(browser)
			raw := tok.Extra("id_token").(string)
			if _, err := other.verifier.Verify(ctx, raw); err == nil {
				t.Error("go-oidc took another client's ID token")
			}
			// The provider: another client cannot end the session with it.
			resp, err := browser.HTTP().Get(env.URL() + oidcprovider.EndSessionPath + "?" +
				url.Values{"id_token_hint": {raw}, "client_id": {other.id}}.Encode())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("end_session with another client's ID token: %d", resp.StatusCode)
			}
			if browser.Get("/api/session").Status != http.StatusNoContent {
				t.Error("the session ended")
			}
		})

		t.Run("open redirect through logout", func(t *testing.T) {
			lo := newRP(t, env, postLogout("http://127.0.0.1:9/signed-out"))
			tok, _ := lo.signIn(browser)
			raw := tok.Extra("id_token").(string)
			for _, to := range []string{"https://evil.example/", "http://127.0.0.1:9/signed-out/", "http://127.0.0.1:9/signed-out?x=1", "//evil.example"} {
				resp, err := browser.HTTP().Get(env.URL() + oidcprovider.EndSessionPath + "?" +
					url.Values{"id_token_hint": {raw}, "post_logout_redirect_uri": {to}}.Encode())
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusBadRequest || loc != "" {
					t.Errorf("post_logout_redirect_uri %s: %d to %q", to, resp.StatusCode, loc)
				}
			}
			if browser.Get("/api/session").Status != http.StatusNoContent {
				t.Error("a refused logout ended the session")
			}
		})
	})
}

// algNone re-writes a JWT's header to alg none, without a signature.
func algNone(t *testing.T, jwt string) string {
	t.Helper()
	parts := strings.Split(jwt, ".")
	return base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
}

// otherKid re-writes a JWT's kid (the signature no longer matters: no key).
func otherKid(t *testing.T, jwt string) string {
	t.Helper()
	parts := strings.Split(jwt, ".")
	h, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	hs := strings.Replace(string(h), `"kid":"`, `"kid":"unknown-`, 1)
	return base64.RawURLEncoding.EncodeToString([]byte(hs)) + "." + parts[1] + "." + parts[2]
}

// The token endpoint is rate limited per client address: 429 with
// Retry-After past the limit.
func TestTokenEndpointRateLimited(t *testing.T) {
	env := apitest.New(t, store.SQLite, func(c *app.Config) { c.OIDC.TokenLimit = 3 })
	r := newRP(t, env)
	token := r.provider.Endpoint().TokenURL
	for i := range 3 {
		if status, _ := post(t, token, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}}, r.id, r.secret); status == http.StatusTooManyRequests {
			t.Fatalf("request %d refused", i+1)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, token, strings.NewReader("grant_type=refresh_token&refresh_token=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(r.id, r.secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("fourth request: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	env.Clock.Advance(time.Minute)
	if status, _ := post(t, token, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}}, r.id, r.secret); status == http.StatusTooManyRequests {
		t.Error("still refused the next minute")
	}
}
