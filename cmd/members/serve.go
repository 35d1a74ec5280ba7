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
	"time"

	"members/internal/app"
	"members/internal/httpapi"
)

func serve(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := app.Config{Revision: revision}
	addr := fs.String("addr", envOr("MEMBERS_ADDR", "127.0.0.1:8080"), "listen address (env MEMBERS_ADDR)")
	dsn := dbFlag(fs)
	fs.BoolVar(&cfg.Demo, "demo", false, "load demo data into an empty database")
	fs.StringVar(&cfg.SMTPURL, "smtp", envOr("MEMBERS_SMTP_URL", ""), "SMTP server smtp://user:pass@host:port (env MEMBERS_SMTP_URL); empty keeps mail in the outbox")
	fs.StringVar(&cfg.PublicURL, "public-url", envOr("MEMBERS_PUBLIC_URL", app.DefaultPublicURL), "public base URL of this site, for links in mails (env MEMBERS_PUBLIC_URL)")
	fs.StringVar(&cfg.BookingSiteURL, "booking-site-url", envOr("MEMBERS_BOOKING_SITE_URL", "https://booking.example.com"), "base URL of the booking site (env MEMBERS_BOOKING_SITE_URL)")
	fs.BoolVar(&cfg.SecureCookies, "secure-cookies", envOr("MEMBERS_SECURE_COOKIES", "") == "1", "mark cookies Secure behind a TLS proxy (env MEMBERS_SECURE_COOKIES=1)")
	trusted := fs.String("trusted-proxies", envOr("MEMBERS_TRUSTED_PROXIES", ""), "CIDR,… of reverse proxies whose X-Forwarded-For / Forwarded name the client (env MEMBERS_TRUSTED_PROXIES)")
	withTestClock := fs.Bool("test-clock", false, "browser tests only: POST /_test/clock {\"advanceSeconds\": N} moves the server's clock (loopback --addr only)")
	gatewayFlags(fs, &cfg)
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
	go a.Housekeeping(ctx)
	for _, job := range feats.Background {
		go job(ctx)
	}
	fmt.Fprintf(stdout, "members: listening on http://%s (revision %s, %s database)\n", ln.Addr(), revision, a.DB.Engine)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
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
