package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"members/internal/app"
	"members/internal/demo"
)

// seedBench fills a database with reservations for benchmarks:
// seed-bench --reservations N [--members M] [--db …]. Members are
// bench0000000@example.com… with the demo password.
func seedBench(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("seed-bench", flag.ContinueOnError)
	dsn := dbFlag(fs)
	n := fs.Int("reservations", 0, "number of reservations to add (required)")
	m := fs.Int("members", 0, "members to spread them over (default reservations/50, at least 1)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *n <= 0 {
		return fmt.Errorf("seed-bench: --reservations N is required (N > 0)")
	}
	if *m <= 0 {
		*m = max(1, *n/50)
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	hash, err := a.Auth.Hasher().Hash(demo.Password)
	if err != nil {
		return err
	}
	from, err := a.DB.CountReservationsByPNRPrefix(ctx, demo.BenchPNRPrefix)
	if err != nil {
		return fmt.Errorf("seed-bench: %w", err)
	}
	start := time.Now()
	err = demo.SeedBench(ctx, a.DB, hash, *m, from, from+*n, a.DB.Now(), func(done int) {
		if (done-from)%100000 == 0 {
			fmt.Fprintf(stdout, "seed-bench: %d reservations\n", done-from)
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "seed-bench: added %d reservations over %d members in %s\n", *n, *m, time.Since(start).Round(time.Millisecond))
	return nil
}
