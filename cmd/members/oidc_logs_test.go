package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"members/internal/store"
)

// The real server, signing with the operator's key file, through a whole
// OpenID Connect life (sign-in, a code used twice, refresh and a reused
// refresh token, userinfo, revocation, a logout and its back-channel
// token): no code, token or client secret is written to its log, not by
// the server's own lines, not by the library's (which join them).
func TestOIDCLeavesNoTokenInTheLog(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalECPrivateKey(k)
	keyFile := filepath.Join(t.TempDir(), "oidc.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logoutTokens []string
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		logoutTokens = append(logoutTokens, r.PostFormValue("logout_token"))
		mu.Unlock()
	}))
	defer site.Close()
	forEachServer(t, []string{"--log-requests", "on", "--oidc-signing-key", keyFile}, func(t *testing.T, engine store.Engine, srv *realServer) {
		ctx := context.Background()
		const cb = "http://127.0.0.1:9/cb"
		out, _, err := call(t, "oidc", "clients", "add", "--name", "Booking site", "--redirect-uri", cb, "--first-party",
			"--backchannel-logout-uri", site.URL+"/logout", "--db", srv.dsn)
		if err != nil {
			t.Fatal(err)
		}
		id, secret, _ := strings.Cut(strings.TrimSpace(out), "\t")
		p, err := oidc.NewProvider(ctx, srv.base())
		if err != nil {
			t.Fatal(err)
		}
		ep := p.Endpoint()
		ep.AuthStyle = oauth2.AuthStyleInHeader
		conf := &oauth2.Config{ClientID: id, ClientSecret: secret, Endpoint: ep, RedirectURL: cb,
			Scopes: []string{"openid", "email", "profile", "offline_access"}}
		m := newMember(t, srv.base())
		browser := *m.remote.HTTP
		browser.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), cb) {
				return http.ErrUseLastResponse
			}
			return nil
		}
		secrets := []string{secret}
		signIn := func(twice bool) (string, *oauth2.Token) {
			t.Helper()
			verifier := oauth2.GenerateVerifier()
			resp, err := browser.Get(conf.AuthCodeURL("state-1", oauth2.S256ChallengeOption(verifier), oidc.Nonce("n-1")))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			loc, _ := url.Parse(resp.Header.Get("Location"))
			code := loc.Query().Get("code")
			if code == "" {
				t.Fatalf("no code: %d %s", resp.StatusCode, loc)
			}
			tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
			if err != nil {
				t.Fatal(err)
			}
			if twice {
				if _, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier)); err == nil {
					t.Fatal("a code used twice")
				}
			}
			secrets = append(secrets, code, verifier, tok.AccessToken, tok.RefreshToken, tok.Extra("id_token").(string))
			return code, tok
		}
		signIn(true) // the second use revokes the first's tokens
		_, tok := signIn(false)
		_, tok2 := signIn(false)
		rotated, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok2.RefreshToken}).Token()
		if err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, rotated.AccessToken, rotated.RefreshToken)
		if _, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok2.RefreshToken}).Token(); err == nil {
			t.Fatal("a refresh token used twice")
		}
		if _, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err != nil {
			t.Fatal(err)
		}
		revoke := url.Values{"token": {tok.RefreshToken}}
		req, _ := http.NewRequest(http.MethodPost, srv.base()+"/oidc/revoke", strings.NewReader(revoke.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(id, secret)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("revoke: %v %v", resp, err)
		}
		if code, _ := m.do(http.MethodDelete, "/api/session", nil); code != http.StatusNoContent {
			t.Fatalf("logout: %d", code)
		}
		var logout string
		for deadline := time.Now().Add(20 * time.Second); logout == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			mu.Lock()
			if len(logoutTokens) > 0 {
				logout = logoutTokens[0]
				logoutTokens = logoutTokens[1:]
			}
			mu.Unlock()
		}
		if logout == "" {
			t.Fatal("no back-channel logout token within 20 s")
		}
		secrets = append(secrets, logout)

		log := srv.out.String()
		if !strings.Contains(log, "oidc_error") || !strings.Contains(log, `"path":"/oidc/token"`) {
			t.Fatalf("the library's and the requests' lines are not in the log:\n%s", log)
		}
		for _, s := range secrets {
			if s == "" {
				continue
			}
			// A JWT's parts alone (its payload) count too.
			for _, part := range append([]string{s}, strings.Split(s, ".")...) {
				if len(part) >= 16 && strings.Contains(log, part) {
					t.Errorf("the log holds a secret (%.12s…)", part)
				}
			}
		}
	})
}
