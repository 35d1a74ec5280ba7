package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"members/internal/app"
	"members/internal/pass"
)

const lotteryUsage = `usage: members lottery <command> [flags]

commands:
  draw    decide every pending unlimited pass entry and mail each entrant
          the result; prints SEED<TAB>WINNERS
          --seed S (default: a new random seed), --window 168h (how long
          winners may buy), --smtp URL (env MEMBERS_SMTP_URL), --db
  verify  recompute the latest draw from its recorded seed and entrants;
          prints SEED<TAB>WINNERS<TAB>ok, fails on a mismatch (--db)
`

// lottery runs the unlimited pass lottery (operator).
func lottery(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" {
		fmt.Fprint(stdout, lotteryUsage)
		return nil
	}
	name, rest := args[0], args[1:]
	fs := flag.NewFlagSet("lottery "+name, flag.ContinueOnError)
	dsn := dbFlag(fs)
	var (
		seed   *string
		window = pass.DefaultBuyWindow
		smtp   *string
	)
	switch name {
	case "draw":
		seed = fs.String("seed", "", "seed of the draw (default: random)")
		fs.DurationVar(&window, "window", pass.DefaultBuyWindow, "how long winners may buy")
		smtp = fs.String("smtp", envOr("MEMBERS_SMTP_URL", ""), "SMTP URL for the result mails (empty: outbox only)")
	case "verify":
	default:
		fmt.Fprint(stderr, lotteryUsage)
		return fmt.Errorf("lottery: unknown command %q", name)
	}
	if err := parse(fs, rest, stderr); err != nil {
		return err
	}
	if window <= 0 {
		return errors.New("lottery draw: --window must be positive")
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	cfg := app.Config{}
	if smtp != nil {
		cfg.SMTPURL = *smtp
	}
	p, err := a.NewPasses(cfg, nil) // the draw refunds nothing
	if err != nil {
		return err
	}
	if name == "verify" {
		d, ok, err := p.Pass.VerifyLastDraw(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("lottery verify: draw %s does not recompute to its recorded winners", d.ID)
		}
		fmt.Fprintf(stdout, "%s\t%d\tok\n", d.Seed, d.Winners)
		return nil
	}
	d, err := p.Pass.Draw(ctx, *seed, window)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\t%d\n", d.Seed, d.Winners)
	return nil
}
