// Command members is the airline members' area: `serve` runs the API and
// the web app, `migrate` applies the schema, and operator subcommands
// (admin, mail, seed-bench) work on the same database.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// revision is set at build time (-ldflags -X main.revision=…).
var revision = "dev"

const usage = `usage: members <command> [flags]

commands:
  serve       run the server (--addr, --db, --demo, --smtp, --trusted-proxies, --secure-cookies,
              --gateway-url or --gateway-sandbox, --metrics-addr, --shutdown-grace; serve -h)
  migrate     apply database migrations and exit (--db)
  backup      copy a live SQLite database and check the copy: backup --db sqlite:PATH --out FILE
              (PostgreSQL: pg_dump -Fc; docs/operations.md)
  admin       operator settings: admin help
  mail        the mail outbox: mail list | mail show ID | mail resend ID… (or --since)
  seed-bench  fill a database for benchmarks: seed-bench --reservations N
  gateway     the sandbox payment gateway alone (--addr, --db, --webhook-url),
              or its operator: gateway list | settle ID | fail ID | reconcile
  lottery     the unlimited pass lottery: lottery draw [--seed S] | lottery verify
  points      vouchers and exchange codes: points issue | points codes (points help)
  flights     the flight events feed's operator: flights event | flights show (flights help)
  catalogue   the pass plans and coupon products on sale: catalogue apply FILE [--dry-run] |
              catalogue export (catalogue help)
  import      bulk import from the airline's systems: import members FILE | import bookings FILE
              (NDJSON, - for standard input; --db, --dry-run, --rejects FILE; import help)
  oidc        the OpenID Connect provider's clients: oidc clients add | list | remove ID |
              rotate-secret ID (oidc help)
  push        Web Push's key pair for the flight change alerts: push vapid-keys
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		// -h printed the flags: asking for help is not a failure.
	case errors.As(err, new(exitCode)):
		// a command's answer given by the exit status (reconcile: differences)
		fmt.Fprintln(os.Stderr, "members:", oneLine(err))
		var ec exitCode
		errors.As(err, &ec)
		os.Exit(int(ec))
	case err != nil:
		fmt.Fprintln(os.Stderr, "members:", oneLine(err))
		os.Exit(2)
	}
}

// run dispatches a subcommand; every failure comes back as one error line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, stdout, stderr, logger)
	case "migrate":
		return migrate(ctx, rest, stdout, stderr, logger)
	case "backup":
		return backupCmd(ctx, rest, stdout, stderr, logger)
	case "admin":
		return admin(ctx, rest, stdout, stderr, logger)
	case "mail":
		return mailCmd(ctx, rest, stdout, stderr, logger)
	case "seed-bench":
		return seedBench(ctx, rest, stdout, stderr, logger)
	case "gateway":
		return gatewayCmd(ctx, rest, stdout, stderr, logger)
	// -- gateway --

	case "points":
		return pointsCmd(ctx, rest, stdout, stderr, logger)

	case "lottery":
		return lottery(ctx, rest, stdout, stderr, logger)

	case "flights":
		return flightsCmd(ctx, rest, stdout, stderr, logger)

	case "catalogue":
		return catalogueCmd(ctx, rest, stdout, stderr, logger)
	case "import":
		return importCmd(ctx, rest, stdout, stderr, logger)
	case "oidc":
		return oidcCmd(ctx, rest, stdout, stderr, logger)
	case "push":
		return pushCmd(rest, stdout, stderr)

	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// dbFlag adds the shared --db flag (env MEMBERS_DB).
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", envOr("MEMBERS_DB", "sqlite:./data/members.db"), "database: sqlite:PATH or postgres://… (env MEMBERS_DB)")
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

// oneLine flattens an error for the single stderr line: driver errors
// (pgx lists every address it tried) can span several lines.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// parse parses flags quietly, returning one-line errors; only -h prints
// the flags.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	pos, err := parseArgs(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), pos[0])
	}
	return nil
}

// parseArgs parses flags quietly wherever they stand among the arguments,
// so that `mail show ID --db X` works as `mail show --db X ID` does (the
// flag package alone stops at the first argument that is not a flag). It
// returns the other arguments in their order; those after "--" are taken
// as they are.
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		rest := args
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stderr)
				fs.PrintDefaults()
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w (see members %s -h)", fs.Name(), err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		// Parse stopped at "--" when it consumed one just before what is left.
		if n := len(rest) - len(args); n > 0 && rest[n-1] == "--" {
			return append(pos, args...), nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}
