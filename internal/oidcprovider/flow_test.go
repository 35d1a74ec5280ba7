package oidcprovider_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// A relying party on go-oidc and x/oauth2 signs a member in: discovery,
// the code flow with PKCE, the ID token verified against the JWKS with
// the claims of the granted scopes, userinfo, a refresh that rotates the
// refresh token (the old one, used again, revokes the family), and
// revocation (RFC 7009).
func TestRelyingPartySignsMemberIn(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := context.Background()
		if _, err := env.App.DB.ExecContext(ctx, `UPDATE members SET member_number = 'MM1234567', lang = 'jp' WHERE id = $1`, demo.Member1); err != nil {
			t.Fatal(err)
		}
		r := newRP(t, env)
		browser := env.Member(t)
		tok, idt := r.signIn(browser)

		if idt.Subject != demo.Member1 {
			t.Errorf("sub %q, want the member's id", idt.Subject)
		}
		var claims map[string]any
		if err := idt.Claims(&claims); err != nil {
			t.Fatal(err)
		}
		for k, want := range map[string]any{
			"email": apitest.DemoEmail, "email_verified": true, "given_name": "Hanako", "family_name": "Yamada",
			"locale": "ja-JP", "member_number": "MM1234567", "azp": r.id,
		} {
			if claims[k] != want {
				t.Errorf("ID token %s = %v, want %v", k, claims[k], want)
			}
		}
		if claims["sid"] == nil || claims["auth_time"] == nil {
			t.Errorf("ID token lacks sid or auth_time: %v", claims)
		}

		info, err := r.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			t.Fatalf("userinfo: %v", err)
		}
		if info.Subject != demo.Member1 || info.Email != apitest.DemoEmail || !info.EmailVerified {
			t.Errorf("userinfo %+v", info)
		}

		// Refresh: a new refresh token each time; the first one again
		// revokes the family, so the second one is dead too.
		first := tok.RefreshToken
		if first == "" {
			t.Fatal("no refresh token with offline_access")
		}
		rotated, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: first}).Token()
		if err != nil {
			t.Fatalf("refresh: %v", err)
		}
		if rotated.RefreshToken == "" || rotated.RefreshToken == first {
			t.Fatalf("refresh token not rotated: %q", rotated.RefreshToken)
		}
		if raw, _ := rotated.Extra("id_token").(string); raw == "" {
			t.Error("no ID token on refresh")
		} else if _, err := r.verifier.Verify(ctx, raw); err != nil {
			t.Errorf("refreshed ID token: %v", err)
		}
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: first}).Token(); !isOAuthError(err, "invalid_grant") {
			t.Errorf("used refresh token again: %v, want invalid_grant", err)
		}
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: rotated.RefreshToken}).Token(); !isOAuthError(err, "invalid_grant") {
			t.Errorf("refresh token of a revoked family: %v, want invalid_grant", err)
		}
		if _, err := r.provider.UserInfo(ctx, oauth2.StaticTokenSource(rotated)); err == nil {
			t.Error("access token of a revoked family still answers userinfo")
		}

		// Revocation: a refresh token (its family), then an access token.
		tok2, _ := r.signIn(browser)
		revoke := r.provider.Endpoint().TokenURL[:strings.LastIndex(r.provider.Endpoint().TokenURL, "/")] + "/revoke"
		if code, body := post(t, revoke, url.Values{"token": {tok2.RefreshToken}, "token_type_hint": {"refresh_token"}}, r.id, r.secret); code != http.StatusOK {
			t.Fatalf("revoke refresh token: %d %v", code, body)
		}
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok2.RefreshToken}).Token(); !isOAuthError(err, "invalid_grant") {
			t.Errorf("revoked refresh token: %v", err)
		}
		if _, err := r.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok2)); err == nil {
			t.Error("access token of a revoked refresh token still answers")
		}
		tok3, _ := r.signIn(browser)
		if code, body := post(t, revoke, url.Values{"token": {tok3.AccessToken}}, r.id, r.secret); code != http.StatusOK {
			t.Fatalf("revoke access token: %d %v", code, body)
		}
		if _, err := r.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok3)); err == nil {
			t.Error("revoked access token still answers userinfo")
		}
		// An unknown token is not an error (RFC 7009); another client's token is refused.
		if code, _ := post(t, revoke, url.Values{"token": {"no-such-token"}}, r.id, r.secret); code != http.StatusOK {
			t.Errorf("unknown token: %d", code)
		}
		other := newRP(t, env)
		tok4, _ := r.signIn(browser)
		if code, _ := post(t, revoke, url.Values{"token": {tok4.RefreshToken}}, other.id, other.secret); code == http.StatusOK {
			t.Error("a client revoked another client's token")
		}
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok4.RefreshToken}).Token(); err != nil {
			t.Errorf("the token another client tried to revoke: %v", err)
		}
	})
}

// Only the claims of the granted scopes are in the ID token and userinfo.
func TestClaimsFollowScopes(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	r := newRP(t, env)
	r.conf.Scopes = []string{oidc.ScopeOpenID, "email"}
	tok, idt := r.signIn(env.Member(t))
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		t.Fatal(err)
	}
	if claims["email"] != apitest.DemoEmail {
		t.Errorf("email %v", claims["email"])
	}
	for _, absent := range []string{"given_name", "family_name", "locale", "member_number"} {
		if _, ok := claims[absent]; ok {
			t.Errorf("%s given without its scope", absent)
		}
	}
	if tok.RefreshToken != "" {
		t.Error("a refresh token without offline_access")
	}
	var info map[string]any
	ui, err := r.provider.UserInfo(context.Background(), oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatal(err)
	}
	if err := ui.Claims(&info); err != nil {
		t.Fatal(err)
	}
	if _, ok := info["given_name"]; ok {
		t.Error("userinfo gives given_name without profile")
	}
}

func isOAuthError(err error, code string) bool {
	re, ok := err.(*oauth2.RetrieveError)
	return ok && re.ErrorCode == code
}
