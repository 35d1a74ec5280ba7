package app

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/flightops"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/notify"
	"members/internal/store"
)

// DemoOpsSecret signs the flight events feed of a --demo server started
// without --ops-secret (docs/flight-alerts.md). Never used outside --demo.
const DemoOpsSecret = "demo-ops-secret" // #nosec G101 -- the documented demo value, not a credential

// DemoBookingsFeedSecret signs the bookings feed of a --demo server
// started without --bookings-feed-secret (docs/airline-feeds.md). Never
// used outside --demo.
const DemoBookingsFeedSecret = "demo-bookings-feed-secret" // #nosec G101 -- the documented demo value, not a credential

// ReservationFeed is the bookings feed's service (the feed and the
// bookings import): the reservation system's snapshots, whose schedule
// changes go through the flight events' path.
func (a *App) ReservationFeed() *flightops.ReservationFeed {
	return flightops.NewReservationFeed(store.NewReservationFeedStore(a.DB), store.NewMemberNumbers(a.DB), a.DB.Now)
}

// FlightOps is the operations feed's service (the server and the
// operator's commands).
func (a *App) FlightOps() *flightops.Service { return a.flightOps(nil) }

// flightOps is FlightOps with the crash points of a test armed (nil: none).
func (a *App) flightOps(armed *crashPoints) *flightops.Service {
	return flightops.NewService(crashFlights(observedFlights{store.NewFlightOpsStore(a.DB), a.metrics}, armed), a.DB.Now)
}

// wireFlights mounts the operations feed of flight events. Its secret
// comes from --ops-secret (env MEMBERS_OPS_SECRET) and is never kept in
// the database; without one the feed answers 503.
func (a *App) wireFlights(_ context.Context, cfg Config, f *Features) error {
	secret := cfg.OpsSecret
	if secret == "" && cfg.Demo {
		secret = DemoOpsSecret
	}
	alerts, err := a.FlightAlerts(cfg)
	if err != nil {
		return err
	}
	// An event applied here wakes this instance's sender: a cancellation's
	// mails go at once, not at the sender's next interval. A crash test's
	// point after the pushes are queued holds with a stand-in push service
	// only.
	armed := armedCrashPoints(cfg.TestPushService != "", a.Logger)
	svc := flightops.NewService(wakeAlerts{crashFlights(observedFlights{store.NewFlightOpsStore(a.DB), a.metrics}, armed), alerts}, a.DB.Now)
	f.RootMounts = append(f.RootMounts, func(mux *http.ServeMux) {
		mux.Handle("POST "+httpapi.FlightEventsPath, httpapi.FlightEvents(svc, []byte(secret), a.DB.Now, a.Logger, a.unavailable))
	})
	keys := httpapi.FeedSecrets{Current: []byte(cfg.BookingsFeedSecret), Previous: []byte(cfg.BookingsFeedSecretPrevious)}
	if cfg.BookingsFeedSecret == "" && cfg.Demo {
		keys.Current = []byte(DemoBookingsFeedSecret)
	}
	feed := a.ReservationFeed()
	f.RootMounts = append(f.RootMounts, func(mux *http.ServeMux) {
		h := httpapi.ReservationsFeed(feed, keys, a.DB.Now, a.Logger)
		mux.Handle("PUT "+httpapi.ReservationsFeedPath, h)
		mux.Handle("DELETE "+httpapi.ReservationsFeedPath, h)
	})
	// Server to server, signed: no session (the API walks leave them be).
	f.Anonymous = append(f.Anonymous, "PUT "+httpapi.ReservationsFeedPath, "DELETE "+httpapi.ReservationsFeedPath)
	f.Background = append(f.Background, func(ctx context.Context) {
		alerts.Run(ctx, flightAlertsEvery, func(err error) { a.Logger.Warn("flight alerts", "err", err) })
	})
	return nil
}

// wakeAlerts wakes the flight change sender after each event applied.
type wakeAlerts struct {
	flightops.Store
	alerts *flightops.Alerts
}

func (w wakeAlerts) Apply(ctx context.Context, ev flightops.Event, source string, merge func(flightops.State) (flightops.State, bool, error),
	alertDue func(flightops.State) time.Time) (flightops.Result, error) {
	res, err := w.Store.Apply(ctx, ev, source, merge, alertDue)
	if err == nil && res.Outcome == flightops.OutcomeApplied {
		w.alerts.Wake()
	}
	return res, err
}

// flightAlertsEvery is how often the sender looks for due flight change
// mails (and each time an event is applied on this instance).
const flightAlertsEvery = 20 * time.Second

// FlightAlerts is the sender of flight change mails (the server's
// background job; tests call SendDue).
func (a *App) FlightAlerts(cfg Config) (*flightops.Alerts, error) {
	m, tpl, err := a.mailing(cfg)
	if err != nil {
		return nil, err
	}
	public := cfg.PublicURL
	if public == "" {
		public = DefaultPublicURL
	}
	settings, err := a.Notify(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	return flightops.NewAlerts(store.NewFlightOpsStore(a.DB),
		&flightMailer{cat: a.Catalog, tpl: tpl, mailer: m, publicURL: public, settings: settings}, settings, a.DB.Now, a.Logger), nil
}

// flightMailer adapts the mail package to flightops.Mailer.
type flightMailer struct {
	cat       *i18n.Catalog
	tpl       *mail.Templates
	mailer    *mail.Mailer
	publicURL string
	settings  *notify.Service
}

// SendFlightChange writes the mail of a flight's latest state in the
// member's language: old and new local times, gate, diversion, and the
// bookings page, where "Change booking" hands the member over to the
// booking site (change or refund).
func (m *flightMailer) SendFlightChange(ctx context.Context, cm flightops.ChangeMail) error {
	lang, ok := i18n.Parse(cm.To.Lang)
	if !ok {
		lang = i18n.Default
	}
	st := cm.State
	t := func(key string, args ...any) string { return m.cat.T(lang, "mail.flight_change."+key, args...) }
	local := func(at time.Time, airport string) string {
		return i18n.FormatDateTime(lang, at.In(booking.AirportZone(airport))) + " (" + airport + ")"
	}
	what := mailedChange(st)
	origin, dest := booking.AirportName(st.Origin, lang), booking.AirportName(st.Destination, lang)
	details := []mail.Detail{
		{Label: t("flight"), Value: st.Flight + " " + st.Origin + " → " + st.Destination},
		{Label: t("bookings"), Value: strings.Join(cm.To.PNRs, ", ")},
		{Label: t("status"), Value: m.cat.T(lang, "booking.flight_status."+strings.ToLower(st.FlightStatus))},
		{Label: t("was"), Value: local(st.OriginalDepartAt, st.Origin)},
	}
	if !st.IsCancelled() {
		dep, arr := st.DepartAt, st.ArrivalAt
		if st.EstimatedDepartAt != nil {
			dep = *st.EstimatedDepartAt
		}
		if st.EstimatedArrivalAt != nil {
			arr = *st.EstimatedArrivalAt
		}
		details = append(details, mail.Detail{Label: t("departure"), Value: local(dep, st.Origin)},
			mail.Detail{Label: t("arrival"), Value: local(arr, st.Destination)})
	}
	// A cancelled flight departs from no gate; the terminal and the gate
	// are each a line of their own, named as the itinerary names them.
	if !st.IsCancelled() && st.Terminal != "" {
		details = append(details, mail.Detail{Label: m.cat.T(lang, "booking.pdf.terminal"), Value: st.Terminal})
	}
	if !st.IsCancelled() && st.Gate != "" {
		details = append(details, mail.Detail{Label: m.cat.T(lang, "booking.pdf.gate"), Value: st.Gate})
	}
	if st.DivertedTo != "" {
		details = append(details, mail.Detail{Label: t("diverted"), Value: booking.AirportName(st.DivertedTo, lang) + " (" + st.DivertedTo + ")"})
	}
	q := url.Values{"lang": {string(lang)}}
	if len(cm.To.PNRs) == 1 {
		q.Set("pnr", cm.To.PNRs[0])
	}
	args := []any{"flight", st.Flight, "date", i18n.FormatISODate(lang, st.Date), "origin", origin, "destination", dest}
	// The mail opens with what happened (a cancellation is not "a change").
	args = append(args, "what", t("what."+what), "lead", t("lead."+what, args...))
	msg, err := m.tpl.Standard("flight_change", lang, cm.To.Email, mail.Data{Given: cm.To.Firstname, Family: cm.To.Lastname, Details: details,
		URL:         strings.TrimRight(m.publicURL, "/") + "/bookings?" + q.Encode(),
		Unsubscribe: &mail.Action{Label: m.cat.T(lang, "notify.mail.unsubscribe"), URL: m.settings.UnsubscribeURL(cm.MemberID, notify.FlightChanges)},
		Args:        args,
		Secrets:     []string{m.settings.UnsubscribeSecret(cm.MemberID, notify.FlightChanges)}})
	if err != nil {
		return fmt.Errorf("flight change mail: %w", err)
	}
	msg.Headers = m.settings.Headers(cm.MemberID, notify.FlightChanges)
	return m.mailer.Send(ctx, msg)
}

// mailedChange is what a flight change mail names first (its subject's
// "what" and its lead): the last change, a cancellation whatever came
// after it, and, when a delay and a gate or terminal change were folded
// into one mail (each within the coalescing window of the other, the
// delay still in force), both, the delay first.
func mailedChange(st flightops.State) string {
	if st.IsCancelled() {
		return string(flightops.KindCancellation)
	}
	delayed := st.FlightStatus == booking.FlightNotYetDepartedWithDelay && !st.TimesAt.IsZero()
	regated := !st.GateAt.IsZero()
	if (st.LastKind == flightops.KindDelay || st.LastKind == flightops.KindGate) && delayed && regated &&
		absDuration(st.TimesAt.Sub(st.GateAt)) <= flightops.CoalesceWindow {
		return "delay_gate"
	}
	return string(st.LastKind)
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
