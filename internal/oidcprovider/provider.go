package oidcprovider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"members/internal/auth"
	"members/internal/ratelimit"
)

// The provider's paths. Discovery is at the issuer's well-known path;
// everything else is under /oidc/.
const (
	DiscoveryPath    = "/.well-known/openid-configuration"
	AuthorizePath    = "/oidc/authorize"
	CallbackPath     = "/oidc/authorize/callback"
	TokenPath        = "/oidc/token"
	UserinfoPath     = "/oidc/userinfo"
	RevocationPath   = "/oidc/revoke"
	EndSessionPath   = "/oidc/end_session"
	KeysPath         = "/oidc/keys"
	introspectionRel = "oidc/introspect" // not served: no client introspects
)

// TokenRequestsPerMinute is the default limit of token and revocation
// requests per client address and minute.
const TokenRequestsPerMinute = 120

// maxAssertionLifetime bounds a client assertion's exp (its id is kept
// until then, to refuse a replay).
const maxAssertionLifetime = time.Hour

// Config is what the provider needs beyond its store.
type Config struct {
	// Issuer is the members' area's public URL (--public-url); https, or
	// http on a loopback host (the demo, tests).
	Issuer string
	Keys   KeySource
	// CryptoKey encrypts the access tokens' ids and the codes (AES-GCM);
	// a secret shared by the instances.
	CryptoKey [32]byte
	Sessions  SessionEnder
	// Counters count the token endpoint's requests; TokenLimit is the
	// requests per client address and minute (zero: TokenRequestsPerMinute).
	Counters   ratelimit.Counters
	TokenLimit int
	// LogoutURL is where the member lands after RP-initiated logout
	// without a post_logout_redirect_uri (the login page).
	LogoutURL string
	Now       func() time.Time
	Logger    *slog.Logger
	// HTTPClient delivers back-channel logout tokens (nil: a client with
	// a 10-second timeout that follows no redirect).
	HTTPClient *http.Client
	// Unavailable reports an error that says the database cannot answer
	// just now: the token endpoint then answers 503 with Retry-After
	// (RetryAfter seconds), not 500.
	Unavailable func(error) bool
	RetryAfter  int
}

// Provider is the OpenID Connect provider.
type Provider struct {
	op      *op.Provider
	store   Store
	storage *storage
	cfg     Config
	limit   ratelimit.Window
	handler http.Handler
	nudge   chan struct{}
}

// New builds the provider on the library.
func New(store Store, cfg Config) (*Provider, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.TokenLimit <= 0 {
		cfg.TokenLimit = TokenRequestsPerMinute
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}
	}
	u, err := url.Parse(cfg.Issuer)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("oidc: issuer %q is not a URL", cfg.Issuer)
	}
	st := &storage{store: store, keys: cfg.Keys, now: cfg.Now, sessions: cfg.Sessions}
	p := &Provider{store: store, storage: st, cfg: cfg, nudge: make(chan struct{}, 1),
		limit: ratelimit.Window{Counters: cfg.Counters, Length: time.Minute, Limit: cfg.TokenLimit, Now: cfg.Now}}
	opts := []op.Option{
		op.WithCustomAuthEndpoint(op.NewEndpoint(AuthorizePath)),
		op.WithCustomTokenEndpoint(op.NewEndpoint(TokenPath)),
		op.WithCustomUserinfoEndpoint(op.NewEndpoint(UserinfoPath)),
		op.WithCustomRevocationEndpoint(op.NewEndpoint(RevocationPath)),
		op.WithCustomEndSessionEndpoint(op.NewEndpoint(EndSessionPath)),
		op.WithCustomKeysEndpoint(op.NewEndpoint(KeysPath)),
		op.WithCustomIntrospectionEndpoint(op.NewEndpoint(introspectionRel)),
		// Server-side clients only: no cross-origin reads from browsers.
		op.WithCORSOptions(nil),
		op.WithHttpInterceptors(p.guard),
	}
	if u.Scheme == "http" && loopbackHost(u.Hostname()) {
		opts = append(opts, op.WithAllowInsecure())
	}
	provider, err := op.NewProvider(&op.Config{
		CryptoKey:                         cfg.CryptoKey,
		CryptoKeyId:                       "members",
		DefaultLogoutRedirectURI:          cfg.LogoutURL,
		CodeMethodS256:                    true,
		AuthMethodPrivateKeyJWT:           true,
		GrantTypeRefreshToken:             true,
		SupportedScopes:                   Scopes,
		SupportedClaims:                   supportedClaims,
		BackChannelLogoutSupported:        true,
		BackChannelLogoutSessionSupported: true,
	}, st, op.StaticIssuer(strings.TrimRight(cfg.Issuer, "/")), opts...)
	if err != nil {
		return nil, fmt.Errorf("oidc provider: %w", err)
	}
	p.op = provider
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+DiscoveryPath, p.discovery)
	for _, path := range []string{AuthorizePath, CallbackPath, TokenPath, UserinfoPath, RevocationPath, EndSessionPath, KeysPath} {
		mux.Handle(path, provider)
	}
	p.handler = mux
	return p, nil
}

func loopbackHost(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}

// Issuer is the provider's issuer.
func (p *Provider) Issuer() string { return strings.TrimRight(p.cfg.Issuer, "/") }

// Handler serves discovery and the protocol's endpoints (not LoginPath,
// which the members' area answers with Resume). The caller puts the
// browser binding, the session and the client address in the request's
// context (WithBrowser, WithSession, WithClientAddr).
func (p *Provider) Handler() http.Handler { return p.handler }

var supportedClaims = []string{
	"iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "azp", "at_hash", "c_hash", "sid",
	"email", "email_verified", "given_name", "family_name", "locale", ClaimMemberNumber,
}

// discovery is the library's document, narrowed to what is served: the
// code flow with PKCE S256 only (no implicit or hybrid flow), the query
// response mode, client_secret_basic and private_key_jwt, no device flow
// or introspection.
func (p *Provider) discovery(w http.ResponseWriter, r *http.Request) {
	ctx := op.ContextWithIssuer(r.Context(), p.Issuer())
	d := op.CreateDiscoveryConfig(ctx, p.op, p.storage)
	if len(d.IDTokenSigningAlgValuesSupported) == 0 {
		writeOAuthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "no signing key")
		return
	}
	d.ResponseTypesSupported = []string{string(oidc.ResponseTypeCode)}
	d.ResponseModesSupported = []string{string(oidc.ResponseModeQuery)}
	d.GrantTypesSupported = []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken}
	d.DeviceAuthorizationEndpoint = ""
	d.IntrospectionEndpoint = ""
	d.IntrospectionEndpointAuthMethodsSupported = nil
	d.IntrospectionEndpointAuthSigningAlgValuesSupported = nil
	d.CheckSessionIframe = ""
	methods := []oidc.AuthMethod{oidc.AuthMethodBasic, oidc.AuthMethodPrivateKeyJWT}
	algs := []string{"RS256", "ES256", "PS256"}
	d.TokenEndpointAuthMethodsSupported = methods
	d.TokenEndpointAuthSigningAlgValuesSupported = algs
	d.RevocationEndpointAuthMethodsSupported = methods
	d.RevocationEndpointAuthSigningAlgValuesSupported = algs
	d.CodeChallengeMethodsSupported = []oidc.CodeChallengeMethod{oidc.CodeChallengeMethodS256}
	d.SubjectTypesSupported = []string{"public"}
	d.RequestParameterSupported = false
	d.RequestObjectSigningAlgValuesSupported = nil
	d.ClaimsParameterSupported = false
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(d)
}

// Request context: what the members' area knows of the browser.
type ctxKey int

const (
	keyBrowser ctxKey = iota
	keySession
	keyClientAddr
)

// WithBrowser puts the browser's binding value (its cookie) in ctx.
func WithBrowser(ctx context.Context, value string) context.Context {
	return context.WithValue(ctx, keyBrowser, value)
}

// WithSession puts the browser's live session here in ctx.
func WithSession(ctx context.Context, s auth.Session) context.Context {
	return context.WithValue(ctx, keySession, s)
}

// WithClientAddr puts the caller's address (after trusted proxies) in ctx.
func WithClientAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, keyClientAddr, addr)
}

func browserFrom(ctx context.Context) string {
	v, _ := ctx.Value(keyBrowser).(string)
	return v
}

func sessionFrom(ctx context.Context) (auth.Session, bool) {
	s, ok := ctx.Value(keySession).(auth.Session)
	return s, ok
}

// guard runs before the library's handlers: the token and revocation
// endpoints are rate limited per client address, take only the code and
// refresh grants, and refuse a replayed private_key_jwt assertion; the
// authorization callback answers only the browser that made the request.
func (p *Provider) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case TokenPath, RevocationPath:
			if !p.clientCall(w, r) {
				return
			}
		case CallbackPath:
			if !p.sameBrowser(w, r) {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// clientCall checks a call of a client's server; false when it answered.
func (p *Provider) clientCall(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost {
		writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", "use POST")
		return false
	}
	addr, _ := r.Context().Value(keyClientAddr).(string)
	ok, err := p.limit.Allow(r.Context(), "oidc:token:"+addr)
	if err != nil && p.cfg.Unavailable != nil && p.cfg.Unavailable(err) {
		p.cfg.Logger.Warn("oidc: token endpoint: database unavailable", "err", err)
		w.Header().Set("Retry-After", strconv.Itoa(max(1, p.cfg.RetryAfter)))
		writeOAuthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "try again in a moment")
		return false
	}
	if err != nil {
		p.cfg.Logger.Error("oidc: token rate limit", "err", err)
		writeOAuthError(w, http.StatusInternalServerError, "server_error", "")
		return false
	}
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(p.limit.Remaining().Seconds()))))
		writeOAuthError(w, http.StatusTooManyRequests, "temporarily_unavailable", "too many requests, try again later")
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "cannot parse the form")
		return false
	}
	if r.URL.Path == TokenPath {
		switch oidc.GrantType(r.PostForm.Get("grant_type")) {
		case oidc.GrantTypeCode, oidc.GrantTypeRefreshToken:
		default:
			writeOAuthError(w, http.StatusBadRequest, "unsupported_grant_type", "only authorization_code and refresh_token")
			return false
		}
	}
	if r.PostForm.Get("client_assertion_type") == oidc.ClientAssertionTypeJWTAssertion {
		if err := p.freshAssertion(r.Context(), r.PostForm.Get("client_assertion")); err != nil {
			writeOAuthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
			return false
		}
	}
	return true
}

// freshAssertion verifies a private_key_jwt assertion as the library does
// (signature by the client's key, audience, expiry) and records its jti:
// the same assertion a second time is refused. The library checks it
// again after.
func (p *Provider) freshAssertion(ctx context.Context, assertion string) error {
	req, err := op.VerifyJWTAssertion(ctx, assertion, p.op.JWTProfileVerifier(ctx))
	if err != nil {
		return errors.New("client assertion invalid")
	}
	if req.JWTID == "" {
		return errors.New("client assertion without jti")
	}
	now := p.cfg.Now()
	exp := req.ExpiresAt.AsTime()
	if exp.After(time.Now().Add(maxAssertionLifetime)) {
		return errors.New("client assertion lives too long")
	}
	// Kept by the product's clock for as long as the real one lets the
	// assertion pass.
	keep := now.Add(time.Until(exp) + time.Minute)
	if err := p.store.UseAssertion(ctx, req.Issuer, req.JWTID, keep, now); errors.Is(err, ErrReplayed) {
		return errors.New("client assertion used already")
	} else if err != nil {
		p.cfg.Logger.Error("oidc: record client assertion", "err", err)
		return errors.New("client assertion not checked")
	}
	return nil
}

// sameBrowser refuses the callback of a request made in another browser.
func (p *Provider) sameBrowser(w http.ResponseWriter, r *http.Request) bool {
	req, err := p.store.Request(r.Context(), r.URL.Query().Get("id"), p.cfg.Now())
	if err != nil || req.BrowserHash != Hash(browserFrom(r.Context())) {
		http.Error(w, "This sign-in has expired or was started in another browser. Go back to the site and sign in again.", http.StatusBadRequest)
		return false
	}
	return true
}

func writeOAuthError(w http.ResponseWriter, status int, code, description string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	body := map[string]string{"error": code}
	if description != "" {
		body["error_description"] = description
	}
	_ = json.NewEncoder(w).Encode(body)
}
