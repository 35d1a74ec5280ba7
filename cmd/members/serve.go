package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"members/internal/app"
	"members/internal/httpapi"
	"members/internal/oidcprovider"
	"members/internal/ops"
	"members/internal/push"
)

func serve(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := app.Config{Revision: revision}
	addr := fs.String("addr", envOr("MEMBERS_ADDR", "127.0.0.1:8080"), "listen address (env MEMBERS_ADDR)")
	dsn := dbFlag(fs)
	fs.BoolVar(&cfg.Demo, "demo", false, "load demo data into an empty database")
	fs.StringVar(&cfg.SMTPURL, "smtp", envOr("MEMBERS_SMTP_URL", ""), "SMTP server smtp://user:pass@host:port (env MEMBERS_SMTP_URL); empty keeps mail in the outbox")
	fs.StringVar(&cfg.PublicURL, "public-url", envOr("MEMBERS_PUBLIC_URL", ""), "public base URL of this site, for links in mails and the payment step (env MEMBERS_PUBLIC_URL); empty: http:// and the listen address")
	fs.StringVar(&cfg.BookingSiteURL, "booking-site-url", envOr("MEMBERS_BOOKING_SITE_URL", "https://booking.example.com"), "base URL of the booking site (env MEMBERS_BOOKING_SITE_URL)")
	fs.BoolVar(&cfg.SecureCookies, "secure-cookies", envOr("MEMBERS_SECURE_COOKIES", "") == "1", "mark cookies Secure behind a TLS proxy (env MEMBERS_SECURE_COOKIES=1)")
	trusted := fs.String("trusted-proxies", envOr("MEMBERS_TRUSTED_PROXIES", ""), "CIDR,… of reverse proxies whose X-Forwarded-For / Forwarded name the client (env MEMBERS_TRUSTED_PROXIES)")
	withTestClock := fs.Bool("test-clock", false, "browser tests only: POST /_test/clock {\"advanceSeconds\": N} moves the server's clock (loopback --addr only)")
	webhookPrevious := gatewayFlags(fs, &cfg)
	fs.StringVar(&cfg.PinKey, "pin-key", envOr("MEMBERS_PIN_KEY", ""), "key of the voucher PIN hashes, base64 of 32 random bytes, kept outside the database (env MEMBERS_PIN_KEY); empty: a key kept in the database (docs/security.md)")
	retiredHandover := fs.String("handover-secret", "", "retired: the booking site signs members in with OpenID Connect (docs/operations.md, upgrade notes)")
	retiredHandoverPrevious := fs.String("handover-secret-previous", "", "retired with --handover-secret")
	fs.StringVar(&cfg.UnsubscribeKey, "unsubscribe-key", envOr("MEMBERS_UNSUBSCRIBE_KEY", ""), "key that signs the one-click unsubscribe links of the optional mails, base64 of 32 random bytes, kept outside the database (env MEMBERS_UNSUBSCRIBE_KEY); empty: a key kept in the database (docs/security.md)")
	unsubscribePrevious := fs.String("unsubscribe-key-previous", envOr("MEMBERS_UNSUBSCRIBE_KEY_PREVIOUS", ""), "during a key change: the previous unsubscribe key(s), comma-separated, whose links still work (env MEMBERS_UNSUBSCRIBE_KEY_PREVIOUS)")
	passkeyFlags(fs, &cfg)
	oidcKey := fs.String("oidc-signing-key", envOr("MEMBERS_OIDC_SIGNING_KEY", ""), "the OpenID Connect provider's signing key: PEM text or a PEM file's path, RSA (RS256) or EC P-256 (ES256), from the secret store, never in the database (env MEMBERS_OIDC_SIGNING_KEY); empty: the provider answers 503 (with --demo: a generated key, docs/security.md)")
	oidcPrevious := fs.String("oidc-signing-key-previous", envOr("MEMBERS_OIDC_SIGNING_KEY_PREVIOUS", ""), "during a key rotation: the previous signing key (PEM text or file, private or public), still published in the JWKS (env MEMBERS_OIDC_SIGNING_KEY_PREVIOUS)")
	fs.StringVar(&cfg.OpsSecret, "ops-secret", envOr("MEMBERS_OPS_SECRET", ""), "secret of the flight events feed's HMAC signatures, kept outside the database (env MEMBERS_OPS_SECRET); empty: the feed answers 503 (with --demo: the demo secret, docs/flight-alerts.md)")
	fs.StringVar(&cfg.BookingsFeedSecret, "bookings-feed-secret", envOr("MEMBERS_BOOKINGS_FEED_SECRET", ""), "secret of the bookings feed's HMAC signatures, kept outside the database (env MEMBERS_BOOKINGS_FEED_SECRET); empty: the feed answers 503 (with --demo: demo-bookings-feed-secret, docs/airline-feeds.md)")
	fs.StringVar(&cfg.BookingsFeedSecretPrevious, "bookings-feed-secret-previous", envOr("MEMBERS_BOOKINGS_FEED_SECRET_PREVIOUS", ""), "the bookings feed's previous secret, still accepted during a rotation (env MEMBERS_BOOKINGS_FEED_SECRET_PREVIOUS)")
	fs.StringVar(&cfg.MembersFeedSecret, "members-feed-secret", envOr("MEMBERS_MEMBERS_FEED_SECRET", ""), "secret of the members provisioning feed's HMAC signatures, kept outside the database (env MEMBERS_MEMBERS_FEED_SECRET); empty: the feed answers 503 (with --demo: the demo secret, docs/airline-feeds.md)")
	fs.StringVar(&cfg.MembersFeedSecretPrevious, "members-feed-secret-previous", envOr("MEMBERS_MEMBERS_FEED_SECRET_PREVIOUS", ""), "during a rotation: the members feed's previous secret, whose signatures still verify (env MEMBERS_MEMBERS_FEED_SECRET_PREVIOUS)")
	fs.StringVar(&cfg.VAPIDPrivateKey, "vapid-private-key", envOr("MEMBERS_VAPID_PRIVATE_KEY", ""), "the Web Push (VAPID) private key of the flight change alerts, base64url of a P-256 key (members push vapid-keys), kept outside the database (env MEMBERS_VAPID_PRIVATE_KEY); empty: no push (with --demo: a key kept in the database, docs/flight-alerts.md)")
	fs.StringVar(&cfg.VAPIDSubject, "vapid-subject", envOr("MEMBERS_VAPID_SUBJECT", ""), "the operator's contact the push services see, mailto: or https: (env MEMBERS_VAPID_SUBJECT); empty: the public URL when https, else the mail sender")
	fs.StringVar(&cfg.TestPushService, "test-push-service", "", "tests only: admit a stand-in push service at this URL besides the browsers' (loopback URL and --addr only)")
	logRequests := fs.String("log-requests", envOr("MEMBERS_LOG_REQUESTS", ""), "log one line per request: on or off (env MEMBERS_LOG_REQUESTS); default on, off with --demo")
	memLimit := fs.String("go-memory-limit", envOr("MEMBERS_GO_MEMORY_LIMIT", strconv.Itoa(app.DefaultGoMemoryLimitMiB)), "soft limit of the Go runtime's memory in MiB, 0 for none (env MEMBERS_GO_MEMORY_LIMIT; GOMEMLIMIT wins when set); SQLite's memory is outside it (docs/speed.md)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the server to this file until it shuts down (benchmarks: make bench)")
	metricsAddr := fs.String("metrics-addr", envOr("MEMBERS_METRICS_ADDR", ""), "listen address of the Prometheus metrics at /metrics, apart from the site's (env MEMBERS_METRICS_ADDR); empty: off (docs/operations.md)")
	retentionFlag := fs.String("mail-retention", envOr("MEMBERS_MAIL_RETENTION", "720h"), "how long sent mails stay in the outbox before the worker deletes them, e.g. 720h for 30 days (env MEMBERS_MAIL_RETENTION)")
	graceFlag := fs.String("shutdown-grace", envOr("MEMBERS_SHUTDOWN_GRACE", "20s"), "on SIGTERM or Ctrl-C: how long requests in flight may take to finish before the server exits, e.g. 20s (env MEMBERS_SHUTDOWN_GRACE)")
	reminderDays := fs.String("points-reminder-days", envOr("MEMBERS_POINTS_REMINDER_DAYS", "30,7"), "days before expiry at which the points reminder mail goes out, comma-separated; empty: none (env MEMBERS_POINTS_REMINDER_DAYS)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	proxies, err := httpapi.ParseTrustedProxies(*trusted)
	if err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	cfg.TrustedProxies = proxies
	if cfg.PointsReminderDays, err = parseDays(*reminderDays); err != nil {
		return err
	}
	grace, err := time.ParseDuration(strings.TrimSpace(*graceFlag))
	if err != nil || grace <= 0 {
		return fmt.Errorf("--shutdown-grace: %q is not a duration such as 20s", *graceFlag)
	}
	if cfg.MailRetention, err = time.ParseDuration(strings.TrimSpace(*retentionFlag)); err != nil || cfg.MailRetention <= 0 {
		return fmt.Errorf("--mail-retention: %q is not a duration such as 720h", *retentionFlag)
	}
	mib, err := strconv.Atoi(strings.TrimSpace(*memLimit))
	if err != nil || mib < 0 {
		return fmt.Errorf("--go-memory-limit: %q is not a number of MiB", *memLimit)
	}
	if err := checkGateway(&cfg, *webhookPrevious); err != nil {
		return err
	}
	if *retiredHandover != "" || *retiredHandoverPrevious != "" {
		return errors.New("--handover-secret is retired: the booking site signs members in with OpenID Connect; register it with `members oidc clients add` and remove the flag (docs/operations.md, upgrade notes)")
	}
	cfg.UnsubscribeKeyPrevious = splitList(*unsubscribePrevious)
	if err := oidcKeys(&cfg, *oidcKey, *oidcPrevious); err != nil {
		return err
	}
	if err := checkKeys(cfg); err != nil {
		return err
	}
	if cfg.TestPushService != "" {
		if err := testPushServiceAllowed(*addr, cfg.TestPushService); err != nil {
			return err
		}
	}
	if cfg.VAPIDPrivateKey != "" {
		if _, err := push.ParseKeys(cfg.VAPIDPrivateKey, "mailto:check@example.com"); err != nil {
			return fmt.Errorf("--vapid-private-key: %w", err)
		}
	}
	app.SetGoMemoryLimit(mib)
	quiet, err := quietRequests(*logRequests, cfg.Demo)
	if err != nil {
		return err
	}
	if quiet {
		// A first demo run shows its address and logins, not a page of request lines.
		logger = slog.New(dropRequestLines{logger.Handler()})
	}
	if *cpuprofile != "" {
		stop, err := startCPUProfile(*cpuprofile)
		if err != nil {
			return err
		}
		defer stop()
	}
	// The OpenID Connect library logs through slog's default logger: its
	// lines (no tokens or codes) join the server's.
	slog.SetDefault(logger)
	opts := app.Options{DSN: *dsn, Logger: logger}
	var clock *testClock
	if *withTestClock {
		if err := loopbackOnly(*addr); err != nil {
			return err
		}
		clock = &testClock{}
		opts.Now = clock.Now
	}
	a, err := app.Open(ctx, opts)
	if err != nil {
		return err
	}
	defer a.Close()
	// Listen first: the in-process gateway is called at the server's own
	// address.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	defer ln.Close()
	cfg.ServerURL = selfURL(ln.Addr())
	if cfg.PublicURL == "" {
		cfg.PublicURL = cfg.ServerURL
		if cfg.Demo {
			// The demo is opened at localhost: a browser accepts no IP
			// address as a passkey's relying party, and mail links must
			// reach the same cookies as the page.
			cfg.PublicURL = loopbackAsLocalhost(cfg.ServerURL)
		}
	}
	if *metricsAddr != "" {
		cfg.Metrics = prometheus.NewRegistry()
		stopMetrics, err := serveMetrics(*metricsAddr, ops.Handler(cfg.Metrics), logger)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	// once the server is sure to start (a failed start prints its error alone)
	startWarnings(logger, cfg)
	handler, feats, err := a.Server(ctx, cfg)
	if err != nil {
		return err
	}
	defer feats.Close()
	if clock != nil {
		handler = clock.wrap(handler)
	}
	srv := &http.Server{
		Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second,
		WriteTimeout: 120 * time.Second, IdleTimeout: 120 * time.Second,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	// Background work runs until the requests in flight are done, then
	// stops: its context is not the signal's.
	bgCtx, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBackground()
	var bg sync.WaitGroup
	bg.Go(func() { a.Housekeeping(bgCtx) })
	for _, job := range feats.Background {
		bg.Go(func() { job(bgCtx) })
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// Printed last, once everything above is ready, so nothing scrolls it away.
	fmt.Fprintf(stdout, "members: listening on http://%s (revision %s, %s database)\n", ln.Addr(), revision, a.DB.Engine)
	if cfg.Demo {
		fmt.Fprint(stdout, demoBanner(loopbackAsLocalhost(cfg.PublicURL), quiet))
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	return shutdown(logger, a, feats, srv, &bg, stopBackground, grace)
}

// shutdown drains the server (docs/operations.md): readiness fails, the
// listener closes (no new connections), requests in flight finish within
// grace, then the background work stops and its leases are released.
func shutdown(logger *slog.Logger, a *app.App, feats *app.Features, srv *http.Server, bg *sync.WaitGroup, stopBackground func(), grace time.Duration) error {
	start := time.Now()
	a.Health.SetDraining()
	logger.Info("shutting down: draining requests in flight", "grace", grace.String())
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	var result error
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = srv.Close()
		result = fmt.Errorf("shutdown: requests still running after %s: %w", grace, err)
	}
	stopBackground()
	done := make(chan struct{})
	go func() { bg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		logger.Warn("shutting down: background work did not stop within 10s")
	}
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	if err := feats.ReleaseLeases(rctx); err != nil {
		logger.Warn("shutting down: release leases", "err", err)
	}
	logger.Info("shut down", "took", time.Since(start).Round(time.Millisecond).String())
	return result
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	dsn := dbFlag(fs)
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	fmt.Fprintf(stdout, "members: %s database is up to date\n", a.DB.Engine)
	return nil
}

// serveMetrics serves GET /metrics on its own address until the returned
// function runs (after the site's shutdown: the last scrape sees it).
func serveMetrics(addr string, h http.Handler, logger *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go func() { _ = srv.Serve(ln) }()
	logger.Info("metrics", "addr", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

// quietRequests reads --log-requests: on, off, or empty for the default
// (quiet in demo mode, logged otherwise).
func quietRequests(flag string, demo bool) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(flag)) {
	case "":
		return demo, nil
	case "on", "1", "true", "yes":
		return false, nil
	case "off", "0", "false", "no":
		return true, nil
	}
	return false, fmt.Errorf("--log-requests: %q is not on or off", flag)
}

// dropRequestLines is a slog handler that passes everything except the
// per-request "request" lines of Info level (warnings and errors stay).
type dropRequestLines struct{ slog.Handler }

func (h dropRequestLines) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "request" && r.Level < slog.LevelWarn {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h dropRequestLines) WithAttrs(attrs []slog.Attr) slog.Handler {
	return dropRequestLines{h.Handler.WithAttrs(attrs)}
}

func (h dropRequestLines) WithGroup(name string) slog.Handler {
	return dropRequestLines{h.Handler.WithGroup(name)}
}

// loopbackAsLocalhost writes a URL whose host is a loopback address
// (127.0.0.1, ::1) with the host name localhost; any other URL stays.
func loopbackAsLocalhost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil || !ip.IsLoopback() {
		return raw
	}
	if p := u.Port(); p != "" {
		u.Host = net.JoinHostPort("localhost", p)
	} else {
		u.Host = "localhost"
	}
	return u.String()
}

// demoBanner tells a newcomer where to go and how to log in: the address
// and the logins are its last lines, the last the terminal shows.
func demoBanner(url string, quiet bool) string {
	var b strings.Builder
	b.WriteString("\n")
	if quiet {
		b.WriteString("  Requests are not logged in demo mode (--log-requests on to see them).\n")
	}
	b.WriteString("  Ctrl-C stops the server.\n\n")
	fmt.Fprintf(&b, "  Open %s in your browser.\n", url)
	b.WriteString("  Demo logins: demo@example.com / Demo1234   demo2@example.com / Demo1234\n")
	return b.String()
}

// startCPUProfile profiles the process into path until the returned
// function runs (at shutdown: SIGTERM or Ctrl-C, not SIGKILL).
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path) // #nosec G304 G703 -- the operator's own --cpuprofile path
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// checkGateway refuses a start that would sell for free: without an outside
// gateway (--gateway-url) the sandbox, whose test cards always pay, is
// mounted only in demo mode or when asked for by --gateway-sandbox. An
// outside gateway needs its key and webhook secret.
func checkGateway(cfg *app.Config, webhookPrevious string) error {
	cfg.GatewayWebhookSecretPrevious = splitList(webhookPrevious)
	switch cfg.Gateway {
	case "", "ndhk", "sandbox":
		cfg.Gateway = ""
	case app.GatewayStripe:
		if cfg.GatewayURL != "" || cfg.GatewaySandbox {
			return errors.New("--gateway stripe with --gateway-url or --gateway-sandbox: choose one gateway")
		}
		_, err := app.CheckStripe(*cfg)
		return err
	default:
		return fmt.Errorf("--gateway: %q is not a gateway (empty for the sandbox protocol, or stripe)", cfg.Gateway)
	}
	switch {
	case cfg.GatewayURL == "" && !cfg.Demo && !cfg.GatewaySandbox:
		return errors.New("no payment gateway: give --gateway-url, --gateway-key and --gateway-webhook-secret (env MEMBERS_GATEWAY_URL, …), --gateway stripe with the --stripe-* keys (env MEMBERS_GATEWAY=stripe, MEMBERS_STRIPE_*), or --gateway-sandbox for the test gateway whose cards pay without money")
	case cfg.GatewayURL != "" && (cfg.GatewayKey == "" || cfg.GatewayWebhookSecret == ""):
		return errors.New("--gateway-url needs --gateway-key and --gateway-webhook-secret (env MEMBERS_GATEWAY_KEY, MEMBERS_GATEWAY_WEBHOOK_SECRET)")
	case cfg.GatewayURL != "" && cfg.GatewaySandbox:
		return errors.New("--gateway-sandbox and --gateway-url: choose one gateway")
	}
	return nil
}

// oidcKeys reads the OpenID Connect signing keys (PEM text, or the path
// of a PEM file) into cfg, refusing one that is not a key.
func oidcKeys(cfg *app.Config, current, previous string) error {
	read := func(flagName, v string) (string, error) {
		v = strings.TrimSpace(v)
		if v == "" || strings.HasPrefix(v, "-----BEGIN") {
			return v, nil
		}
		b, err := os.ReadFile(v) // #nosec G304 -- the operator's own key file, named on the command line
		if err != nil {
			return "", fmt.Errorf("--%s: %w", flagName, err)
		}
		return string(b), nil
	}
	var err error
	if cfg.OIDC.SigningKey, err = read("oidc-signing-key", current); err != nil {
		return err
	}
	prev, err := read("oidc-signing-key-previous", previous)
	if err != nil {
		return err
	}
	if prev != "" {
		cfg.OIDC.PreviousKeys = []string{prev}
	}
	if cfg.OIDC.SigningKey != "" {
		k, err := oidcprovider.ParseKey([]byte(cfg.OIDC.SigningKey))
		if err != nil {
			return fmt.Errorf("--oidc-signing-key: %w", err)
		}
		if !k.Signs() {
			return errors.New("--oidc-signing-key: a private key is needed to sign, not a public one")
		}
	}
	if prev != "" {
		if _, err := oidcprovider.ParseKey([]byte(prev)); err != nil {
			return fmt.Errorf("--oidc-signing-key-previous: %w", err)
		}
	}
	return nil
}

// checkKeys refuses malformed keys before anything starts.
func checkKeys(cfg app.Config) error {
	if cfg.UnsubscribeKey != "" {
		if _, err := app.DecodeKey(cfg.UnsubscribeKey); err != nil {
			return fmt.Errorf("--unsubscribe-key: %w", err)
		}
	}
	for _, k := range cfg.UnsubscribeKeyPrevious {
		if _, err := app.DecodeKey(k); err != nil {
			return fmt.Errorf("--unsubscribe-key-previous: %w", err)
		}
	}
	return nil
}

// startWarnings logs what a production start should not run with: secrets
// kept in the database, and the sandbox gateway on a public site.
func startWarnings(logger *slog.Logger, cfg app.Config) {
	sandbox := cfg.GatewayURL == "" && cfg.Gateway == ""
	if cfg.Gateway == app.GatewayStripe {
		if warning, _ := app.CheckStripe(cfg); warning != "" {
			logger.Warn(warning, "publicURL", cfg.PublicURL)
		}
	}
	if app.SandboxExposed(cfg) {
		logger.Warn("SANDBOX GATEWAY ON A PUBLIC SITE: its test cards pay without money, every purchase is free; give --gateway-url for a real gateway (docs/gateways.md)",
			"publicURL", cfg.PublicURL)
	}
	if cfg.Demo {
		return
	}
	if cfg.PinKey == "" {
		logger.Warn("no --pin-key (env MEMBERS_PIN_KEY): voucher PIN hashes use a key kept in the database (docs/security.md)")
	}
	if os.Getenv("MEMBERS_HANDOVER_SECRET") != "" || os.Getenv("MEMBERS_HANDOVER_SECRET_PREVIOUS") != "" {
		logger.Warn("MEMBERS_HANDOVER_SECRET is retired and not used: the booking site signs members in with OpenID Connect; remove the key from the environment and the secret store (docs/operations.md, upgrade notes)")
	}
	if cfg.OIDC.SigningKey == "" {
		logger.Warn("no --oidc-signing-key (env MEMBERS_OIDC_SIGNING_KEY): the OpenID Connect provider answers 503, so the booking site and partners cannot sign members in (docs/security.md)")
	}
	if cfg.UnsubscribeKey == "" {
		logger.Warn("no --unsubscribe-key (env MEMBERS_UNSUBSCRIBE_KEY): the one-click unsubscribe links of the mails are signed with a key kept in the database (docs/security.md)")
	}
	if sandbox && cfg.GatewayWebhookSecret == "" {
		logger.Warn("no --gateway-webhook-secret (env MEMBERS_GATEWAY_WEBHOOK_SECRET): the sandbox gateway's webhooks are signed with a secret kept in the database (docs/security.md)")
	}
}

// splitList splits a comma-separated flag, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
