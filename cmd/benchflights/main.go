// Command benchflights measures the flight events feed: on a database of
// reservations (seeded with `members seed-bench`'s data when it has fewer
// than --reservations), it applies --events delay events to distinct
// flights through the feed's service, as the endpoint does after checking
// the signature, and reports events applied per second; then it runs the
// mail sender until every owed mail is in the outbox and reports how long
// that took and how many mails were queued. The sender's clock is moved
// past the coalescing window, so the time measured is the sender's own.
//
// The full run (1,000 events on the 1,000,000-reservation database) is for
// a machine of its own; a smoke run: benchflights --reservations 5000 --events 50.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/flightops"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchflights:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchflights", flag.ContinueOnError)
	dsn := fs.String("db", "", "database (sqlite:PATH or postgres://…); empty: a new SQLite file in a temporary folder")
	n := fs.Int("reservations", 1_000_000, "reservations the database should hold (seeded when fewer)")
	events := fs.Int("events", 1000, "delay events to apply, one per flight")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	if *dsn == "" {
		dir, err := os.MkdirTemp("", "benchflights-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		*dsn = "sqlite:" + filepath.Join(dir, "bench.db")
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	defer a.Close()
	var have int
	if err := a.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM reservations WHERE pnr LIKE 'B%'`).Scan(&have); err != nil {
		return err
	}
	if have < *n {
		hash, err := a.Auth.Hasher().Hash(demo.Password)
		if err != nil {
			return err
		}
		start := time.Now()
		if err := demo.SeedBench(ctx, a.DB, hash, max(1, *n/50), have, *n, a.DB.Now(), func(int) {}); err != nil {
			return err
		}
		fmt.Printf("seeded %d reservations in %s\n", *n-have, time.Since(start).Round(time.Millisecond))
	}

	// Distinct future flights (flight, local date), read through the (flight, departure) index.
	rows, err := a.DB.QueryContext(ctx, `SELECT flight, origin_airport_code, depart_at FROM reservation_segments
		WHERE depart_at > $1 ORDER BY flight, depart_at`, a.DB.Now().Add(time.Hour).UnixMilli())
	if err != nil {
		return err
	}
	type fl struct{ flight, date, origin string }
	var flights []fl
	seen := map[string]bool{}
	for rows.Next() && len(flights) < *events {
		var f fl
		var dep int64
		if err := rows.Scan(&f.flight, &f.origin, &dep); err != nil {
			rows.Close()
			return err
		}
		f.date = time.UnixMilli(dep).In(booking.AirportZone(f.origin)).Format(booking.DateLayout)
		if !seen[f.flight+f.date] {
			seen[f.flight+f.date] = true
			flights = append(flights, f)
		}
	}
	rows.Close()
	if len(flights) == 0 {
		return fmt.Errorf("no future flights in the database")
	}

	svc := a.FlightOps()
	start := time.Now()
	touched := 0
	for i, f := range flights {
		dep, err := time.ParseInLocation(booking.DateLayout+" 15:04", f.date+" 23:00", booking.AirportZone(f.origin))
		if err != nil {
			return err
		}
		res, err := svc.Apply(ctx, flightops.Event{ID: fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i), Flight: f.flight, Date: f.date,
			Kind: flightops.KindDelay, OccurredAt: time.Now().UTC(), Departure: &dep}, flightops.SourceFeed)
		if err != nil {
			return fmt.Errorf("event %d (%s %s): %w", i, f.flight, f.date, err)
		}
		touched += res.Bookings
	}
	took := time.Since(start)
	fmt.Printf("applied %d events (%d bookings touched) in %s: %.0f events/s\n", len(flights), touched, took.Round(time.Millisecond),
		float64(len(flights))/took.Seconds())

	// The sender, with its clock past the coalescing window.
	later := func() time.Time { return time.Now().Add(flightops.CoalesceWindow + time.Minute) }
	a.DB.Now = later
	alerts, err := a.FlightAlerts(app.Config{})
	if err != nil {
		return err
	}
	start = time.Now()
	mails := 0
	for {
		sent, err := alerts.SendDue(ctx)
		if err != nil {
			return err
		}
		mails += sent
		var left int
		if err := a.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM flight_alerts WHERE sequence > sent_sequence`).Scan(&left); err != nil {
			return err
		}
		if left == 0 {
			break
		}
		if time.Since(start) > 10*time.Minute {
			return fmt.Errorf("%d mails still owed after 10 minutes", left)
		}
	}
	fmt.Printf("queued %d mails in %s\n", mails, time.Since(start).Round(time.Millisecond))
	return nil
}
