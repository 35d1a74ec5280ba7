package app

import (
	"context"
	"fmt"
	"net/http"

	"members/internal/account"
	"members/internal/account/postal"
	"members/internal/api/accountapi"
	"members/internal/httpapi"
	"members/internal/mail"
	"members/internal/store"
)

// wireAccount mounts the account, passengers, password reset and mail
// feature: the mailer (SMTP when cfg.SMTPURL is set, the outbox always)
// with its delivery worker, and the account API.
func (a *App) wireAccount(ctx context.Context, cfg Config, f *Features) error {
	mailer, tpl, err := a.mailing(cfg)
	if err != nil {
		return err
	}
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = DefaultPublicURL
	}
	svc := account.NewService(account.Deps{
		Store: store.NewAccountStore(a.DB), Sessions: a.Auth, Hasher: a.Auth.Hasher(), Countries: a.Countries,
		Mailer: mailer, Templates: tpl, Counters: a.Counters, Now: a.DB.Now, Logger: a.Logger, PublicURL: publicURL,
		EmailChanges: store.NewEmailChangeStore(a.DB), Security: securityRecorder{a},
	})
	table := postal.New()
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		accountapi.HandlerWithOptions(httpapi.AccountHandlers(s, svc, table), accountapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	f.Anonymous = append(f.Anonymous, httpapi.AccountAnonymous...)
	f.Background = append(f.Background, mailer.Run)
	f.Closers = append(f.Closers, svc.Wait)
	return nil
}

// mailing is the app's mailer and its mail templates, each built once:
// what every feature that mails needs.
func (a *App) mailing(cfg Config) (*mail.Mailer, *mail.Templates, error) {
	m, err := a.Mailer(cfg)
	if err != nil {
		return nil, nil, err
	}
	if a.MailTemplates == nil {
		tpl, err := mail.NewTemplates(a.Catalog)
		if err != nil {
			return nil, nil, err
		}
		a.MailTemplates = tpl
	}
	return m, a.MailTemplates, nil
}

// DefaultPublicURL is the base of links in mails when none is configured.
const DefaultPublicURL = "http://127.0.0.1:8080"

// Mailer returns the app's mailer, built once from cfg.SMTPURL: SMTP plus
// the outbox, or the outbox alone when the URL is empty. Other features
// (bookings) send through the same mailer.
func (a *App) Mailer(cfg Config) (*mail.Mailer, error) {
	if a.mailer != nil {
		return a.mailer, nil
	}
	var (
		tr   mail.Transport
		from = mail.DefaultFrom
	)
	if cfg.SMTPURL != "" {
		s, f, err := mail.ParseSMTPURL(cfg.SMTPURL)
		if err != nil {
			return nil, fmt.Errorf("--smtp: %w", err)
		}
		tr, from = s, f
	}
	a.mailer = mail.New(observedOutbox{store.NewMailOutbox(a.DB), a.metrics}, tr, from, a.DB.Now, a.Logger)
	retention := cfg.MailRetention
	if retention == 0 {
		retention = mail.DefaultRetention
	}
	a.mailer.KeepSent(retention, store.NewJobs(a.DB), "mail-"+store.NewID())
	return a.mailer, nil
}
