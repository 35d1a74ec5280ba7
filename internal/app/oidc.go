package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"members/internal/api/oidcapi"
	"members/internal/httpapi"
	"members/internal/oidcprovider"
	"members/internal/store"
)

// OIDCConfig configures the OpenID Connect provider.
type OIDCConfig struct {
	// SigningKey is the current signing key, PEM (RSA for RS256, EC P-256
	// for ES256), from the secret store (--oidc-signing-key, env
	// MEMBERS_OIDC_SIGNING_KEY), never in the database. Empty: with Demo,
	// a key generated once and kept in the database; otherwise the
	// provider answers 503 not_configured.
	SigningKey string
	// PreviousKeys are published in the JWKS beside it during a rotation
	// (PEM, private or public).
	PreviousKeys []string
	// TokenLimit is the token endpoint's requests per client address and
	// minute (zero: oidcprovider.TokenRequestsPerMinute).
	TokenLimit int
}

// demoKeySetting keeps the demo's generated signing key (demo and tests only).
const demoKeySetting = "secret:oidc-demo-signing-key"

// wireOIDC mounts the OpenID Connect provider: discovery, /oidc/… and the
// login step at the root, the connect page's and the security centre's
// calls under /api, and the back-channel logout worker.
func (a *App) wireOIDC(ctx context.Context, cfg Config, f *Features) error {
	keys, err := a.oidcKeys(cfg)
	if err != nil {
		return err
	}
	if keys == nil {
		f.ServerRootMounts = append(f.ServerRootMounts, httpapi.MountOIDC(nil))
		f.Mounts = append(f.Mounts, mountOIDCAPI(nil))
		return nil
	}
	secret, err := a.Secret(ctx, "oidc-crypto")
	if err != nil {
		return err
	}
	issuer := cfg.PublicURL
	if issuer == "" {
		issuer = cfg.ServerURL
	}
	if issuer == "" {
		issuer = DefaultPublicURL
	}
	issuer = strings.TrimRight(issuer, "/")
	var crypto [32]byte
	copy(crypto[:], secret)
	p, err := oidcprovider.New(store.NewOIDCStore(a.DB), oidcprovider.Config{
		Issuer: issuer, Keys: keys, CryptoKey: crypto, Sessions: a.Auth, Counters: a.Counters,
		TokenLimit: cfg.OIDC.TokenLimit, LogoutURL: issuer + "/login", Now: a.DB.Now, Logger: a.Logger,
		Unavailable: func(err error) bool { return a.unavailable(err) != "" }, RetryAfter: httpapi.RetryAfterUnavailable,
	})
	if err != nil {
		return err
	}
	a.OIDC = p
	f.ServerRootMounts = append(f.ServerRootMounts, httpapi.MountOIDC(p))
	f.Mounts = append(f.Mounts, mountOIDCAPI(p))
	f.Background = append(f.Background, p.RunLogouts)
	return nil
}

// mountOIDCAPI mounts the connect page's and the security centre's calls.
func mountOIDCAPI(p *oidcprovider.Provider) func(*httpapi.Server, *http.ServeMux) {
	return func(s *httpapi.Server, mux *http.ServeMux) {
		oidcapi.HandlerWithOptions(httpapi.NewOIDCHandlers(s, p), oidcapi.StdHTTPServerOptions{BaseRouter: mux, ErrorHandlerFunc: s.ParamError})
	}
}

// oidcKeys is where the signing keys come from (nil: none configured).
func (a *App) oidcKeys(cfg Config) (oidcprovider.KeySource, error) {
	var previous []*oidcprovider.Key
	for i, pemText := range cfg.OIDC.PreviousKeys {
		if strings.TrimSpace(pemText) == "" {
			continue
		}
		k, err := oidcprovider.ParseKey([]byte(pemText))
		if err != nil {
			return nil, fmt.Errorf("--oidc-signing-key-previous (%d): %w", i+1, err)
		}
		previous = append(previous, k)
	}
	if strings.TrimSpace(cfg.OIDC.SigningKey) != "" {
		k, err := oidcprovider.ParseKey([]byte(cfg.OIDC.SigningKey))
		if err != nil {
			return nil, fmt.Errorf("--oidc-signing-key: %w", err)
		}
		if !k.Signs() {
			return nil, errors.New("--oidc-signing-key: a private key is needed to sign")
		}
		return func(context.Context) (*oidcprovider.Key, []*oidcprovider.Key, error) { return k, previous, nil }, nil
	}
	if !cfg.Demo {
		return nil, nil
	}
	// The demo's key is made at its first use (RSA takes a moment, and
	// most test servers never sign) and kept in the database, so every
	// instance on the demo database signs with it.
	var mu sync.Mutex
	var key *oidcprovider.Key
	return func(ctx context.Context) (*oidcprovider.Key, []*oidcprovider.Key, error) {
		mu.Lock()
		defer mu.Unlock()
		if key != nil {
			return key, previous, nil
		}
		var stored string
		if err := a.Settings.Get(ctx, demoKeySetting, &stored); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, nil, err
		}
		if stored == "" {
			_, pemText, err := oidcprovider.GenerateKey()
			if err != nil {
				return nil, nil, err
			}
			if err := a.Settings.SetIfMissing(ctx, demoKeySetting, string(pemText), &stored); err != nil {
				return nil, nil, err
			}
		}
		k, err := oidcprovider.ParseKey([]byte(stored))
		if err != nil {
			return nil, nil, fmt.Errorf("demo signing key: %w", err)
		}
		key = k
		return key, previous, nil
	}, nil
}
