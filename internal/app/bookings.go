package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"members/internal/api/bookingapi"
	"members/internal/booking"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/pdf"
	"members/internal/store"
)

// wireBookings mounts the bookings and travel documents feature.
func (a *App) wireBookings(ctx context.Context, cfg Config, f *Features) error {
	mailer, err := a.bookingMailer(cfg)
	if err != nil {
		return err
	}
	renderer, err := pdf.New(a.Catalog)
	if err != nil {
		return err
	}
	svc := booking.NewService(store.NewBookingStore(a.DB), renderer, mailer, a.Catalog, booking.NewBookingSite(cfg.BookingSiteURL), a.Counters, a.DB.Now)
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		bookingapi.HandlerWithOptions(httpapi.NewBookingHandlers(s, svc), bookingapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	f.Anonymous = append(f.Anonymous, httpapi.BookingAnonymous...)
	return nil
}

// MinKeyLen is the shortest key accepted from the operator (bytes).
const MinKeyLen = 32

// DecodeKey reads an operator's key: base64 of at least MinKeyLen random
// bytes (openssl rand -base64 32).
func DecodeKey(s string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(k) < MinKeyLen {
		return nil, fmt.Errorf("base64 of at least %d random bytes (openssl rand -base64 32)", MinKeyLen)
	}
	return k, nil
}

// bookingMailer sends the itinerary mail through the shared mailer: stored
// in the outbox first, delivered at once when SMTP is configured, retried
// by the mail feature's delivery worker.
func (a *App) bookingMailer(cfg Config) (booking.Mailer, error) {
	tpl, err := mail.NewTemplates(a.Catalog)
	if err != nil {
		return nil, err
	}
	m, err := a.Mailer(cfg)
	if err != nil {
		return nil, err
	}
	public := cfg.PublicURL
	if public == "" {
		public = DefaultPublicURL
	}
	return &itineraryMailer{cat: a.Catalog, tpl: tpl, mailer: m, publicURL: strings.TrimRight(public, "/")}, nil
}

// itineraryMailer adapts the mail package to booking.Mailer.
type itineraryMailer struct {
	cat       *i18n.Catalog
	tpl       *mail.Templates
	mailer    *mail.Mailer
	publicURL string
}

func (m *itineraryMailer) SendItinerary(ctx context.Context, im booking.ItineraryMail) error {
	details := []mail.Detail{{Label: m.cat.T(im.Lang, "mail.itinerary.pnr"), Value: im.PNR}}
	for _, l := range im.Flights {
		details = append(details, mail.Detail{Label: m.cat.T(im.Lang, "mail.itinerary.flights"), Value: l})
	}
	// The booking on the bookings page, its flights as they are now.
	link := m.publicURL + "/bookings?" + url.Values{"lang": {string(im.Lang)}, "pnr": {im.PNR}}.Encode()
	msg, err := m.tpl.Standard("itinerary", im.Lang, im.To.Email, mail.Data{Given: im.To.Firstname, Family: im.To.Lastname, Args: []any{"pnr", im.PNR}, Details: details, URL: link})
	if err != nil {
		return fmt.Errorf("itinerary mail: %w", err)
	}
	msg.Attachments = append(msg.Attachments, mail.Attachment{Name: "itinerary-" + im.PNR + ".pdf", ContentType: "application/pdf", Data: im.PDF})
	return m.mailer.Send(ctx, msg)
}
