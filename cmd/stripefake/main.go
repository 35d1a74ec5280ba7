// Command stripefake serves the stateful Stripe stand-in
// (internal/stripe/stripefake) for browser tests and local runs of
// `members serve --gateway stripe --stripe-api-url http://ADDR`. It is
// not linked into bin/members and moves no money.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"members/internal/stripe/stripefake"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "stripefake:", err)
		os.Exit(2)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:12111", "listen address (loopback)")
	hook := flag.String("webhook-url", "", "where to send signed events, e.g. http://127.0.0.1:8080/webhooks/stripe (empty: none)")
	secret := flag.String("webhook-secret", "whsec_test_stripefake", "the secret that signs the events")
	public := flag.String("public-url", "", "where the browser reaches this server's pages (empty: the request's host)")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %s: a loopback address only (a test stand-in)", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	f := stripefake.New(stripefake.Options{WebhookURL: *hook, WebhookSecret: *secret, PublicURL: *public})
	srv := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("stripefake listening on http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
