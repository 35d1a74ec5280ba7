package app

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"members/internal/api/securityapi"
	"members/internal/calendar"
	"members/internal/coupon"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/payment"
	"members/internal/points"
	"members/internal/privacy"
	"members/internal/security"
	"members/internal/store"
)

// wireSecurity mounts the calendar (booking .ics files and the private
// subscription feed) and the member's security and data pages; the account
// deletion forgets the saved cards through cards.
func (a *App) wireSecurity(_ context.Context, cfg Config, f *Features, pay payments, pts *points.Service, coupons *coupon.Service) error {
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
		Cards:    pay.Cards,
		Holdings: holdings{engine: pay.Engine, points: pts, coupons: coupons},
	}
	priv := privacy.NewService(deps)
	a.Privacy = priv
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

// holdings answers account deletion's questions from the payment engine,
// the points and the coupon pass (points and coupons may be nil).
type holdings struct {
	engine  *payment.Engine
	points  *points.Service
	coupons *coupon.Service
}

func (h holdings) PendingPayment(ctx context.Context, memberID string) (*privacy.PendingPayment, error) {
	v, err := h.engine.Pending(ctx, memberID)
	if err != nil || !v.Pending {
		return nil, err
	}
	return &privacy.PendingPayment{PaymentProcessID: v.PaymentProcessID, ProductType: v.ProductType}, nil
}

func (h holdings) RefundableCoupons(ctx context.Context, memberID string, lang i18n.Lang) ([]privacy.LostCoupon, error) {
	if h.coupons == nil {
		return nil, nil
	}
	cs, err := h.coupons.Coupons(ctx, memberID, string(lang))
	if err != nil {
		return nil, err
	}
	var out []privacy.LostCoupon
	for _, c := range cs {
		if c.Refundable {
			out = append(out, privacy.LostCoupon{ID: c.ID, Name: c.Name, CurrencyCode: c.CurrencyCode, RefundAmount: c.RefundAmount})
		}
	}
	return out, nil
}

func (h holdings) PointBalances(ctx context.Context, memberID string, lang i18n.Lang) ([]privacy.LostPoints, error) {
	if h.points == nil {
		return nil, nil
	}
	sum, err := h.points.Summary(ctx, memberID, lang)
	if err != nil {
		return nil, err
	}
	var out []privacy.LostPoints
	for _, e := range sum {
		if e.Group == points.GroupAvailable && e.Amount > 0 {
			out = append(out, privacy.LostPoints{CurrencyCode: e.CurrencyCode, Currency: e.Currency, Amount: e.Amount})
		}
	}
	return out, nil
}
