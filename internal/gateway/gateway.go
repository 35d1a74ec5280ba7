// Package gateway is the sandbox payment gateway: a payment service
// provider of its own that ships with the product so that every payment
// path runs for real on one machine. The members server speaks to it only
// over HTTP (docs/gateways.md fixes the wire API), as it would to a real
// provider. It keeps its own tables (gw_*, with their own goose version
// table) in whatever database it is given, never the members tables, and
// never stores a card number or CVV.
package gateway

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/pressly/goose/v3"

	"members/internal/i18n"
	"members/internal/migratelock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Name is the gateway name carried in tokens ("gateway" field).
const Name = "ndhk"

// Dialects of the database the gateway runs on.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Options build a Gateway. Zero durations take the defaults.
type Options struct {
	DB      *sql.DB
	Dialect string // SQLite or Postgres
	Now     func() time.Time
	Logger  *slog.Logger
	// Catalog holds the customer pages' text (the server catalogues);
	// nil loads the embedded ones.
	Catalog *i18n.Catalog
	// BasePath is where the gateway is mounted ("/gateway").
	BasePath string
	// PublicURL is the gateway's base URL as browsers reach it
	// ("https://pay.example.com/gateway"), for the customer pages it
	// redirects to; empty derives it from each server call's Host.
	PublicURL string
	// WebhookURL receives the events; empty keeps them queued.
	WebhookURL string
	// SecretKey and WebhookSecret replace the keys generated on first
	// start (and kept in gw_keys) when set; a given key is not written to
	// the database (it is kept outside it, as the operator's secret).
	SecretKey, WebhookSecret string
	// SlowAuthorize is how long card 0119's authorise answer is held back
	// (default 30 s, longer than any sensible client timeout).
	SlowAuthorize time.Duration
	// ExpireAfter is how long a card payment may wait for its challenge
	// (default 30 minutes). The deadline follows the method, as a real
	// provider's does: SlipExpireAfter for a convenience-store / ATM /
	// net-banking slip, paid at a shop or a bank within days (default 3
	// days), QRExpireAfter for a QR wallet, paid in the app within minutes
	// (default 30 minutes). The payment's expiresAt carries it.
	ExpireAfter     time.Duration
	SlipExpireAfter time.Duration
	QRExpireAfter   time.Duration
	// RetryBase and RetryMax bound the webhook backoff: attempt n waits
	// RetryBase·2^(n-1), at most RetryMax (defaults 10 s and 1 h).
	RetryBase, RetryMax time.Duration
	// KeepKeys is how long idempotency keys are kept, KeepEvents how long
	// delivered events are (defaults 30 days each); PurgeEvery is how often
	// Run deletes older ones (default 1 h).
	KeepKeys, KeepEvents, PurgeEvery time.Duration
	// TokenBurst and TokenEvery limit browser tokenisation per client
	// address: a burst of TokenBurst, then one per TokenEvery (defaults 100
	// and 1 s).
	TokenBurst int
	TokenEvery time.Duration
	// ClientAddr is the caller's address for the tokenisation limit (the
	// members server's, which reads forwarding headers from its trusted
	// proxies only); nil: the TCP peer.
	ClientAddr func(*http.Request) string
	// WarnEachPayment logs a warning for every payment created: the
	// sandbox is mounted on a site the public reaches, where its test cards
	// give goods away.
	WarnEachPayment bool
	// Poll is the background work's period (default 1 s).
	Poll time.Duration
	// Client sends the webhooks (default: 10 s timeout).
	Client *http.Client
}

// Gateway is the sandbox payment service provider.
type Gateway struct {
	db      *sql.DB
	dialect string
	now     func() time.Time
	log     *slog.Logger
	opt     Options
	keys    Keys
	worker  string
	// wake tells this instance's Run that a change may have queued an
	// event, so webhooks leave at once instead of at the next tick.
	wake chan struct{}
	// tokenLimit limits browser tokenisation per client address.
	tokenLimit *tokenLimiter
	// text translates the customer pages.
	text pageText
}

// Keys are the merchant's credentials at the gateway.
type Keys struct {
	// SecretKey authenticates server calls (Authorization: Bearer).
	SecretKey string
	// WebhookSecret signs the webhooks (Gateway-Signature).
	WebhookSecret string
}

// New migrates the gateway's tables and loads (or creates) its keys.
func New(ctx context.Context, o Options) (*Gateway, error) {
	if o.DB == nil {
		return nil, errors.New("gateway: no database")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.BasePath == "" {
		o.BasePath = "/gateway"
	}
	if o.Catalog == nil {
		cat, err := i18n.New()
		if err != nil {
			return nil, fmt.Errorf("gateway: %w", err)
		}
		o.Catalog = cat
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.SlowAuthorize, 30*time.Second)
	def(&o.ExpireAfter, 30*time.Minute)
	def(&o.SlipExpireAfter, 72*time.Hour)
	def(&o.QRExpireAfter, 30*time.Minute)
	def(&o.RetryBase, 10*time.Second)
	def(&o.RetryMax, time.Hour)
	def(&o.Poll, time.Second)
	def(&o.KeepKeys, 30*24*time.Hour)
	def(&o.KeepEvents, 30*24*time.Hour)
	def(&o.PurgeEvery, time.Hour)
	def(&o.TokenEvery, time.Second)
	if o.TokenBurst <= 0 {
		o.TokenBurst = 100
	}
	if o.Client == nil {
		// Keeps a connection for each of a worker's concurrent sends: with
		// the default transport's two, every other webhook under load
		// opened a new connection to the receiver.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = sendConcurrency
		o.Client = &http.Client{Timeout: 10 * time.Second, Transport: t}
	}
	g := &Gateway{db: o.DB, dialect: o.Dialect, now: o.Now, log: o.Logger, opt: o, worker: "w_" + randomHex(8),
		wake: make(chan struct{}, 1), tokenLimit: newTokenLimiter(o.TokenEvery, o.TokenBurst, o.Now), text: pageText{cat: o.Catalog}}
	if err := g.migrate(ctx); err != nil {
		return nil, err
	}
	var err error
	if g.keys.SecretKey, err = g.key(ctx, "secret_key", "sk_test_", o.SecretKey); err != nil {
		return nil, err
	}
	if g.keys.WebhookSecret, err = g.key(ctx, "webhook_secret", "whsec_", o.WebhookSecret); err != nil {
		return nil, err
	}
	return g, nil
}

// Keys returns the merchant's credentials: the members server uses them
// when the gateway runs in the same process.
func (g *Gateway) Keys() Keys { return g.keys }

// BasePath is where the gateway's handler expects to be mounted.
func (g *Gateway) BasePath() string { return g.opt.BasePath }

func (g *Gateway) migrate(ctx context.Context) error {
	dialect := goose.DialectSQLite3
	if g.dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("gateway migrate: %w", err)
	}
	opts := []goose.ProviderOption{goose.WithTableName("gateway_goose_version")}
	if g.dialect == Postgres {
		// Gateways started together on one empty database take turns, as
		// the members migrations do, on a lock of their own.
		locker, err := migratelock.Postgres(ctx, g.db, "gateway-migrations")
		if err != nil {
			return fmt.Errorf("gateway %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, g.db, sub, opts...)
	if err != nil {
		return fmt.Errorf("gateway migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("gateway migrate: %w", err)
	}
	return nil
}

// key returns the stored key name, creating it (random, with prefix) on
// first use; a non-empty want is used instead and not stored.
func (g *Gateway) key(ctx context.Context, name, prefix, want string) (string, error) {
	if want != "" {
		return want, nil
	}
	if _, err := g.db.ExecContext(ctx, `INSERT INTO gw_keys (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO NOTHING`, name, prefix+randomHex(24)); err != nil {
		return "", fmt.Errorf("gateway keys: %w", err)
	}
	var v string
	if err := g.db.QueryRowContext(ctx, `SELECT value FROM gw_keys WHERE name = $1`, name).Scan(&v); err != nil {
		return "", fmt.Errorf("gateway keys: %w", err)
	}
	return v, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("gateway: random: %v", err)) // the OS source does not fail
	}
	return hex.EncodeToString(b)
}

func (g *Gateway) nowMs() int64 { return g.now().UnixMilli() }

// tx runs fn in a transaction.
func (g *Gateway) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("gateway: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("gateway: commit: %w", err)
	}
	select {
	case g.wake <- struct{}{}:
	default:
	}
	return nil
}
