package app

import (
	"context"
	"net/http"
	"strings"
	"time"

	"members/internal/api/paymentapi"
	"members/internal/httpapi"
	"members/internal/payment"
	"members/internal/store"
)

// wirePayments builds the payment engine (a.Payments, which the products
// register with), the saved-cards service, their API, the gateway's
// webhook receiver at /webhooks/gateway and the engine's background work.
func (a *App) wirePayments(ctx context.Context, cfg Config, f *Features) error {
	publicURL := strings.TrimRight(cfg.PublicURL, "/")
	gw := cfg.PaymentGateway
	if gw == nil {
		// 10 s per call: the sandbox's slow card (0119) answers later than
		// this, so the engine meets a real unknown outcome and reconciles.
		gw = payment.NewHTTPGateway(a.Gateway.URL, a.Gateway.Key, 10*time.Second)
	}
	secret := a.Gateway.WebhookSecret
	st := store.NewPaymentStore(a.DB)
	a.Payments = payment.NewEngine(st, gw, payment.Config{
		ReturnBase: publicURL, WebhookSecret: []byte(secret),
	}, a.DB.Now, a.Logger)
	mailer, err := a.Mailer(cfg)
	if err != nil {
		return err
	}
	a.Cards = payment.NewCards(st, gw, mailer, a.MailTemplates, a.DB.Now, a.Logger)
	engine, cards := a.Payments, a.Cards
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		paymentapi.HandlerWithOptions(httpapi.NewPaymentHandlers(s, engine, cards), paymentapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	webhook := httpapi.PaymentWebhook(engine, a.Logger)
	f.RootMounts = append(f.RootMounts, func(root *http.ServeMux) {
		root.Handle("POST "+WebhookPath, webhook)
	})
	f.Background = append(f.Background, engine.Run)
	return nil
}
