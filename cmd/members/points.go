package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"members/internal/app"
	"members/internal/points"
)

const pointsUsage = `usage: members points <command> [flags]

  issue --member EMAIL --currency C --amount N [--expired]
        issue a voucher to a member; prints NUMBER<TAB>PIN
  codes --currency C --amount N [--count K] [--ana]
        make exchange codes (--ana: partner-airline miles); prints CODE<TAB>PASSWORD per code

Amounts are in the currency's units (SGD may have two decimals: 12.50).
`

// pointsCmd is the operator's points commands (support staff and tests).
func pointsCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, pointsUsage)
		if len(args) == 0 {
			return errors.New("points: no command given")
		}
		return nil
	}
	fs := flag.NewFlagSet("points "+args[0], flag.ContinueOnError)
	dsn := dbFlag(fs)
	currency := fs.String("currency", "", "currency: KRW CNY JPY TWD HKD THB SGD")
	amount := fs.String("amount", "", "amount in currency units")
	switch args[0] {
	case "issue":
		email := fs.String("member", "", "the member's e-mail address")
		expired := fs.Bool("expired", false, "issue a voucher that expired yesterday (to try the reissue)")
		if err := parse(fs, args[1:], stderr); err != nil {
			return err
		}
		svc, n, closeFn, err := openPoints(ctx, *dsn, *currency, *amount, logger)
		if err != nil {
			return err
		}
		defer closeFn()
		v, pin, err := svc.Issue(ctx, points.IssueInput{Email: *email, Currency: strings.ToUpper(*currency), Amount: n, Expired: *expired})
		if err != nil {
			return fmt.Errorf("points issue: %w", err)
		}
		fmt.Fprintf(stdout, "%s\t%s\n", v.Number, pin)
		return nil
	case "codes":
		count := fs.Int("count", 1, "number of codes")
		ana := fs.Bool("ana", false, "partner-airline miles codes")
		if err := parse(fs, args[1:], stderr); err != nil {
			return err
		}
		svc, n, closeFn, err := openPoints(ctx, *dsn, *currency, *amount, logger)
		if err != nil {
			return err
		}
		defer closeFn()
		codes, err := svc.MakeCodes(ctx, points.CodesInput{Currency: strings.ToUpper(*currency), Amount: n, Count: *count, Ana: *ana})
		if err != nil {
			return fmt.Errorf("points codes: %w", err)
		}
		for _, c := range codes {
			fmt.Fprintf(stdout, "%s\t%s\n", c.Code, c.Password)
		}
		return nil
	}
	fmt.Fprint(stderr, pointsUsage)
	return fmt.Errorf("points: unknown command %q", args[0])
}

func openPoints(ctx context.Context, dsn, currency, amount string, logger *slog.Logger) (*points.Service, int64, func(), error) {
	currency = strings.ToUpper(currency)
	if !points.ValidCurrency(currency) {
		return nil, 0, nil, fmt.Errorf("points: --currency is one of %s", strings.Join(points.Currencies, " "))
	}
	n, err := points.ParseAmount(amount, currency)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("points: --amount: %w", err)
	}
	a, err := app.Open(ctx, app.Options{DSN: dsn, Logger: logger})
	if err != nil {
		return nil, 0, nil, err
	}
	svc, err := a.PointsService(app.Config{PinKey: envOr("MEMBERS_PIN_KEY", "")})
	if err != nil {
		_ = a.Close()
		return nil, 0, nil, err
	}
	return svc, n, func() { _ = a.Close() }, nil
}

// parseDays reads "30,7" into [30 7]; empty means no reminders.
func parseDays(s string) ([]int, error) {
	out := []int{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		d, err := strconv.Atoi(p)
		if err != nil || d < 0 || d > 366 {
			return nil, fmt.Errorf("--points-reminder-days: %q is not a number of days (0 to 366)", p)
		}
		out = append(out, d)
	}
	return out, nil
}
