package oidcprovider_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/oidcprovider"
	"members/internal/store"
)

// The relying parties of these tests are coreos/go-oidc with
// golang.org/x/oauth2: libraries no one here wrote.

const callback = "http://127.0.0.1:9/callback"

// rp is a client registered with the provider and its go-oidc side.
type rp struct {
	t        *testing.T
	env      *apitest.Env
	id       string
	secret   string
	redirect string
	provider *oidc.Provider
	conf     *oauth2.Config
	verifier *oidc.IDTokenVerifier
	key      *ecdsa.PrivateKey // private_key_jwt clients
}

type rpOption func(*oidcprovider.ClientInput)

func thirdParty(in *oidcprovider.ClientInput) { in.FirstParty = false }

func backchannel(uri string) rpOption {
	return func(in *oidcprovider.ClientInput) { in.BackchannelLogoutURI = uri }
}

func postLogout(uri string) rpOption {
	return func(in *oidcprovider.ClientInput) { in.PostLogoutRedirectURIs = append(in.PostLogoutRedirectURIs, uri) }
}

// newRP registers a first-party client_secret_basic client (options
// change it) and discovers the provider with go-oidc.
func newRP(t *testing.T, env *apitest.Env, opts ...rpOption) *rp {
	t.Helper()
	in := oidcprovider.ClientInput{Name: "Booking site", RedirectURIs: []string{callback}, FirstParty: true}
	for _, o := range opts {
		o(&in)
	}
	r := &rp{t: t, env: env, redirect: in.RedirectURIs[0]}
	if in.AuthMethod == oidcprovider.AuthPrivateKeyJWT {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		r.key = k
		set, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: k.Public(), KeyID: "rp-key-1", Algorithm: "ES256", Use: "sig"}}})
		in.JWKS = set
	}
	id, secret, err := clients(env).Add(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	r.id, r.secret = id, secret
	ctx := oidc.ClientContext(context.Background(), http.DefaultClient)
	p, err := oidc.NewProvider(ctx, env.URL())
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	r.provider = p
	ep := p.Endpoint()
	ep.AuthStyle = oauth2.AuthStyleInHeader
	r.conf = &oauth2.Config{ClientID: id, ClientSecret: secret, Endpoint: ep, RedirectURL: r.redirect,
		Scopes: []string{oidc.ScopeOpenID, "profile", "email", "membership", oidc.ScopeOfflineAccess}}
	r.verifier = p.Verifier(&oidc.Config{ClientID: id})
	return r
}

func privateKeyJWT(in *oidcprovider.ClientInput) { in.AuthMethod = oidcprovider.AuthPrivateKeyJWT }

func clients(env *apitest.Env) *oidcprovider.Clients {
	return oidcprovider.NewClients(store.NewOIDCStore(env.App.DB), env.App.DB.Now)
}

// flow is one authorization request's parameters as the test sent them.
type flow struct {
	state, nonce, verifier string
}

func newFlow() flow {
	return flow{state: oauth2.GenerateVerifier()[:16], nonce: oauth2.GenerateVerifier()[:16], verifier: oauth2.GenerateVerifier()}
}

// authURL is the authorization request with PKCE S256 (and more options).
func (r *rp) authURL(f flow, opts ...oauth2.AuthCodeOption) string {
	return r.conf.AuthCodeURL(f.state, append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(f.verifier), oidc.Nonce(f.nonce)}, opts...)...)
}

// follow walks a browser's redirects from start until they leave the
// provider for the client's redirect URI, or reach a page of the web app
// (the login or connect page): it returns that address.
func follow(t *testing.T, browser *apitest.Client, start string) *url.URL {
	t.Helper()
	next := start
	for range 10 {
		resp, err := browser.HTTP().Get(next)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusFound && resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("GET %s: %d %s", next, resp.StatusCode, body)
		}
		base, _ := url.Parse(next)
		loc, err := base.Parse(resp.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(loc.String(), callback) || !strings.HasPrefix(loc.Path, "/oidc/") {
			return loc
		}
		next = loc.String()
	}
	t.Fatalf("too many redirects from %s", start)
	return nil
}

// code runs the flow for a signed-in browser and returns the code, failing
// the test on an error answer.
func (r *rp) code(browser *apitest.Client, f flow, opts ...oauth2.AuthCodeOption) string {
	r.t.Helper()
	loc := follow(r.t, browser, r.authURL(f, opts...))
	q := loc.Query()
	if !strings.HasPrefix(loc.String(), r.redirect) || q.Get("code") == "" {
		r.t.Fatalf("no code: %s", loc)
	}
	if q.Get("state") != f.state {
		r.t.Fatalf("state %q, want %q", q.Get("state"), f.state)
	}
	return q.Get("code")
}

// exchange trades a code for tokens with the PKCE verifier.
func (r *rp) exchange(code, verifier string) (*oauth2.Token, error) {
	return r.conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
}

// signIn is a whole sign-in: code, tokens, verified ID token.
func (r *rp) signIn(browser *apitest.Client) (*oauth2.Token, *oidc.IDToken) {
	r.t.Helper()
	f := newFlow()
	tok, err := r.exchange(r.code(browser, f), f.verifier)
	if err != nil {
		r.t.Fatalf("exchange: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := r.verifier.Verify(context.Background(), raw)
	if err != nil {
		r.t.Fatalf("verify ID token: %v", err)
	}
	if idt.Nonce != f.nonce {
		r.t.Fatalf("nonce %q, want %q", idt.Nonce, f.nonce)
	}
	return tok, idt
}

// post sends a form to one of the provider's endpoints.
func post(t *testing.T, endpoint string, form url.Values, user, pass string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if user != "" {
		req.SetBasicAuth(url.QueryEscape(user), url.QueryEscape(pass))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &body)
	return resp.StatusCode, body
}

// assertion is a private_key_jwt client assertion signed with the rp's
// key (header and claims changed by edit).
func (r *rp) assertion(jti string, kid string) string {
	r.t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: r.key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		r.t.Fatal(err)
	}
	now := time.Now()
	s, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: r.id, Subject: r.id, Audience: jwt.Audience{r.env.URL()},
		ID: jti, IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Minute))}).Serialize()
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

// tokenForm is a code exchange's form (without client authentication).
func (r *rp) tokenForm(code, verifier string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {r.redirect}}
}

func randomID(t *testing.T) string {
	t.Helper()
	s, err := auth.RandomToken()
	if err != nil {
		t.Fatal(err)
	}
	return s
}
