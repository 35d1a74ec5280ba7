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
	"strconv"
	"text/tabwriter"
	"time"

	"members/internal/app"
	"members/internal/gateway"
	"members/internal/httpapi"
	"members/internal/store"
)

const gatewayUsage = `usage:
  members gateway [--addr A] [--db DSN] [--webhook-url URL] [--key K] [--webhook-secret S]
                  [--public-url URL] [--trusted-proxies CIDR,…] [--slow D] [--expire-after D]
      run the sandbox payment gateway alone (at http://A/gateway); point
      members serve at it with --gateway-url, --gateway-key and
      --gateway-webhook-secret
  members gateway list [--db DSN] [--limit N]    the latest payments
  members gateway settle ID [--db DSN]           pay an asynchronous payment (or approve a challenge)
  members gateway fail ID [--db DSN]             fail it
  members gateway reconcile [--db DSN] [--since D] [--gateway-url URL --gateway-key K | --gateway stripe --stripe-secret-key K]
      compare the settled, refunded and expired payment processes with the
      gateway's records and print each difference (exit 1 on any, 0 when
      clean); without --gateway-url the sandbox's tables in --db
      (or --gateway-db) are read
`

// gatewayFlags adds serve's flags for the payment gateway; it returns
// --gateway-webhook-secret-previous as given, for checkGateway to read.
func gatewayFlags(fs *flag.FlagSet, cfg *app.Config) (webhookPrevious *string) {
	fs.StringVar(&cfg.GatewayURL, "gateway-url", envOr("MEMBERS_GATEWAY_URL", ""),
		"payment gateway base URL, e.g. https://pay.example.com/gateway (env MEMBERS_GATEWAY_URL); required unless --demo or --gateway-sandbox")
	fs.BoolVar(&cfg.GatewaySandbox, "gateway-sandbox", envOr("MEMBERS_GATEWAY_SANDBOX", "") == "1",
		"mount the sandbox gateway at /gateway/ without --demo: its test cards pay without money (env MEMBERS_GATEWAY_SANDBOX=1; a warning on every purchase outside a loopback --public-url)")
	fs.StringVar(&cfg.GatewayKey, "gateway-key", envOr("MEMBERS_GATEWAY_KEY", ""),
		"the gateway's secret key (env MEMBERS_GATEWAY_KEY); the in-process sandbox generates one when empty")
	fs.StringVar(&cfg.GatewayWebhookSecret, "gateway-webhook-secret", envOr("MEMBERS_GATEWAY_WEBHOOK_SECRET", ""),
		"the secret that signs the gateway's webhooks, kept outside the database (env MEMBERS_GATEWAY_WEBHOOK_SECRET); the in-process sandbox keeps a generated one in the database when empty")
	webhookPrevious = fs.String("gateway-webhook-secret-previous", envOr("MEMBERS_GATEWAY_WEBHOOK_SECRET_PREVIOUS", ""),
		"during a change of webhook secret: the previous secret(s), comma-separated, that still verify (env MEMBERS_GATEWAY_WEBHOOK_SECRET_PREVIOUS)")
	fs.StringVar(&cfg.GatewayDB, "gateway-db", envOr("MEMBERS_GATEWAY_DB", ""),
		"in-process sandbox: a database of its own, sqlite:PATH or postgres://… (env MEMBERS_GATEWAY_DB); empty keeps its tables in --db")
	fs.DurationVar(&cfg.GatewaySlow, "gateway-slow", 30*time.Second, "in-process sandbox: how long card 0119's authorise answer is held back")
	fs.DurationVar(&cfg.GatewayExpireAfter, "gateway-expire-after", 30*time.Minute, "in-process sandbox: how long an unpaid payment waits for its customer step")
	fs.DurationVar(&cfg.GatewayTimeout, "gateway-timeout", 10*time.Second, "how long the payment engine waits for one gateway call before it reconciles by a status query")
	fs.StringVar(&cfg.Gateway, "gateway", envOr("MEMBERS_GATEWAY", ""),
		"the payment gateway: empty for the sandbox protocol (--gateway-url, or the in-process sandbox), stripe for Stripe with the --stripe-* keys (env MEMBERS_GATEWAY)")
	stripeFlags(fs, &cfg.Stripe)
	return webhookPrevious
}

// stripeFlags adds the Stripe keys (flags or environment, never the
// database) and the API URL of tests.
func stripeFlags(fs *flag.FlagSet, s *app.StripeConfig) {
	fs.StringVar(&s.SecretKey, "stripe-secret-key", envOr("MEMBERS_STRIPE_SECRET_KEY", ""),
		"--gateway stripe: the secret (sk_…) or restricted (rk_…) key (env MEMBERS_STRIPE_SECRET_KEY)")
	fs.StringVar(&s.PublishableKey, "stripe-publishable-key", envOr("MEMBERS_STRIPE_PUBLISHABLE_KEY", ""),
		"--gateway stripe: the publishable key (pk_…) Stripe.js uses in the browser (env MEMBERS_STRIPE_PUBLISHABLE_KEY)")
	fs.StringVar(&s.WebhookSecret, "stripe-webhook-secret", envOr("MEMBERS_STRIPE_WEBHOOK_SECRET", ""),
		"--gateway stripe: the signing secret (whsec_…) of the endpoint /webhooks/stripe (env MEMBERS_STRIPE_WEBHOOK_SECRET)")
	fs.Func("stripe-webhook-secret-previous", "--gateway stripe, during a rotation: the previous signing secret(s), comma-separated (env MEMBERS_STRIPE_WEBHOOK_SECRET_PREVIOUS)",
		func(v string) error { s.WebhookSecretPrevious = splitList(v); return nil })
	s.WebhookSecretPrevious = splitList(envOr("MEMBERS_STRIPE_WEBHOOK_SECRET_PREVIOUS", ""))
	fs.StringVar(&s.APIURL, "stripe-api-url", envOr("MEMBERS_STRIPE_API_URL", ""),
		"--gateway stripe, tests only: Stripe's API at this URL instead of https://api.stripe.com (stripe-mock, cmd/stripefake) (env MEMBERS_STRIPE_API_URL)")
}

// selfURL is the URL at which a server listening on addr reaches itself:
// a wildcard host becomes the loopback address.
func selfURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// gatewayCmd runs the sandbox gateway alone or works on its payments.
func gatewayCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return gatewayList(ctx, args[1:], stdout, stderr)
		case "settle", "fail":
			return gatewaySettle(ctx, args[0], args[1:], stdout, stderr)
		case "reconcile":
			return gatewayReconcile(ctx, args[1:], stdout, stderr, logger)
		case "help", "-h", "--help":
			fmt.Fprint(stdout, gatewayUsage)
			return nil
		}
	}
	return gatewayServe(ctx, args, stdout, stderr, logger)
}

func gatewayServe(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	addr := fs.String("addr", envOr("MEMBERS_GATEWAY_ADDR", "127.0.0.1:8090"), "listen address (env MEMBERS_GATEWAY_ADDR)")
	dsn := dbFlag(fs)
	o := gateway.Options{Logger: logger}
	fs.StringVar(&o.WebhookURL, "webhook-url", envOr("MEMBERS_GATEWAY_WEBHOOK_URL", app.DefaultServerURL+app.WebhookPath),
		"where events are POSTed (env MEMBERS_GATEWAY_WEBHOOK_URL)")
	fs.StringVar(&o.SecretKey, "key", envOr("MEMBERS_GATEWAY_KEY", ""), "secret key (env MEMBERS_GATEWAY_KEY); generated once and kept when empty")
	fs.StringVar(&o.WebhookSecret, "webhook-secret", envOr("MEMBERS_GATEWAY_WEBHOOK_SECRET", ""),
		"webhook signing secret (env MEMBERS_GATEWAY_WEBHOOK_SECRET); generated once and kept when empty")
	fs.StringVar(&o.PublicURL, "public-url", envOr("MEMBERS_GATEWAY_PUBLIC_URL", ""),
		"base URL of the customer pages as browsers reach them, e.g. https://pay.example.com/gateway; empty: from each call's Host")
	fs.DurationVar(&o.SlowAuthorize, "slow", 30*time.Second, "how long card 0119's authorise answer is held back")
	fs.DurationVar(&o.ExpireAfter, "expire-after", 30*time.Minute, "how long an unpaid payment waits for its customer step")
	trusted := fs.String("trusted-proxies", envOr("MEMBERS_GATEWAY_TRUSTED_PROXIES", ""),
		"CIDR,… of reverse proxies whose X-Forwarded-For / Forwarded name the client for the tokenisation limit (env MEMBERS_GATEWAY_TRUSTED_PROXIES)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	proxies, err := httpapi.ParseTrustedProxies(*trusted)
	if err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	o.ClientAddr = httpapi.ClientAddrFunc(proxies)
	db, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	o.DB, o.Dialect, o.Now = db.DB, string(db.Engine), db.Now
	g, err := gateway.New(ctx, o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle(g.BasePath()+"/", g.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second,
		WriteTimeout: 120 * time.Second, IdleTimeout: 120 * time.Second,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	bg, stopBG := context.WithCancel(ctx)
	defer stopBG()
	go g.Run(bg)
	keys := g.Keys()
	// The sandbox's keys are printed so that the members server can be
	// pointed at it (they are test keys that move no real money).
	fmt.Fprintf(stdout, "gateway: listening on %s%s (%s database)\ngateway: secret key %s\ngateway: webhook secret %s\n",
		selfURL(ln.Addr()), g.BasePath(), db.Engine, keys.SecretKey, keys.WebhookSecret)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("gateway: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("gateway shutdown: %w", err)
	}
	return nil
}

// openGateway opens the gateway's tables for an operator command.
func openGateway(ctx context.Context, dsn string) (*gateway.Gateway, func(), error) {
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	g, err := gateway.New(ctx, gateway.Options{DB: db.DB, Dialect: string(db.Engine), Now: db.Now})
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	return g, func() { _ = db.Close() }, nil
}

func gatewayList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gateway list", flag.ContinueOnError)
	dsn := dbFlag(fs)
	limit := fs.Int("limit", 50, "how many payments, newest first")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	g, closeDB, err := openGateway(ctx, *dsn)
	if err != nil {
		return err
	}
	defer closeDB()
	ps, err := g.ListPayments(ctx, *limit)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tMETHOD\tAMOUNT\tCURRENCY\tREFUNDED\tFAILURE\tREFERENCE\tCREATED")
	for _, p := range ps {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, p.Status, p.Method, strconv.FormatInt(p.Amount, 10),
			p.Currency, strconv.FormatInt(p.RefundedAmount, 10), dash(p.FailureCode), dash(p.Reference), p.CreatedAt.Format(time.RFC3339))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func gatewaySettle(ctx context.Context, verb string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gateway "+verb, flag.ContinueOnError)
	dsn := dbFlag(fs)
	ids, err := parseArgs(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(ids) != 1 || ids[0] == "" {
		fmt.Fprint(stderr, gatewayUsage)
		return fmt.Errorf("gateway %s: missing payment ID (give one)", verb)
	}
	id := ids[0]
	g, closeDB, err := openGateway(ctx, *dsn)
	if err != nil {
		return err
	}
	defer closeDB()
	var p *gateway.Payment
	if verb == "settle" {
		p, err = g.Settle(ctx, id)
	} else {
		p, err = g.Fail(ctx, id)
	}
	switch {
	case errors.Is(err, gateway.ErrNotFound):
		return fmt.Errorf("gateway %s: no payment %s", verb, id)
	case errors.Is(err, gateway.ErrState):
		cur, gerr := g.Payment(ctx, id, "")
		if gerr != nil {
			return gerr
		}
		return fmt.Errorf("gateway %s: payment %s is %s, not waiting for its customer step", verb, id, cur.Status)
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "%s %s\n", p.ID, p.Status)
	return nil
}
