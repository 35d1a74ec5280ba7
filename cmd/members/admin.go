package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"members/internal/app"
	"members/internal/platform"
)

const adminUsage = `usage: members admin <setting> [flags]

settings:
  show                                 print every setting
  cookie-consent  --required --consent-script-url URL --analytics-tag-url URL
  topic-banner    --active --target-page P --message1 T --message2 T --href URL
  gogo-pass       --public --purchasable --lottery [--draw-at TIME] --maintenance on|off|auto
  coupon-ticket   --public
  origin-access   --enabled --limit N --window SECONDS
Every flag not given is set to false or empty (--maintenance to auto: closed
03:00-05:00 Japan time; on forces maintenance, off lifts it). All take --db.
`

// admin sets the operator switches kept in the database.
func admin(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" {
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	name, rest := args[0], args[1:]
	fs := flag.NewFlagSet("admin "+name, flag.ContinueOnError)
	dsn := dbFlag(fs)
	var (
		key   string
		value func() any
		// maintenance is the pass maintenance mode, set with gogo-pass.
		maintenance *string
	)
	switch name {
	case "show":
	case "cookie-consent":
		var v platform.CookieConsent
		fs.BoolVar(&v.Required, "required", false, "visitors must consent to cookies")
		fs.StringVar(&v.ConsentScriptURL, "consent-script-url", "", "consent manager script")
		fs.StringVar(&v.AnalyticsTagURL, "analytics-tag-url", "", "analytics tag script")
		key, value = platform.KeyCookieConsent, func() any { return v }
	case "topic-banner":
		var v platform.TopicBanner
		fs.BoolVar(&v.IsActive, "active", false, "show the banner")
		fs.StringVar(&v.TargetPage, "target-page", "home", "page that shows it")
		fs.StringVar(&v.Message1, "message1", "", "first line")
		fs.StringVar(&v.Message2, "message2", "", "second line")
		fs.StringVar(&v.Href, "href", "", "link")
		key, value = platform.KeyTopicBanner, func() any { return v }
	case "gogo-pass":
		var v platform.GogoPassStatus
		fs.BoolVar(&v.IsGogoPassPublic, "public", false, "pass pages visible")
		fs.BoolVar(&v.IsGogoPassPurchasable, "purchasable", false, "pass on sale")
		fs.BoolVar(&v.IsGogoPassLotteryPhase, "lottery", false, "lottery-sale phase")
		fs.StringVar(&v.LotteryDrawAt, "draw-at", "", "when the lottery is drawn, shown to members (RFC 3339, e.g. 2026-12-01T12:00:00+09:00)")
		maintenance = fs.String("maintenance", string(platform.MaintenanceAuto), "on, off or auto (03:00-05:00 Japan time)")
		key, value = platform.KeyGogoPass, func() any { return v }
	case "coupon-ticket":
		var v platform.CouponTicketStatus
		fs.BoolVar(&v.IsCouponTicketPublic, "public", false, "coupon pass visible")
		key, value = platform.KeyCouponTicket, func() any { return v }
	case "origin-access":
		var v platform.OriginAccessConfig
		fs.BoolVar(&v.Enabled, "enabled", false, "restrict API access")
		fs.IntVar(&v.Limit, "limit", 100, "callers admitted per window")
		fs.IntVar(&v.WindowSeconds, "window", 60, "window length in seconds")
		key, value = platform.KeyOriginAccess, func() any { return v }
	default:
		fmt.Fprint(stderr, adminUsage)
		return fmt.Errorf("admin: unknown setting %q", name)
	}
	if err := parse(fs, rest, stderr); err != nil {
		return err
	}
	if g, ok := callOrNil(value).(platform.GogoPassStatus); ok && g.LotteryDrawAt != "" {
		if _, err := time.Parse(time.RFC3339, g.LotteryDrawAt); err != nil {
			return fmt.Errorf("admin %s: --draw-at: %w", name, err)
		}
	}
	var mode platform.MaintenanceMode
	if maintenance != nil {
		m, err := platform.ParseMaintenanceMode(*maintenance)
		if err != nil {
			return fmt.Errorf("admin %s: %w", name, err)
		}
		mode = m
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	if key != "" {
		if err := a.Platform.Set(ctx, key, value()); err != nil {
			return fmt.Errorf("admin %s: %w", name, err)
		}
	}
	if mode != "" {
		if err := a.Platform.Set(ctx, platform.KeyGogoPassMaintenance, mode); err != nil {
			return fmt.Errorf("admin %s: %w", name, err)
		}
	}
	return printSettings(ctx, a, stdout)
}

func printSettings(ctx context.Context, a *app.App, stdout io.Writer) error {
	cc, err := a.Platform.CookieConsent(ctx)
	if err != nil {
		return err
	}
	tb, err := a.Platform.TopicBanner(ctx)
	if err != nil {
		return err
	}
	gp, err := a.Platform.GogoPassStatus(ctx)
	if err != nil {
		return err
	}
	ct, err := a.Platform.CouponTicketStatus(ctx)
	if err != nil {
		return err
	}
	oa, err := a.Platform.OriginAccessConfig(ctx)
	if err != nil {
		return err
	}
	mm, err := a.Platform.GogoPassMaintenanceMode(ctx)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{
		platform.KeyCookieConsent: cc, platform.KeyTopicBanner: tb, platform.KeyGogoPass: gp,
		platform.KeyCouponTicket: ct, platform.KeyOriginAccess: oa, platform.KeyGogoPassMaintenance: map[string]any{"mode": mm},
	})
}

// callOrNil is f's value, or nil for no f (admin show sets nothing).
func callOrNil(f func() any) any {
	if f == nil {
		return nil
	}
	return f()
}
