package app

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"members/internal/api/securityapi"
	"members/internal/calendar"
	"members/internal/httpapi"
	"members/internal/payment"
	"members/internal/privacy"
	"members/internal/security"
	"members/internal/store"
)

// wireSecurity mounts the calendar (booking .ics files and the private
// subscription feed) and the member's security and data pages; the account
// deletion forgets the saved cards through cards.
func (a *App) wireSecurity(_ context.Context, cfg Config, f *Features, cards *payment.Cards) error {
	mailer, err := a.Mailer(cfg)
	if err != nil {
		return err
	}
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = DefaultPublicURL
	}
	host := "members"
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	writer := calendar.NewWriter(a.Catalog, host, publicURL+"/bookings")
	cal := calendar.NewService(store.NewCalendarStore(a.DB), store.NewBookingStore(a.DB), writer, a.Catalog, publicURL, a.DB.Now)
	deps := privacy.Deps{
		Store: store.NewPrivacyStore(a.DB), Parts: store.ExportParts(a.DB), Passwords: a.Auth.Hasher(),
		Counters: a.Counters, Mailer: mailer, Templates: a.MailTemplates, PublicURL: publicURL, Now: a.DB.Now, Logger: a.Logger,
		Cards: cards,
	}
	priv := privacy.NewService(deps)
	centre := security.NewService(store.NewSecurityStore(a.DB), mailer, a.MailTemplates, publicURL, a.DB.Now, a.Logger)
	a.Auth.Observe(centre)
	a.Security = centre
	f.Background = append(f.Background, func(ctx context.Context) { purgeEvents(ctx, centre, a) })
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		securityapi.HandlerWithOptions(httpapi.NewSecurityHandlers(s, cal, priv, centre), securityapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	f.Anonymous = append(f.Anonymous, httpapi.SecurityAnonymous...)
	return nil
}

// purgeEvents deletes security events past their retention, hourly.
func purgeEvents(ctx context.Context, centre *security.Service, a *App) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if _, err := centre.Purge(ctx); err != nil && ctx.Err() == nil {
			a.Logger.Error("purge security events", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// securityRecorder hands the account feature's changes to the security
// centre, which is built after it.
type securityRecorder struct{ a *App }

func (r securityRecorder) Changed(ctx context.Context, memberID, kind, mailKind string) {
	if r.a.Security != nil {
		r.a.Security.Changed(ctx, memberID, kind, mailKind)
	}
}
