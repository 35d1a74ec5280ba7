package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"members/internal/api/pointsapi"
	"members/internal/auth"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/notify"
	"members/internal/payment"
	"members/internal/points"
	"members/internal/store"
)

// DefaultPointsReminderDays are the expiry reminder thresholds (days
// before a voucher expires) when none are configured.
var DefaultPointsReminderDays = []int{30, 7}

// pointsReminderEvery is how often the reminder job looks for due mails.
const pointsReminderEvery = time.Hour

// wirePoints mounts the points feature, registers its purchase with the
// payment engine and starts its expiry reminders.
func (a *App) wirePoints(_ context.Context, cfg Config, f *Features, pay payments) (*points.Service, error) {
	svc, err := a.PointsService(cfg)
	if err != nil {
		return nil, err
	}
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		pointsapi.HandlerWithOptions(httpapi.NewPointHandlers(s, svc), pointsapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	// The purchase: the payment engine sells vouchers through the product
	// and grants them at settlement.
	pay.Checkouts.Points = payment.Register(pay.Engine, svc.Sale())
	f.Background = append(f.Background, func(ctx context.Context) {
		svc.RunReminders(ctx, pointsReminderEvery, func(err error) { a.Logger.Warn("points reminders", "err", err) })
	})
	return svc, nil
}

// PointsService builds the points service (also used by the operator
// commands).
func (a *App) PointsService(cfg Config) (*points.Service, error) {
	m, tpl, err := a.mailing(cfg)
	if err != nil {
		return nil, err
	}
	days := cfg.PointsReminderDays
	if days == nil {
		days = DefaultPointsReminderDays
	}
	pins, err := a.SecretHasher(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	settings, err := a.Notify(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	return points.NewService(store.NewPointStore(a.DB), pins, &pointsMailer{cat: a.Catalog, tpl: tpl, mailer: m, settings: settings},
		a.Catalog, a.Counters, a.DB.Now, points.Config{ReminderDays: days, Settings: settings, Logger: a.Logger}), nil
}

// pointsMailer adapts the mail package to points.Mailer.
type pointsMailer struct {
	cat      *i18n.Catalog
	tpl      *mail.Templates
	mailer   *mail.Mailer
	settings *notify.Service
}

func (m *pointsMailer) SendPoints(ctx context.Context, pm points.Mail) error {
	lang, ok := i18n.Parse(pm.To.Lang)
	if !ok {
		lang = i18n.Default
	}
	v := pm.Voucher
	t := func(key string) string { return m.cat.T(lang, "mail.points."+key) }
	details := []mail.Detail{{Label: t("number"), Value: v.Number, Number: true}}
	if pm.Pin != "" {
		details = append(details, mail.Detail{Label: t("pin"), Value: pm.Pin, Number: true})
	}
	details = append(details,
		mail.Detail{Label: t("balance"), Value: points.FormatMoney(v.Balance, v.Currency, lang)},
		mail.Detail{Label: t("expire_date"), Value: i18n.FormatISODate(lang, v.ExpireDate)})
	data := mail.Data{Given: pm.To.Firstname, Family: pm.To.Lastname, Details: details,
		Args: []any{"days", pm.Days, "days_left", m.cat.TN(lang, "mail.points.days_left", pm.Days),
			"amount", points.FormatMoney(v.Balance, v.Currency, lang), "date", i18n.FormatISODate(lang, v.ExpireDate)}}
	if pm.Pin != "" {
		data.Secrets = append(data.Secrets, pm.Pin)
	}
	if pm.Kind == "reminder" {
		data.Unsubscribe = &mail.Action{Label: m.cat.T(lang, "notify.mail.unsubscribe"), URL: m.settings.UnsubscribeURL(pm.To.MemberID, notify.PointsReminders)}
		data.Secrets = append(data.Secrets, m.settings.UnsubscribeSecret(pm.To.MemberID, notify.PointsReminders))
	}
	msg, err := m.tpl.Standard("points_"+pm.Kind, lang, pm.To.Email, data)
	if err != nil {
		return fmt.Errorf("points mail: %w", err)
	}
	if pm.Kind == "reminder" {
		// The only optional points mail: it carries the unsubscribe link.
		msg.Headers = m.settings.Headers(pm.To.MemberID, notify.PointsReminders)
	}
	return m.mailer.Send(ctx, msg)
}

// SecretHasher is the keyed hash of the secrets the server generates and
// shows once (voucher PINs, exchange-code passwords): HMAC-SHA256 under
// cfg.PinKey, which stays outside the database. The key kept in the
// database (made on first use) hashes when no PinKey is given and keeps
// verifying what it hashed once a PinKey is set. Hashes made before
// (argon2id) verify with the password hasher.
func (a *App) SecretHasher(ctx context.Context, cfg Config) (*auth.SecretHasher, error) {
	stored, err := a.Secret(ctx, "voucher-pin")
	if err != nil {
		return nil, err
	}
	keys := [][]byte{stored}
	if cfg.PinKey != "" {
		k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cfg.PinKey))
		if err != nil || len(k) < auth.MinSecretKeyLen {
			return nil, fmt.Errorf("--pin-key: base64 of at least %d random bytes (openssl rand -base64 32)", auth.MinSecretKeyLen)
		}
		keys = [][]byte{k, stored}
	}
	return auth.NewSecretHasher(a.Auth.Hasher(), keys...)
}
