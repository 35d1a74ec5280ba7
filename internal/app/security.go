package app

import (
	"context"
	"net/http"
	"net/url"

	"members/internal/api/securityapi"
	"members/internal/calendar"
	"members/internal/httpapi"
	"members/internal/privacy"
	"members/internal/store"
)

// wireSecurity mounts the calendar (booking .ics files and the private
// subscription feed) and the member's security and data pages.
func (a *App) wireSecurity(_ context.Context, cfg Config, f *Features) error {
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
	}
	if a.Cards != nil {
		deps.Cards = a.Cards
	}
	priv := privacy.NewService(deps)
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		securityapi.HandlerWithOptions(httpapi.NewSecurityHandlers(s, cal, priv), securityapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	f.Anonymous = append(f.Anonymous, httpapi.SecurityAnonymous...)
	return nil
}
