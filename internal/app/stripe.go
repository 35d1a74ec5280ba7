package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"members/internal/payment"
	"members/internal/store"
	"members/internal/stripe"
)

// GatewayStripe is Config.Gateway for Stripe.
const GatewayStripe = stripe.Name

// StripeConfig holds Stripe's keys, from flags or the environment only
// (never the database): the secret (or restricted) key, the publishable
// key for Stripe.js, the webhook signing secret and, during a rotation,
// the previous one. APIURL replaces https://api.stripe.com in tests.
type StripeConfig struct {
	SecretKey             string
	PublishableKey        string
	WebhookSecret         string
	WebhookSecretPrevious []string
	APIURL                string
}

// Stripe's origins the web app needs in Stripe mode, and nothing else:
// Stripe.js's script and frames, its 3-D Secure frames, its API.
var (
	StripeScriptOrigins  = []string{"https://js.stripe.com"}
	StripeFrameOrigins   = []string{"https://js.stripe.com", "https://hooks.stripe.com"}
	StripeConnectOrigins = []string{"https://api.stripe.com"}
)

func scriptOrigins(cfg Config) []string {
	if cfg.Gateway == GatewayStripe {
		return StripeScriptOrigins
	}
	return nil
}

func frameOrigins(cfg Config) []string {
	if cfg.Gateway == GatewayStripe {
		return StripeFrameOrigins
	}
	return nil
}

// CheckStripe checks Stripe's configuration before anything starts: every
// key present and of its kind. It returns a warning for a test-mode key
// outside a loopback public URL ("" when none).
func CheckStripe(cfg Config) (warning string, err error) {
	s := cfg.Stripe
	var missing []string
	if s.SecretKey == "" {
		missing = append(missing, "--stripe-secret-key (env MEMBERS_STRIPE_SECRET_KEY)")
	}
	if s.PublishableKey == "" {
		missing = append(missing, "--stripe-publishable-key (env MEMBERS_STRIPE_PUBLISHABLE_KEY)")
	}
	if s.WebhookSecret == "" {
		missing = append(missing, "--stripe-webhook-secret (env MEMBERS_STRIPE_WEBHOOK_SECRET)")
	}
	if len(missing) > 0 {
		return "", errors.New("--gateway stripe needs " + strings.Join(missing, ", "))
	}
	switch {
	case !strings.HasPrefix(s.SecretKey, "sk_") && !strings.HasPrefix(s.SecretKey, "rk_"):
		return "", errors.New("--stripe-secret-key: not a Stripe secret (sk_…) or restricted (rk_…) key")
	case !strings.HasPrefix(s.PublishableKey, "pk_"):
		return "", errors.New("--stripe-publishable-key: not a Stripe publishable key (pk_…)")
	case !strings.HasPrefix(s.WebhookSecret, "whsec_"):
		return "", errors.New("--stripe-webhook-secret: not a Stripe webhook signing secret (whsec_…)")
	case testKey(s.SecretKey) != testKey(s.PublishableKey):
		return "", errors.New("--stripe-secret-key and --stripe-publishable-key: one is a test-mode key, the other a live one")
	case liveKey(s.SecretKey) && s.APIURL != "":
		// the flag is for tests: a live key sent elsewhere than Stripe
		// moves no money, and the key is given away
		return "", errors.New("--stripe-api-url is for tests only and is refused with a live key (sk_live_…, rk_live_…)")
	}
	if liveKey(s.SecretKey) && (cfg.PublicURL == "" || loopbackURL(cfg.PublicURL)) {
		return "STRIPE LIVE KEY ON A LOOPBACK PUBLIC URL: real money moves, but Stripe's pages return members to " + orLoopback(cfg.PublicURL) + "; give --public-url the site's address (docs/gateways.md)", nil
	}
	if testKey(s.SecretKey) && cfg.PublicURL != "" && !loopbackURL(cfg.PublicURL) {
		return "STRIPE TEST-MODE KEY ON A PUBLIC SITE: payments are in Stripe's test mode and move no money; give live keys (sk_live_…, pk_live_…) for real sales (docs/gateways.md)", nil
	}
	return "", nil
}

func testKey(k string) bool { return strings.Contains(k, "_test_") }

// liveKey is a live-mode secret or restricted key.
func liveKey(k string) bool {
	return strings.HasPrefix(k, "sk_live_") || strings.HasPrefix(k, "rk_live_")
}

func orLoopback(u string) string {
	if u == "" {
		return "a loopback address"
	}
	return u
}

// stripeGateway builds the Stripe adapter, its webhook receiver at
// /webhooks/stripe and the members' customer ids (kept in the settings).
func (a *App) stripeGateway(cfg Config, st *store.PaymentStore, timeout time.Duration) *stripe.Gateway {
	return stripe.New(stripe.Config{
		SecretKey: cfg.Stripe.SecretKey, PublishableKey: cfg.Stripe.PublishableKey, APIURL: cfg.Stripe.APIURL,
		Timeout: timeout, Members: stripeMembers{settings: a.Settings, cards: st}, Logger: a.Logger,
	})
}

// mountStripeWebhooks receives Stripe's events.
func (a *App) mountStripeWebhooks(cfg Config, f *Features, gw *stripe.Gateway, engine *payment.Engine, cards *payment.Cards) {
	hook := stripe.NewWebhooks(gw, engine, cards, append([]string{cfg.Stripe.WebhookSecret}, cfg.Stripe.WebhookSecretPrevious...), a.DB.Now, a.Logger)
	f.RootMounts = append(f.RootMounts, func(root *http.ServeMux) {
		root.Handle("POST "+stripe.WebhookPath, hook)
	})
}

// stripeMembers keeps each member's Stripe customer id in the settings
// ("stripe:customer:<member>", written once) and reads the contact a
// konbini slip is issued to.
type stripeMembers struct {
	settings *store.Settings
	cards    *store.PaymentStore
}

func (m stripeMembers) CustomerID(ctx context.Context, memberID string) (string, error) {
	var id string
	err := m.settings.Get(ctx, "stripe:customer:"+memberID, &id)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("stripe customer: %w", err)
	}
	return id, nil
}

func (m stripeMembers) KeepCustomerID(ctx context.Context, memberID, id string) (string, error) {
	var kept string
	if err := m.settings.SetIfMissing(ctx, "stripe:customer:"+memberID, id, &kept); err != nil {
		return "", fmt.Errorf("stripe customer: %w", err)
	}
	return kept, nil
}

func (m stripeMembers) Contact(ctx context.Context, memberID string) (string, string, error) {
	email, given, family, _, err := m.cards.Contact(ctx, memberID)
	if err != nil {
		return "", "", err
	}
	return email, strings.TrimSpace(given + " " + family), nil
}
