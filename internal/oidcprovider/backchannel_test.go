package oidcprovider_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/oidcprovider"
	"members/internal/store"
)

// logoutSite is a client's back-channel logout endpoint: it keeps the
// tokens it is sent, and answers status (200 unless set).
type logoutSite struct {
	*httptest.Server
	mu     sync.Mutex
	tokens []string
	status int
}

func newLogoutSite(t *testing.T) *logoutSite {
	s := &logoutSite{status: http.StatusOK}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.tokens = append(s.tokens, r.PostFormValue("logout_token"))
		w.WriteHeader(s.status)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *logoutSite) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.tokens
	s.tokens = nil
	return out
}

func (s *logoutSite) answer(status int) {
	s.mu.Lock()
	s.status = status
	s.mu.Unlock()
}

// logoutClaims verifies a logout token as a relying party must
// (Back-Channel Logout 1.0, section 2.6): the signature by a key of the
// JWKS, iss, aud, iat, jti, the event, typ, no nonce.
func (r *rp) logoutClaims(token string) map[string]any {
	r.t.Helper()
	keys := oidc.NewRemoteKeySet(context.Background(), r.env.URL()+oidcprovider.KeysPath)
	payload, err := keys.VerifySignature(context.Background(), token)
	if err != nil {
		r.t.Fatalf("logout token signature: %v", err)
	}
	header, _ := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[0])
	var h map[string]any
	_ = json.Unmarshal(header, &h)
	if h["typ"] != "logout+jwt" {
		r.t.Errorf("typ %v", h["typ"])
	}
	var c map[string]any
	if err := json.Unmarshal(payload, &c); err != nil {
		r.t.Fatal(err)
	}
	if c["iss"] != r.env.URL() || c["aud"] != r.id || c["iat"] == nil || c["jti"] == nil || c["exp"] == nil {
		r.t.Errorf("logout token claims %v", c)
	}
	if _, ok := c["nonce"]; ok {
		r.t.Error("a logout token with a nonce")
	}
	ev, _ := c["events"].(map[string]any)
	if _, ok := ev[oidcprovider.BackchannelLogoutEvent]; !ok {
		r.t.Errorf("events %v", c["events"])
	}
	return c
}

func sid(t *testing.T, tok *oauth2.Token) string {
	t.Helper()
	raw, _ := tok.Extra("id_token").(string)
	payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(raw, ".")[1])
	var c map[string]any
	_ = json.Unmarshal(payload, &c)
	s, _ := c["sid"].(string)
	if s == "" {
		t.Fatal("ID token without sid")
	}
	return s
}

// deliver runs the logout worker once and returns what the site got.
func deliver(t *testing.T, env *apitest.Env, site *logoutSite) []string {
	t.Helper()
	if _, err := env.App.OIDC.DeliverLogouts(context.Background()); err != nil {
		t.Fatal(err)
	}
	return site.take()
}

// Every way a member's sessions end on purpose reaches the clients they
// signed in to, by back-channel logout: a logout, one device signed out
// from the security centre, "End all other sessions", a password change
// (the sessions that end: sid), a password reset and an erasure (every
// session: sub only). Their tokens are revoked with them. A client
// without a back-channel URI gets nothing.
func TestBackchannelLogout(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := context.Background()
		site := newLogoutSite(t)
		r := newRP(t, env, backchannel(site.URL+"/logout"))
		quiet := newRP(t, env) // no back-channel logout URI

		one := func(tokens []string, wantSid string) {
			t.Helper()
			if len(tokens) != 1 {
				t.Fatalf("%d logout tokens, want 1", len(tokens))
			}
			c := r.logoutClaims(tokens[0])
			if c["sub"] != demo.Member1 {
				t.Errorf("sub %v", c["sub"])
			}
			if got, _ := c["sid"].(string); got != wantSid {
				t.Errorf("sid %q, want %q", got, wantSid)
			}
		}

		// A logout: the session's sid, and its tokens are revoked.
		member := env.Member(t)
		tok, _ := r.signIn(member)
		quiet.signIn(member)
		if got := member.Do(http.MethodDelete, "/api/session", nil); got.Status != http.StatusNoContent {
			t.Fatal(got.Status)
		}
		one(deliver(t, env, site), sid(t, tok))
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
			t.Error("the ended session's refresh token still refreshes")
		}
		if got := deliver(t, env, site); len(got) != 0 {
			t.Errorf("delivered again: %d", len(got))
		}

		// One device signed out from another's security centre.
		phone, laptop := env.Member(t), env.Member(t)
		tok, _ = r.signIn(phone)
		var sessions struct {
			Sessions []struct {
				ID      string `json:"id"`
				Current bool   `json:"current"`
			} `json:"sessions"`
		}
		laptop.Get("/api/security/sessions").JSON(t, &sessions)
		for _, s := range sessions.Sessions {
			if !s.Current {
				laptop.Do(http.MethodDelete, "/api/security/sessions/"+s.ID, nil)
			}
		}
		one(deliver(t, env, site), sid(t, tok))

		// End all other sessions: the others' sids, not this one's.
		a, b := env.Member(t), env.Member(t)
		tokA, _ := r.signIn(a)
		tokB, _ := r.signIn(b)
		if got := b.Do(http.MethodDelete, "/api/security/sessions", nil); got.Status != http.StatusNoContent {
			t.Fatal(got.Status)
		}
		got := deliver(t, env, site)
		var sids []string
		for _, tkn := range got {
			s, _ := r.logoutClaims(tkn)["sid"].(string)
			sids = append(sids, s)
		}
		if !contains(sids, sid(t, tokA)) || contains(sids, sid(t, tokB)) {
			t.Errorf("end others: sids %v, want %s and not %s", sids, sid(t, tokA), sid(t, tokB))
		}
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tokB.RefreshToken}).Token(); err != nil {
			t.Errorf("the kept session's refresh token: %v", err)
		}

		// A password change: the other sessions.
		other := env.Member(t)
		tokO, _ := r.signIn(other)
		res := b.Do(http.MethodPut, "/api/user/password", map[string]string{"passwordOld": apitest.DemoPassword, "passwordNew": "Better1234", "passwordReenter": "Better1234"})
		if res.Status != http.StatusOK {
			t.Fatalf("password change: %d %s", res.Status, res.Body)
		}
		got = deliver(t, env, site)
		if len(got) != 1 || r.logoutClaims(got[0])["sid"] != sid(t, tokO) {
			t.Errorf("password change: %d tokens", len(got))
		}

		// A password reset: every session of the member, sub only.
		env.Member2(t)
		anon := env.Client(t)
		anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.DemoEmail})
		link := resetToken(t, env)
		if res := anon.Do(http.MethodPut, "/api/user/reset_password", map[string]string{"token": link, "password": "Reset1234", "passwordReenter": "Reset1234"}); res.Status != http.StatusOK {
			t.Fatalf("reset: %d %s", res.Status, res.Body)
		}
		got = deliver(t, env, site)
		if len(got) != 1 {
			t.Fatalf("reset: %d tokens", len(got))
		}
		if c := r.logoutClaims(got[0]); c["sub"] != demo.Member1 || c["sid"] != nil {
			t.Errorf("reset: %v, want sub without sid", c)
		}

		// An erasure: sub only, and the grant is gone.
		c := env.Client(t)
		c.Login(apitest.DemoEmail, "Reset1234")
		r.signIn(c)
		if err := env.App.Privacy.EraseNow(ctx, demo.Member1, i18n.EN); err != nil {
			t.Fatal(err)
		}
		got = deliver(t, env, site)
		if len(got) != 1 || r.logoutClaims(got[0])["sid"] != nil {
			t.Fatalf("erasure: %d tokens", len(got))
		}
		var n int
		if err := env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM oidc_grants WHERE member_id = $1`, demo.Member1).Scan(&n); err != nil || n != 0 {
			t.Errorf("grants after erasure: %d %v", n, err)
		}
	})
}

// A site that does not answer 200 is tried again with a growing wait,
// each failure logged (never the token), and given up after the last
// attempt with an error line.
func TestBackchannelLogoutRetries(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	site := newLogoutSite(t)
	r := newRP(t, env, backchannel(site.URL+"/logout"))
	member := env.Member(t)
	r.signIn(member)
	site.answer(http.StatusServiceUnavailable)
	member.Do(http.MethodDelete, "/api/session", nil)
	var token string
	for i := 1; i <= oidcprovider.LogoutMaxAttempts; i++ {
		got := deliver(t, env, site)
		if len(got) != 1 {
			t.Fatalf("attempt %d: %d tokens", i, len(got))
		}
		token = got[0]
		if again := deliver(t, env, site); len(again) != 0 {
			t.Fatalf("attempt %d tried again before its wait", i)
		}
		env.Clock.Advance(oidcprovider.LogoutWait(i))
	}
	if got := deliver(t, env, site); len(got) != 0 {
		t.Errorf("tried after the last attempt: %d", len(got))
	}
	logs := env.Log.String()
	if strings.Count(logs, "oidc: back-channel logout failed") != oidcprovider.LogoutMaxAttempts-1 ||
		!strings.Contains(logs, "oidc: back-channel logout given up") || !strings.Contains(logs, "HTTP 503") {
		t.Errorf("failures not logged:\n%s", logs)
	}
	if strings.Contains(logs, token) || strings.Contains(logs, strings.Split(token, ".")[1]) {
		t.Error("a logout token in the log")
	}

	// A site that recovers gets the next one at the first try.
	site.answer(http.StatusOK)
	m := env.Member(t)
	r.signIn(m)
	m.Do(http.MethodDelete, "/api/session", nil)
	if got := deliver(t, env, site); len(got) != 1 {
		t.Errorf("after recovery: %d", len(got))
	}
}

// The security centre's "Sites that use your account": each client the
// member granted, its scopes and last use; revoking one takes back its
// grant and tokens and signs the member out there.
func TestSitesThatUseYourAccount(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := context.Background()
		site := newLogoutSite(t)
		r := newRP(t, env, backchannel(site.URL+"/logout"))
		member := env.Member(t)
		tok, _ := r.signIn(member)
		var list struct {
			Sites []struct {
				ClientID   string    `json:"clientId"`
				Name       string    `json:"name"`
				FirstParty bool      `json:"firstParty"`
				Scopes     []string  `json:"scopes"`
				LastUsedAt time.Time `json:"lastUsedAt"`
			} `json:"sites"`
		}
		member.Get("/api/security/sites").JSON(t, &list)
		if len(list.Sites) != 1 || list.Sites[0].ClientID != r.id || list.Sites[0].Name != "Booking site" || !list.Sites[0].FirstParty ||
			!list.Sites[0].LastUsedAt.Equal(env.Clock.Now()) || strings.Join(list.Sites[0].Scopes, " ") != "openid profile email membership offline_access" {
			t.Fatalf("sites %+v", list.Sites)
		}
		// Another member sees none of it and cannot revoke it.
		other := env.Member2(t)
		var none struct{ Sites []any }
		other.Get("/api/security/sites").JSON(t, &none)
		if len(none.Sites) != 0 {
			t.Errorf("member 2 sees %v", none.Sites)
		}
		if res := other.Do(http.MethodDelete, "/api/security/sites/"+r.id, nil); res.Status != http.StatusNotFound {
			t.Errorf("member 2 revoked: %d", res.Status)
		}
		if res := member.Do(http.MethodDelete, "/api/security/sites/"+r.id, nil); res.Status != http.StatusNoContent {
			t.Fatalf("revoke: %d %s", res.Status, res.Body)
		}
		member.Get("/api/security/sites").JSON(t, &list)
		if len(list.Sites) != 0 {
			t.Errorf("after revoking: %+v", list.Sites)
		}
		if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
			t.Error("a revoked site's refresh token refreshes")
		}
		if got := deliver(t, env, site); len(got) != 1 || r.logoutClaims(got[0])["sid"] != nil {
			t.Errorf("revoked site: %d logout tokens", len(got))
		}
		if res := member.Do(http.MethodDelete, "/api/security/sites/"+r.id, nil); res.Status != http.StatusNotFound {
			t.Errorf("revoke again: %d", res.Status)
		}
	})
}

var resetTokenRe = regexp.MustCompile(`/reset-password/([A-Za-z0-9_-]+)\?`)

func resetToken(t *testing.T, env *apitest.Env) string {
	t.Helper()
	// The reset mail is stored as the request answers, or just after.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		list, err := store.NewMailOutbox(env.App.DB).List(context.Background(), 500)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range list {
			if m.Kind == mail.KindPasswordReset {
				if g := resetTokenRe.FindStringSubmatch(m.Text); g != nil {
					return g[1]
				}
			}
		}
	}
	t.Fatal("no reset mail")
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// The booking site's deactivation of a member (the members feed) ends
// every session here, so every site the member uses is told (sub only)
// and the member's tokens stop working.
func TestBackchannelLogoutOnDeactivation(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	ctx := context.Background()
	if _, err := env.App.DB.ExecContext(ctx, `UPDATE members SET member_number = 'MM7654321' WHERE id = $1`, demo.Member1); err != nil {
		t.Fatal(err)
	}
	site := newLogoutSite(t)
	r := newRP(t, env, backchannel(site.URL+"/logout"))
	tok, _ := r.signIn(env.Member(t))
	if _, err := store.NewProvisionStore(env.App.DB).SetDeactivated(ctx, "MM7654321", true, env.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	got := deliver(t, env, site)
	if len(got) != 1 {
		t.Fatalf("%d logout tokens", len(got))
	}
	if c := r.logoutClaims(got[0]); c["sub"] != demo.Member1 || c["sid"] != nil {
		t.Errorf("claims %v, want sub without sid", c)
	}
	if _, err := r.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Error("a deactivated member's refresh token still refreshes")
	}
}
