// Package app wires the product together: the migrated database, the
// domain services and the HTTP handler with every feature mounted. The
// command and the tests build the server the same way through it.
package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"members/internal/auth"
	"members/internal/demo"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/masters"
	"members/internal/notify"
	"members/internal/oidcprovider"
	"members/internal/ops"
	"members/internal/payment"
	"members/internal/platform"
	"members/internal/privacy"
	"members/internal/security"
	"members/internal/store"
	"members/internal/webapp"
)

// Options open an App.
type Options struct {
	DSN    string
	Logger *slog.Logger
	// Now replaces the clock (tests); nil means time.Now.
	Now func() time.Time
	// PasswordCost replaces auth.DefaultPasswordCost (tests); nil keeps it.
	PasswordCost *auth.PasswordCost
}

// Config is what the server needs beyond the database.
type Config struct {
	Revision string
	Demo     bool
	SMTPURL  string // empty keeps mail in the outbox
	// PublicURL is the site's base URL for links in mails (reset links).
	PublicURL      string
	BookingSiteURL string
	SecureCookies  bool
	// TrustedProxies name the reverse proxies whose forwarding headers
	// give the client address (--trusted-proxies).
	TrustedProxies []netip.Prefix
	// ServerURL is where this server reaches itself (http://127.0.0.1:PORT),
	// set by serve from its listen address: the in-process sandbox gateway
	// is called and sends its webhooks there. Empty: DefaultServerURL.
	ServerURL string
	// GatewayURL is an outside payment gateway's base URL (…/gateway);
	// empty mounts the sandbox gateway at /gateway/ (see wireGateway).
	// The command refuses to start without it unless in demo mode or with
	// GatewaySandbox (an explicit choice of the sandbox).
	GatewayURL     string
	GatewaySandbox bool
	// GatewayKey and GatewayWebhookSecret are the merchant's secret key and
	// webhook secret at the gateway; for the in-process sandbox they replace
	// the generated ones (kept in the database) when set, and are not
	// stored. GatewayWebhookSecretPrevious still verify webhooks during a
	// change of secret.
	GatewayKey                   string
	GatewayWebhookSecret         string
	GatewayWebhookSecretPrevious []string
	// GatewaySlow is how long the sandbox holds back card 0119's authorise
	// answer, GatewayExpireAfter how long an unpaid customer step lives
	// (zero: 30 s and 30 min).
	GatewaySlow        time.Duration
	GatewayExpireAfter time.Duration
	// GatewayDB gives the in-process sandbox a database of its own (DSN);
	// empty keeps its tables in the members database.
	GatewayDB string
	// PaymentGateway replaces the HTTP adapter to the gateway (engine
	// tests with a scripted gateway).
	PaymentGateway payment.Gateway
	// GatewayTimeout bounds each call to the gateway (zero: 10 s).
	GatewayTimeout time.Duration
	// Gateway chooses the payment gateway: "" for the sandbox protocol
	// (the in-process sandbox, or GatewayURL), GatewayStripe for Stripe
	// with the keys in Stripe.
	Gateway string
	Stripe  StripeConfig
	// PasskeyRPID is the WebAuthn relying party id (--passkey-rp-id);
	// empty: the host of PublicURL. PasskeyOrigins are the origins a
	// passkey ceremony may come from (--passkey-origins); empty: the
	// origin of PublicURL.
	PasskeyRPID    string
	PasskeyOrigins []string
	// PointsReminderDays are the days before expiry at which the points
	// reminder mail goes out (nil: DefaultPointsReminderDays).
	PointsReminderDays []int
	// MailRetention is how long sent mails stay in the outbox before the
	// worker purges them (--mail-retention; zero: mail.DefaultRetention).
	MailRetention time.Duration
	// PinKey is the key of the keyed hash of server-generated secrets
	// (voucher PINs, exchange-code passwords): base64 of at least 32 bytes,
	// kept outside the database (--pin-key, env MEMBERS_PIN_KEY). Empty:
	// a key kept in the database is used (demo, tests; see docs/security.md).
	PinKey string
	// OpsSecret signs the operations feed of flight events (--ops-secret,
	// env MEMBERS_OPS_SECRET), kept outside the database. Empty: the feed
	// answers 503, or uses DemoOpsSecret with Demo.
	OpsSecret string
	// BookingsFeedSecret and BookingsFeedSecretPrevious sign the bookings
	// feed (--bookings-feed-secret, --bookings-feed-secret-previous, env
	// MEMBERS_BOOKINGS_FEED_SECRET and …_PREVIOUS), kept outside the
	// database. Empty: the feed answers 503, or uses
	// DemoBookingsFeedSecret with Demo.
	BookingsFeedSecret, BookingsFeedSecretPrevious string
	// MembersFeedSecret (and MembersFeedSecretPrevious during a rotation)
	// sign the booking site's members provisioning feed
	// (--members-feed-secret, env MEMBERS_MEMBERS_FEED_SECRET), kept outside
	// the database. Empty: the feed answers 503, or uses
	// DemoMembersFeedSecret with Demo.
	MembersFeedSecret         string
	MembersFeedSecretPrevious string
	// Metrics is the registry of the instance's metrics (--metrics-addr),
	// registered by Server; nil: off.
	Metrics *prometheus.Registry
	// UnsubscribeKey signs the one-click unsubscribe links of the optional
	// mails (--unsubscribe-key, env MEMBERS_UNSUBSCRIBE_KEY): base64 of at
	// least 32 bytes, kept outside the database. Empty: a key kept in the
	// database (demo, tests). UnsubscribeKeyPrevious still verify the
	// links of mails sent before a key change.
	UnsubscribeKey         string
	UnsubscribeKeyPrevious []string
	// OIDC configures the OpenID Connect provider (its signing keys).
	OIDC OIDCConfig
	// VAPIDPrivateKey is the server's Web Push key (--vapid-private-key,
	// env MEMBERS_VAPID_PRIVATE_KEY): base64url of a P-256 private key,
	// kept outside the database. Empty: with Demo a key made once and kept
	// in the database, otherwise no push is offered. VAPIDSubject is the
	// operator's contact in each push's VAPID claim (mailto: or https:;
	// empty: the public URL when it is https, else the mail sender).
	VAPIDPrivateKey string
	VAPIDSubject    string
	// TestPushService admits a stand-in push service at this loopback URL
	// besides the browsers' (--test-push-service, tests only).
	TestPushService string
}

// App holds the migrated database and the core services.
type App struct {
	DB        *store.DB
	Logger    *slog.Logger
	Catalog   *i18n.Catalog
	Countries *masters.Countries
	Counters  *store.Counters
	Settings  *store.Settings
	Auth      *auth.Service
	Platform  *platform.Service
	// Security is the security centre (set by wireSecurity, after the
	// account feature, which reaches it through securityRecorder).
	Security *security.Service
	// Privacy is the member's data service (set by wireSecurity; the
	// members feed erases through it as the account deletion does).
	Privacy *privacy.Service
	// MailTemplates render the product's mails (built once, by the first feature that mails).
	MailTemplates *mail.Templates
	// Payments is the payment engine the server was wired with, recorded
	// for tests and operator commands; the wiring hands the engine to the
	// products itself and never reads this field.
	Payments *payment.Engine
	// Checkouts are the products' checkouts the purchase API buys through,
	// recorded likewise (tests put a product of their own in one).
	Checkouts *httpapi.Checkouts
	// Gateway is how the server reached the payment gateway (recorded by
	// wireGateway for the operator commands and tests; the wiring hands it
	// on itself).
	Gateway GatewayConn
	// Health answers /healthz and /readyz; serve marks it draining at
	// shutdown.
	Health *ops.Health
	// OIDC is the OpenID Connect provider (nil without a signing key),
	// recorded for the operator commands and tests.
	OIDC    *oidcprovider.Provider
	mailer  *mail.Mailer
	metrics *ops.Metrics
	notify  *notify.Service
}

// Open connects, migrates and builds the core services.
func Open(ctx context.Context, o Options) (*App, error) {
	db, err := store.Open(ctx, o.DSN)
	if err != nil {
		return nil, err
	}
	if o.Now != nil {
		db.Now = o.Now
	}
	if err := db.Migrate(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	catalog, err := i18n.New()
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	counters := store.NewCounters(db)
	settings := store.NewSettings(db)
	cost := auth.DefaultPasswordCost
	if o.PasswordCost != nil {
		cost = *o.PasswordCost
	}
	authSvc, err := auth.NewService(store.NewAuthStore(db), auth.NewHasher(cost), counters, db.Now)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return &App{
		DB: db, Logger: o.Logger, Catalog: catalog, Countries: masters.NewCountries(),
		Counters: counters, Settings: settings, Auth: authSvc,
		Platform: platform.NewService(store.PlatformSettings{Settings: settings}, store.NewReports(db), counters, db.Now),
		Health:   ops.NewHealth(db, 0),
	}, nil
}

// Close closes the database.
func (a *App) Close() error { return a.DB.Close() }

// Server builds the HTTP handler with every feature, loading demo data
// first when asked. The returned Features hold background jobs and closers.
func (a *App) Server(ctx context.Context, cfg Config) (http.Handler, *Features, error) {
	if cfg.Metrics != nil {
		a.metrics = a.newMetrics(cfg.Metrics)
	}
	if cfg.Demo {
		if err := demo.Load(ctx, a.DB, a.Auth.Hasher()); err != nil {
			return nil, nil, err
		}
	}
	csrfSecret, err := a.Secret(ctx, "csrf")
	if err != nil {
		return nil, nil, err
	}
	feats, err := a.wireFeatures(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	feats.RootMounts = append(feats.RootMounts, a.Health.Mount)
	var observe func(string, string, int, time.Duration)
	if a.metrics != nil {
		observe = a.metrics.ObserveRequest
	}
	h := httpapi.New(httpapi.Deps{
		Logger: a.Logger, Catalog: a.Catalog, Auth: a.Auth, Platform: a.Platform, Countries: a.Countries,
		Revision: cfg.Revision, CSRFSecret: csrfSecret, WebApp: webapp.FS(), SecureCookies: cfg.SecureCookies,
		TrustedProxies: cfg.TrustedProxies, ConnectOrigins: connectOrigins(cfg),
		ScriptOrigins: scriptOrigins(cfg), FrameOrigins: frameOrigins(cfg),
		Now: a.DB.Now, Features: feats.Mounts, AnonymousPaths: feats.Anonymous, RootMounts: feats.RootMounts,
		Observe: observe, Unavailable: a.unavailable, ServerRootMounts: feats.ServerRootMounts,
	})
	return h, feats, nil
}

// unavailable names what a handler's error says cannot answer just now
// (answered 503 with Retry-After, docs/operations.md): the database
// (unreachable, out of space) or the payment gateway (unreachable, or its
// answer lost: a call whose outcome is unknown), "" otherwise.
func (a *App) unavailable(err error) string {
	switch {
	case a.DB.Unavailable(err):
		return "database"
	case errors.Is(err, payment.ErrGatewayUnavailable):
		return "payment gateway"
	}
	return ""
}

// Secret returns a random server secret stored in the database, the same
// for every instance sharing it.
func (a *App) Secret(ctx context.Context, name string) ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	var stored string
	if err := a.Settings.SetIfMissing(ctx, "secret:"+name, base64.StdEncoding.EncodeToString(b), &stored); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(stored)
}

// Housekeeping purges expired sessions and old rate counters until ctx ends.
func (a *App) Housekeeping(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		if _, err := a.Auth.PurgeStale(ctx); err != nil && ctx.Err() == nil {
			a.Logger.Warn("purge sessions", "err", err)
		}
		if err := a.Counters.PurgeBefore(ctx, a.DB.Now().Add(-24*time.Hour).UnixMilli()); err != nil && ctx.Err() == nil {
			a.Logger.Warn("purge counters", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// connectOrigins are the outside origins the web app talks to: an outside
// payment gateway (the sandbox is on this site), or Stripe's API.
func connectOrigins(cfg Config) []string {
	if cfg.Gateway == GatewayStripe {
		return StripeConnectOrigins
	}
	if o := httpapi.Origin(cfg.GatewayURL); o != "" {
		return []string{o}
	}
	return nil
}

// newMetrics registers the instance's metrics on reg: requests, the
// database pools, the counters of the stores and the database snapshot.
func (a *App) newMetrics(reg *prometheus.Registry) *ops.Metrics {
	var pools []ops.Pool
	for name, db := range a.DB.Pools() {
		pools = append(pools, ops.Pool{Name: name, DB: db})
	}
	m := ops.NewMetrics(reg, pools, store.NewOpsSnapshot(a.DB), a.DB.Now)
	ops.RegisterWriteFailures(reg, a.DB.StorageFailures)
	return m
}
