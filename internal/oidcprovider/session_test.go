package oidcprovider_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"members/internal/apitest"
	"members/internal/oidcprovider"
	"members/internal/store"
)

// prompt=none signs a member in silently when they are signed in here,
// and answers login_required (with the state) when not; login_hint fills
// in the login page's e-mail; a member who logs in on the login page
// comes back to the flow.
func TestPromptNoneAndLoginHint(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		r := newRP(t, env)
		none := oauth2.SetAuthURLParam("prompt", "none")

		// Not signed in: back to the client at once, login_required.
		stranger := env.Client(t)
		f := newFlow()
		loc := follow(t, stranger, r.authURL(f, none))
		if q := loc.Query(); !strings.HasPrefix(loc.String(), callback) || q.Get("error") != "login_required" || q.Get("state") != f.state || q.Get("code") != "" {
			t.Errorf("prompt=none signed out: %s", loc)
		}

		// Signed in: a code without any page.
		member := env.Member(t)
		if code := r.code(member, newFlow(), none); code == "" {
			t.Error("no code")
		}

		// Interactive, signed out: the login page, the hint as its
		// e-mail, back to the connect page after.
		loc = follow(t, stranger, r.authURL(newFlow(), oauth2.SetAuthURLParam("login_hint", apitest.DemoEmail), oauth2.SetAuthURLParam("ui_locales", "ja")))
		if loc.Path != "/login" || loc.Query().Get("email") != apitest.DemoEmail || loc.Query().Get("lang") != "jp" {
			t.Fatalf("signed out: %s, want the login page with the hint", loc)
		}
		back := loc.Query().Get("redirect")
		if !strings.HasPrefix(back, oidcprovider.ConnectPath+"?request=") {
			t.Fatalf("login's way back %q", back)
		}
		// The member logs in on that page, the connect page goes on: a
		// first-party client needs no consent.
		stranger.Login(apitest.DemoEmail, apitest.DemoPassword)
		id, _ := url.ParseQuery(strings.TrimPrefix(back, oidcprovider.ConnectPath+"?"))
		res := stranger.Get("/api/oidc/requests/" + url.PathEscape(id.Get("request")))
		if res.Status != http.StatusOK {
			t.Fatalf("connect page's request: %d %s", res.Status, res.Body)
		}
		if res.Map(t)["consentNeeded"] != false {
			t.Errorf("a first-party client asks for consent: %s", res.Body)
		}
		dec := stranger.Do(http.MethodPost, "/api/oidc/requests/"+url.PathEscape(id.Get("request")), map[string]any{"approve": true})
		if dec.Status != http.StatusOK {
			t.Fatalf("approve: %d %s", dec.Status, dec.Body)
		}
		to, _ := dec.Map(t)["redirectTo"].(string)
		loc = follow(t, stranger, env.URL()+to)
		if !strings.HasPrefix(loc.String(), callback) || loc.Query().Get("code") == "" {
			t.Errorf("after login: %s", loc)
		}

		// A hint naming another member is login_required for prompt=none.
		tok, _ := r.signIn(env.Member2(t))
		loc = follow(t, member, r.authURL(newFlow(), none, oauth2.SetAuthURLParam("id_token_hint", tok.Extra("id_token").(string))))
		if loc.Query().Get("error") != "login_required" {
			t.Errorf("hint of another member: %s", loc)
		}
	})
}

// RP-initiated logout: with the ID token as hint, the session here ends
// and the browser goes to the registered post_logout_redirect_uri with
// the state; without a hint the session stays (a link on another site
// cannot sign the member out).
func TestEndSession(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	out := "http://127.0.0.1:9/signed-out"
	r := newRP(t, env, postLogout(out))
	member := env.Member(t)
	tok, _ := r.signIn(member)
	end := env.URL() + oidcprovider.EndSessionPath

	resp, err := member.HTTP().Get(end + "?" + url.Values{"client_id": {r.id}, "post_logout_redirect_uri": {out}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if member.Get("/api/session").Status != http.StatusNoContent {
		t.Fatal("a logout without a hint ended the session")
	}
	resp, err = member.HTTP().Get(end + "?" + url.Values{"id_token_hint": {tok.Extra("id_token").(string)}, "post_logout_redirect_uri": {out}, "state": {"s1"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != out+"?state=s1" {
		t.Errorf("logout: %d to %q", resp.StatusCode, loc)
	}
	if member.Get("/api/session").Status != http.StatusForbidden {
		t.Error("the session lives on")
	}
}

// An authorization request belongs to the browser that made it: another
// browser, even the same member's, can neither see it on the connect
// page, approve it, nor take its code from the callback.
func TestRequestBoundToBrowser(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	r := newRP(t, env, thirdParty)
	attacker := env.Member(t)
	loc := follow(t, attacker, r.authURL(newFlow()))
	if loc.Path != oidcprovider.ConnectPath {
		t.Fatalf("third-party client: %s, want the connect page", loc)
	}
	id := loc.Query().Get("request")
	victim := env.Member(t)
	if res := victim.Get("/api/oidc/requests/" + url.PathEscape(id)); res.Status != http.StatusNotFound {
		t.Errorf("another browser sees the request: %d", res.Status)
	}
	if res := victim.Do(http.MethodPost, "/api/oidc/requests/"+url.PathEscape(id), map[string]any{"approve": true}); res.Status != http.StatusNotFound {
		t.Errorf("another browser approved: %d %s", res.Status, res.Body)
	}
	resp, err := victim.HTTP().Get(env.URL() + oidcprovider.CallbackPath + "?id=" + url.QueryEscape(id))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("another browser's callback: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	// In its own browser the request is still there.
	if res := attacker.Get("/api/oidc/requests/" + url.PathEscape(id)); res.Status != http.StatusOK {
		t.Errorf("own browser: %d", res.Status)
	}
}

// The authorization endpoint, the login step and the connect page refuse
// to be framed (X-Frame-Options and the CSP's frame-ancestors), and the
// connect page's decision needs the CSRF token.
func TestAuthorizeAndConsentRefuseFramingAndNeedCSRF(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	r := newRP(t, env, thirdParty)
	member := env.Member(t)
	loc := follow(t, member, r.authURL(newFlow()))
	id := loc.Query().Get("request")
	for _, u := range []string{r.authURL(newFlow()), env.URL() + oidcprovider.LoginPath + "?id=x", loc.String()} {
		resp, err := member.HTTP().Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: X-Frame-Options %q, CSP %q", u, resp.Header.Get("X-Frame-Options"), resp.Header.Get("Content-Security-Policy"))
		}
	}
	member.NoCSRF = true
	if res := member.Do(http.MethodPost, "/api/oidc/requests/"+url.PathEscape(id), map[string]any{"approve": true}); res.Status != http.StatusForbidden {
		t.Errorf("decision without CSRF token: %d", res.Status)
	}
	member.NoCSRF = false
	if res := member.Do(http.MethodPost, "/api/oidc/requests/"+url.PathEscape(id), map[string]any{"approve": true}); res.Status != http.StatusOK {
		t.Errorf("decision with the token: %d %s", res.Status, res.Body)
	}
}
