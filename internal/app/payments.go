package app

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"members/internal/api/paymentapi"
	"members/internal/demo"
	"members/internal/gateway"
	"members/internal/httpapi"
	"members/internal/payment"
	"members/internal/store"
	"members/internal/stripe"
)

// payments are what the payment wiring hands on: the engine the products
// register with and the saved cards the privacy export reads.
type payments struct {
	Engine *payment.Engine
	Cards  *payment.Cards
	// Checkouts are filled in by the products as they register (wirePoints,
	// wirePasses); the purchase endpoints buy through them.
	Checkouts *httpapi.Checkouts
}

// wirePayments builds the payment engine on the gateway conn reaches, the
// saved-cards service, their API, the gateway's webhook receiver at
// /webhooks/gateway and the engine's background work.
func (a *App) wirePayments(ctx context.Context, cfg Config, f *Features, conn GatewayConn) (payments, error) {
	// The gateway sends the member's browser back here after a customer
	// step: the public URL, or the server's own address.
	publicURL := strings.TrimRight(cfg.PublicURL, "/")
	if publicURL == "" {
		publicURL = strings.TrimRight(cfg.ServerURL, "/")
	}
	if publicURL == "" {
		publicURL = DefaultServerURL
	}
	// 10 s per call by default: the sandbox's slow card (0119) answers
	// later than this, so the engine meets a real unknown outcome.
	timeout := cfg.GatewayTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	st := store.NewPaymentStore(a.DB)
	gw := cfg.PaymentGateway
	var stripeGW *stripe.Gateway
	switch {
	case gw != nil:
	case conn.Stripe:
		stripeGW = a.stripeGateway(cfg, st, timeout)
		gw = stripeGW
	default:
		gw = payment.NewHTTPGateway(conn.URL, conn.Key, timeout)
	}
	armed := armedCrashPoints(conn.Sandbox != nil || (conn.Stripe && cfg.Stripe.APIURL != ""), a.Logger)
	gw = crashPoint(gw, armed)
	secret := conn.WebhookSecret
	var previous [][]byte
	for _, p := range conn.PreviousWebhookSecrets {
		if p = strings.TrimSpace(p); p != "" {
			previous = append(previous, []byte(p))
		}
	}
	mailer, err := a.Mailer(cfg)
	if err != nil {
		return payments{}, err
	}
	engine := payment.NewEngine(crashStore(observedPayments{st, a.metrics}, armed), gw, payment.Config{
		ReturnBase: publicURL, WebhookSecret: []byte(secret), PreviousWebhookSecrets: previous,
		// a request drives at most four gateway calls; after that the lease
		// lapses and the background work takes over (a killed instance)
		Lease: 4*timeout + 5*time.Second,
		// the slip of a konbini / ATM / net-banking payment is mailed
		Mailer: mailer, MailTemplates: a.MailTemplates,
		// a voucher PIN left unread on the page goes with the mails
		SecretRetention: cfg.MailRetention,
	}, a.DB.Now, a.Logger)
	checkouts := &httpapi.Checkouts{}
	cards := payment.NewCards(st, gw, mailer, a.MailTemplates, a.DB.Now, a.Logger).WithReturnBase(publicURL)
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		paymentapi.HandlerWithOptions(httpapi.NewPaymentHandlers(s, engine, cards, checkouts), paymentapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	if stripeGW != nil {
		a.mountStripeWebhooks(cfg, f, stripeGW, engine, cards)
	} else {
		webhook := httpapi.PaymentWebhook(engine, a.Logger)
		f.RootMounts = append(f.RootMounts, func(root *http.ServeMux) {
			root.Handle("POST "+WebhookPath, webhook)
		})
	}
	f.Background = append(f.Background, engine.Run)
	f.Release = append(f.Release, func(ctx context.Context) error {
		_, err := engine.ReleaseLeases(ctx)
		return err
	})
	if cfg.Demo && conn.Sandbox != nil {
		if err := a.seedDemoCards(ctx, st, conn.Sandbox); err != nil {
			return payments{}, err
		}
	}
	a.Payments, a.Checkouts = engine, checkouts
	return payments{Engine: engine, Cards: cards, Checkouts: checkouts}, nil
}

// seedDemoCards gives the demo members saved cards that pay: the sandbox
// tokenises the test cards (its tokens are random, so this cannot happen
// in the demo seeder, which runs before the gateway exists). It runs once
// per database. The expired demo card comes from demo.seedPayments.
func (a *App) seedDemoCards(ctx context.Context, st *store.PaymentStore, sandbox *gateway.Gateway) error {
	var done string
	if err := a.Settings.Get(ctx, "demo:cards:done", &done); err == nil && done != "" {
		return nil
	}
	cards := []struct {
		member, number, cvv, holder, scope string
	}{
		{demo.Member1, "4242424242424242", "123", "TARO PEACH", payment.ScopeJPY},
		{demo.Member1, "378282246310005", "1234", "TARO PEACH", payment.ScopeAll},
		{demo.Member1, "5555555555554444", "123", "TARO PEACH", payment.ScopeNonJPY},
		{demo.Member2, "3530111333300000", "123", "HANAKO MOMO", payment.ScopeJPY},
	}
	exp := a.DB.Now().In(time.FixedZone("JST", 9*3600)).AddDate(3, 0, 0).Format("06/01")
	for i, c := range cards {
		tok, err := sandbox.Tokenize(ctx, gateway.CardInput{CardNumber: c.number, ExpirationDate: exp, CVV: c.cvv, HolderName: c.holder})
		if err != nil {
			return fmt.Errorf("demo cards: %w", err)
		}
		if err := st.AddCard(ctx, payment.SavedCard{
			MemberID: c.member, Gateway: tok.Gateway, Token: tok.Token, Brand: tok.Brand, Last4: tok.Last4,
			ExpirationDate: tok.ExpirationDate, HolderName: tok.HolderName, Currency: c.scope,
			CreatedAt: a.DB.Now().Add(time.Duration(i-10) * time.Hour),
		}); err != nil {
			return fmt.Errorf("demo cards: %w", err)
		}
	}
	return a.Settings.Set(ctx, "demo:cards:done", "yes")
}
