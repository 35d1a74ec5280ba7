package oidcprovider

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Clients is the operator's side: `members oidc clients add | list |
// remove | rotate-secret`.
type Clients struct {
	store Store
	now   func() time.Time
}

// NewClients returns the clients' administration.
func NewClients(store Store, now func() time.Time) *Clients {
	return &Clients{store: store, now: now}
}

// ClientInput is a new client.
type ClientInput struct {
	Name                   string
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
	BackchannelLogoutURI   string
	FirstParty             bool
	// AuthMethod is AuthSecretBasic (the default) or AuthPrivateKeyJWT
	// with JWKS, the client's public keys.
	AuthMethod string
	JWKS       []byte
}

// Add registers a client; it returns its id and, for client_secret_basic,
// its secret (shown once: only a hash is kept).
func (a *Clients) Add(ctx context.Context, in ClientInput) (string, string, error) {
	c := Client{
		Name: strings.TrimSpace(in.Name), RedirectURIs: in.RedirectURIs, PostLogoutRedirectURIs: in.PostLogoutRedirectURIs,
		BackchannelLogoutURI: strings.TrimSpace(in.BackchannelLogoutURI), FirstParty: in.FirstParty,
		AuthMethod: in.AuthMethod, CreatedAt: a.now(),
	}
	if c.AuthMethod == "" {
		c.AuthMethod = AuthSecretBasic
	}
	if c.Name == "" || len(c.Name) > 100 {
		return "", "", errors.New("--name: give the client a name of at most 100 characters")
	}
	if len(c.RedirectURIs) == 0 {
		return "", "", errors.New("--redirect-uri: give at least one")
	}
	for _, u := range c.RedirectURIs {
		if err := CheckURI(u); err != nil {
			return "", "", fmt.Errorf("--redirect-uri %s: %w", u, err)
		}
	}
	for _, u := range c.PostLogoutRedirectURIs {
		if err := CheckURI(u); err != nil {
			return "", "", fmt.Errorf("--post-logout-redirect-uri %s: %w", u, err)
		}
	}
	if c.BackchannelLogoutURI != "" {
		if err := CheckURI(c.BackchannelLogoutURI); err != nil {
			return "", "", fmt.Errorf("--backchannel-logout-uri %s: %w", c.BackchannelLogoutURI, err)
		}
	}
	secret := ""
	switch c.AuthMethod {
	case AuthSecretBasic:
		if len(in.JWKS) > 0 {
			return "", "", errors.New("--jwks is for --auth-method private_key_jwt")
		}
		var err error
		if secret, err = random(32); err != nil {
			return "", "", err
		}
		c.SecretHash = Hash(secret)
	case AuthPrivateKeyJWT:
		keys, err := CheckJWKS(in.JWKS)
		if err != nil {
			return "", "", fmt.Errorf("--jwks: %w", err)
		}
		c.JWKS = keys
	default:
		return "", "", fmt.Errorf("--auth-method %q: client_secret_basic or private_key_jwt", c.AuthMethod)
	}
	id, err := random(16)
	if err != nil {
		return "", "", err
	}
	c.ID = id
	if err := a.store.AddClient(ctx, c); err != nil {
		return "", "", fmt.Errorf("add client: %w", err)
	}
	return id, secret, nil
}

// List returns every client.
func (a *Clients) List(ctx context.Context) ([]Client, error) { return a.store.Clients(ctx) }

// Remove deletes a client with its grants and tokens; ErrNotFound.
func (a *Clients) Remove(ctx context.Context, id string) error { return a.store.RemoveClient(ctx, id) }

// RotateSecret gives a client_secret_basic client a new secret; the old
// one keeps working for PreviousSecretLifetime.
func (a *Clients) RotateSecret(ctx context.Context, id string) (string, error) {
	c, err := a.store.Client(ctx, id)
	if err != nil {
		return "", err
	}
	if c.AuthMethod != AuthSecretBasic {
		return "", errors.New("the client signs with its own keys (private_key_jwt): it has no secret")
	}
	secret, err := random(32)
	if err != nil {
		return "", err
	}
	if err := a.store.SetSecret(ctx, id, Hash(secret), a.now().Add(PreviousSecretLifetime)); err != nil {
		return "", err
	}
	return secret, nil
}

func random(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// CheckURI accepts an absolute https URL without a fragment, or http on a
// loopback host (a client on the operator's own machine, tests).
func CheckURI(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return errors.New("not an absolute URL")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return errors.New("a fragment is not allowed")
	}
	if u.User != nil {
		return errors.New("user information is not allowed")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && loopbackHost(u.Hostname()):
	default:
		return errors.New("must be https (http only on a loopback host)")
	}
	return nil
}

// CheckJWKS reads a client's public keys: a JSON Web Key Set of RSA or EC
// P-256 public keys, each with a kid. It returns the set as stored.
func CheckJWKS(b []byte) ([]byte, error) {
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(b, &set); err != nil || len(set.Keys) == 0 {
		return nil, errors.New("not a JSON Web Key Set with keys")
	}
	out := jose.JSONWebKeySet{}
	for _, k := range set.Keys {
		if !k.Valid() || !k.IsPublic() {
			return nil, errors.New("each key must be a valid public key")
		}
		if k.KeyID == "" {
			return nil, errors.New("each key needs a kid")
		}
		if k.Use != "" && k.Use != "sig" {
			return nil, fmt.Errorf("key %s: use must be sig", k.KeyID)
		}
		out.Keys = append(out.Keys, k)
	}
	return json.Marshal(out)
}
