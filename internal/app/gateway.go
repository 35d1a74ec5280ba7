package app

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"members/internal/gateway"
	"members/internal/httpapi"
	"members/internal/store"
)

// GatewayConn is how the members server reaches its payment gateway:
// the gateway's base URL (…/gateway, server calls go to URL+"/v1/…"), the
// secret key for Authorization: Bearer, and the secret that signs its
// webhooks. wireGateway returns it to the payment wiring.
type GatewayConn struct {
	URL           string
	Key           string
	WebhookSecret string
	// PreviousWebhookSecrets still verify webhooks during a change of
	// secret (cfg.GatewayWebhookSecretPrevious).
	PreviousWebhookSecrets []string
	// Sandbox is the in-process sandbox gateway when cfg.GatewayURL is
	// empty (nil when an outside gateway is configured).
	Sandbox *gateway.Gateway
	// Stripe: the gateway is Stripe (cfg.Stripe), not the sandbox protocol.
	Stripe bool
}

// DefaultServerURL is where the server reaches itself when cfg.ServerURL
// is not set.
const DefaultServerURL = "http://127.0.0.1:8080"

// SandboxExposed reports whether the in-process sandbox gateway would be
// mounted on a site that is not a loopback address: its test cards then
// give goods away to anyone who reaches it, so the server warns at start
// and on every payment.
func SandboxExposed(cfg Config) bool {
	if cfg.GatewayURL != "" || cfg.Gateway == GatewayStripe || cfg.PublicURL == "" {
		return false
	}
	return !loopbackURL(cfg.PublicURL)
}

// loopbackURL reports whether raw names localhost or a loopback address.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// WebhookPath is where the members server receives the gateway's webhooks.
const WebhookPath = "/webhooks/gateway"

// wireGateway mounts the sandbox gateway at /gateway/ when no outside
// gateway is configured (cfg.GatewayURL empty): its own tables in the same
// database (or in cfg.GatewayDB), its keys generated once and kept there, its webhooks sent to
// this server's /webhooks/gateway, its background work (webhook delivery,
// expiry) as a Background job. It returns how to reach the gateway either
// way (and records it in a.Gateway).
func (a *App) wireGateway(ctx context.Context, cfg Config, f *Features) (GatewayConn, error) {
	if cfg.Gateway == GatewayStripe {
		// Stripe is reached by its adapter (wirePayments); no sandbox
		a.Gateway = GatewayConn{Stripe: true}
		return a.Gateway, nil
	}
	if cfg.GatewayURL != "" {
		a.Gateway = GatewayConn{URL: strings.TrimRight(cfg.GatewayURL, "/"), Key: cfg.GatewayKey, WebhookSecret: cfg.GatewayWebhookSecret,
			PreviousWebhookSecrets: cfg.GatewayWebhookSecretPrevious}
		return a.Gateway, nil
	}
	self := strings.TrimRight(cfg.ServerURL, "/")
	if self == "" {
		self = DefaultServerURL
	}
	db := a.DB
	if cfg.GatewayDB != "" {
		// A database of its own: on SQLite the sandbox's writes then do not
		// queue behind the members' writes for the one write lock.
		own, err := store.Open(ctx, cfg.GatewayDB)
		if err != nil {
			return GatewayConn{}, fmt.Errorf("--gateway-db: %w", err)
		}
		own.Now = a.DB.Now
		f.Closers = append(f.Closers, own.Close)
		db = own
	}
	// The customer's browser reaches the sandbox on the public site, not at
	// the listen address the members server calls it on.
	public := ""
	if p := strings.TrimRight(cfg.PublicURL, "/"); p != "" {
		public = p + "/gateway"
	}
	g, err := gateway.New(ctx, gateway.Options{
		DB: db.DB, Dialect: string(db.Engine), Now: db.Now, Logger: a.Logger, Catalog: a.Catalog,
		WebhookURL: self + WebhookPath, SecretKey: cfg.GatewayKey, WebhookSecret: cfg.GatewayWebhookSecret,
		SlowAuthorize: cfg.GatewaySlow, ExpireAfter: cfg.GatewayExpireAfter, PublicURL: public,
		ClientAddr: httpapi.ClientAddrFunc(cfg.TrustedProxies), WarnEachPayment: SandboxExposed(cfg),
	})
	if err != nil {
		return GatewayConn{}, err
	}
	keys := g.Keys()
	a.Gateway = GatewayConn{URL: self + g.BasePath(), Key: keys.SecretKey, WebhookSecret: keys.WebhookSecret,
		PreviousWebhookSecrets: cfg.GatewayWebhookSecretPrevious, Sandbox: g}
	f.RootMounts = append(f.RootMounts, func(mux *http.ServeMux) { mux.Handle(g.BasePath()+"/", g.Handler()) })
	f.Background = append(f.Background, g.Run)
	return a.Gateway, nil
}
