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
	"text/tabwriter"
	"time"

	"members/internal/app"
	"members/internal/gateway"
	"members/internal/payment"
	"members/internal/store"
	"members/internal/stripe"
)

// exitCode is an error that ends the program with its own exit status
// (not the 2 of a failure): gateway reconcile found differences.
type exitCode int

func (e exitCode) Error() string {
	return fmt.Sprintf("exit status %d", int(e))
}

// errDifferences is reconcile's answer when the records differ (exit 1).
type errDifferences struct {
	n int
}

func (e errDifferences) Error() string {
	return fmt.Sprintf("gateway reconcile: %d differences", e.n)
}

func (e errDifferences) As(target any) bool {
	if p, ok := target.(*exitCode); ok {
		*p = 1
		return true
	}
	return false
}

// gatewayReconcile compares the ended payment processes with the gateway's
// records (the same check the server's hourly job makes) and prints the
// differences.
func gatewayReconcile(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("gateway reconcile", flag.ContinueOnError)
	dsn := dbFlag(fs)
	since := fs.Duration("since", 0, "only processes changed in this last span (0: all)")
	url := fs.String("gateway-url", envOr("MEMBERS_GATEWAY_URL", ""), "the gateway's base URL (env MEMBERS_GATEWAY_URL); empty reads the sandbox's tables")
	key := fs.String("gateway-key", envOr("MEMBERS_GATEWAY_KEY", ""), "the gateway's secret key (env MEMBERS_GATEWAY_KEY)")
	gwDSN := fs.String("gateway-db", envOr("MEMBERS_GATEWAY_DB", ""), "the sandbox's own database, when it has one (env MEMBERS_GATEWAY_DB)")
	timeout := fs.Duration("gateway-timeout", 10*time.Second, "how long to wait for one gateway call")
	gw := fs.String("gateway", envOr("MEMBERS_GATEWAY", ""), "stripe: compare with Stripe's PaymentIntents (--stripe-secret-key, env MEMBERS_STRIPE_SECRET_KEY) (env MEMBERS_GATEWAY)")
	var sc app.StripeConfig
	stripeFlags(fs, &sc)
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	db, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	var through payment.Gateway
	base, secret := *url, *key
	switch {
	case *gw == app.GatewayStripe:
		if sc.SecretKey == "" {
			return errors.New("gateway reconcile --gateway stripe needs --stripe-secret-key (env MEMBERS_STRIPE_SECRET_KEY)")
		}
		through = stripe.New(stripe.Config{SecretKey: sc.SecretKey, APIURL: sc.APIURL, Timeout: *timeout, Logger: logger})
	case *gw != "" && *gw != "ndhk" && *gw != "sandbox":
		return fmt.Errorf("--gateway: %q is not a gateway (empty for the sandbox protocol, or stripe)", *gw)
	case base == "":
		// The sandbox answers from its tables: serve its API on a loopback
		// port for the length of the command and read it as the server does.
		gdb := db
		if *gwDSN != "" {
			if gdb, err = store.Open(ctx, *gwDSN); err != nil {
				return fmt.Errorf("--gateway-db: %w", err)
			}
			defer gdb.Close()
		}
		g, err := gateway.New(ctx, gateway.Options{DB: gdb.DB, Dialect: string(gdb.Engine), Now: gdb.Now, Logger: logger})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("gateway reconcile: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle(g.BasePath()+"/", g.Handler())
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		base, secret = selfURL(ln.Addr())+g.BasePath(), g.Keys().SecretKey
	}
	if through == nil {
		through = payment.NewHTTPGateway(base, secret, *timeout)
	}
	engine := payment.NewEngine(store.NewPaymentStore(db), through, payment.Config{}, db.Now, logger)
	var from time.Time
	if *since > 0 {
		from = db.Now().Add(-*since)
	}
	diffs, err := engine.Reconcile(ctx, from)
	if err != nil {
		return err
	}
	if len(diffs) == 0 {
		fmt.Fprintln(stdout, "gateway reconcile: no differences")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROCESS\tSTATUS\tGATEWAY PAYMENT\tDIFFERENCE")
	for _, d := range diffs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", d.ProcessID, d.Status, dash(d.GatewayPaymentID), d.Problem)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return errDifferences{n: len(diffs)}
}
