// Package stripe is the payment engine's gateway on Stripe
// (payment.Gateway over github.com/stripe/stripe-go): saved cards as
// PaymentMethods of one Customer per member checked by a SetupIntent,
// purchases as PaymentIntents (cards with 3-D Secure, konbini slips,
// PayPay, Alipay, WeChat Pay), refunds, and the webhooks at
// /webhooks/stripe, verified with Stripe's own signature check and taken
// as hints. Every call that creates or moves money carries the engine's
// idempotency key.
package stripe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	sapi "github.com/stripe/stripe-go/v85"

	"members/internal/payment"
	"members/internal/urlquery"
)

// Name is the gateway's name in saved cards and availability.
const Name = "stripe"

// Members is what the adapter needs of the members: their Stripe
// customer, kept once made, and the contact a konbini slip is issued to.
type Members interface {
	// CustomerID is the member's Stripe customer ("" when none yet).
	CustomerID(ctx context.Context, memberID string) (string, error)
	// KeepCustomerID records id as the member's customer unless one is
	// recorded already, and returns the one recorded.
	KeepCustomerID(ctx context.Context, memberID, id string) (string, error)
	// Contact is the member's e-mail address and name.
	Contact(ctx context.Context, memberID string) (email, name string, err error)
}

// Config configures the adapter.
type Config struct {
	SecretKey      string
	PublishableKey string
	// APIURL replaces https://api.stripe.com (stripe-mock, the stand-in).
	APIURL string
	// Timeout bounds each call (zero: 10 s).
	Timeout time.Duration
	Members Members
	Logger  *slog.Logger
}

// Gateway is payment.Gateway on Stripe.
type Gateway struct {
	sc      *sapi.Client
	cfg     Config
	members Members
	log     *slog.Logger
}

var (
	_ payment.Gateway   = (*Gateway)(nil)
	_ payment.Offering  = (*Gateway)(nil)
	_ payment.CardSetup = (*Gateway)(nil)
)

// New returns the adapter.
func New(cfg Config) *Gateway {
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	// no retries inside the library: an unknown outcome goes back to the
	// engine, which reconciles under the same idempotency key
	bc := &sapi.BackendConfig{
		HTTPClient:        &http.Client{Timeout: cfg.Timeout},
		MaxNetworkRetries: sapi.Int64(0),
		LeveledLogger:     &sapi.LeveledLogger{Level: sapi.LevelNull},
	}
	if cfg.APIURL != "" {
		bc.URL = sapi.String(strings.TrimRight(cfg.APIURL, "/"))
	}
	backends := &sapi.Backends{
		API:     sapi.GetBackendWithConfig(sapi.APIBackend, bc),
		Connect: sapi.GetBackendWithConfig(sapi.ConnectBackend, bc),
		Uploads: sapi.GetBackendWithConfig(sapi.UploadsBackend, bc),
	}
	return &Gateway{sc: sapi.NewClient(cfg.SecretKey, sapi.WithBackends(backends)), cfg: cfg, members: cfg.Members, log: cfg.Logger}
}

// Name is "stripe".
func (g *Gateway) Name() string { return Name }

// Offer narrows the product's methods to what Stripe takes: cards of
// every brand, konbini and PayPay in yen, Alipay and WeChat Pay in yuan;
// no Rakuten Pay, d払い, UnionPay as a wallet, nor Pay-easy.
func (g *Gateway) Offer(currency string, a payment.Availability) payment.Availability {
	var other []string
	for _, t := range a.OtherPayment {
		switch t {
		case payment.OtherPayPay, payment.OtherAlipay, payment.OtherWeChat:
			other = append(other, t)
		}
	}
	if other == nil {
		other = []string{}
	}
	a.OtherPayment = other
	a.ConvenienceStore = currency == "JPY"
	a.Gateway = Name
	a.PublishableKey = g.cfg.PublishableKey
	return a
}

// methodType is Stripe's payment method type for the engine's method.
func methodType(method string) (string, bool) {
	switch method {
	case "card":
		return "card", true
	case "konbini":
		return "konbini", true
	case payment.OtherPayPay:
		return "paypay", true
	case payment.OtherAlipay:
		return "alipay", true
	case payment.OtherWeChat:
		return "wechat_pay", true
	}
	return "", false
}

// engineMethod is the engine's method for Stripe's type.
func engineMethod(t string) string {
	switch t {
	case "wechat_pay":
		return payment.OtherWeChat
	case "":
		return "card"
	}
	return t
}

// Token reads a PaymentMethod made in the browser (Stripe.js) or saved.
func (g *Gateway) Token(ctx context.Context, token string) (payment.GatewayToken, error) {
	if !validID(token, "pm_") {
		return payment.GatewayToken{}, payment.ErrUnknownToken
	}
	pm, err := g.sc.V1PaymentMethods.Retrieve(ctx, token, &sapi.PaymentMethodRetrieveParams{})
	if err != nil {
		return payment.GatewayToken{}, g.wrap("payment method", err)
	}
	if pm.Type != sapi.PaymentMethodTypeCard || pm.Card == nil {
		return payment.GatewayToken{}, payment.ErrUnknownToken
	}
	return tokenOf(pm), nil
}

// tokenOf maps a card PaymentMethod: brand, last four digits, expiry as
// YY/MM and the holder's name.
func tokenOf(pm *sapi.PaymentMethod) payment.GatewayToken {
	t := payment.GatewayToken{Token: pm.ID, Gateway: Name}
	if pm.Card != nil {
		t.Brand = string(pm.Card.Brand)
		t.Last4 = pm.Card.Last4
		t.ExpirationDate = fmt.Sprintf("%02d/%02d", pm.Card.ExpYear%100, pm.Card.ExpMonth)
	}
	if pm.BillingDetails != nil {
		t.HolderName = pm.BillingDetails.Name
	}
	return t
}

// DeleteToken detaches a saved card from its customer; a card Stripe no
// longer knows, or one not attached, is gone already.
func (g *Gateway) DeleteToken(ctx context.Context, token string) error {
	if !validID(token, "pm_") {
		return nil
	}
	_, err := g.sc.V1PaymentMethods.Detach(ctx, token, &sapi.PaymentMethodDetachParams{})
	var se *sapi.Error
	if errors.As(err, &se) && (se.HTTPStatusCode == http.StatusNotFound || se.Code == sapi.ErrorCodePaymentMethodUnexpectedState) {
		return nil
	}
	if err != nil {
		return g.wrap("detach", err)
	}
	return nil
}

// VerifyCard checks a card without a member (a SetupIntent with no
// customer, confirmed at once). The cards service uses SetupCard, which
// also keeps the card on the member's customer.
func (g *Gateway) VerifyCard(ctx context.Context, key, token string) (payment.CardVerification, error) {
	res, err := g.SetupCard(ctx, key, payment.CardSetupInput{Token: token})
	if err != nil {
		return payment.CardVerification{}, err
	}
	return payment.CardVerification{Token: res.Token, Status: res.Status, FailureCode: res.FailureCode}, nil
}

// customer returns the member's customer, made at the first need (create
// says so) under a key of the member's, so two racing first saves make
// one customer.
func (g *Gateway) customer(ctx context.Context, memberID string, create bool) (string, error) {
	if memberID == "" || g.members == nil {
		return "", nil
	}
	id, err := g.members.CustomerID(ctx, memberID)
	if err != nil || id != "" || !create {
		return id, err
	}
	p := &sapi.CustomerCreateParams{}
	p.AddMetadata("member_id", memberID)
	p.SetIdempotencyKey("customer_" + memberID)
	c, err := g.sc.V1Customers.Create(ctx, p)
	if err != nil {
		return "", g.wrap("customer", err)
	}
	return g.members.KeepCustomerID(ctx, memberID, c.ID)
}

// SetupCard checks a card before it is saved: a SetupIntent on the
// member's customer with the card's PaymentMethod, confirmed with a
// return page that names it, so a 3-D Secure step comes back to it.
func (g *Gateway) SetupCard(ctx context.Context, key string, in payment.CardSetupInput) (payment.CardSetupResult, error) {
	if !validID(in.Token, "pm_") {
		return payment.CardSetupResult{}, payment.ErrUnknownToken
	}
	cus, err := g.customer(ctx, in.MemberID, true)
	if err != nil {
		return payment.CardSetupResult{}, err
	}
	cp := &sapi.SetupIntentCreateParams{
		PaymentMethod: sapi.String(in.Token), PaymentMethodTypes: []*string{sapi.String("card")},
		Usage: sapi.String("off_session"),
	}
	if cus != "" {
		cp.Customer = sapi.String(cus)
	}
	cp.AddMetadata("member_id", in.MemberID)
	cp.AddMetadata("scope", in.Scope)
	cp.SetIdempotencyKey(key + "_create")
	si, err := g.sc.V1SetupIntents.Create(ctx, cp)
	if err != nil {
		return payment.CardSetupResult{}, g.wrap("setup", err)
	}
	if si.Status != sapi.SetupIntentStatusRequiresConfirmation {
		return setupResult(si), nil
	}
	fp := &sapi.SetupIntentConfirmParams{UseStripeSDK: sapi.Bool(false)}
	if in.ReturnURL != "" {
		fp.ReturnURL = sapi.String(urlquery.With(in.ReturnURL, "setup", si.ID))
	}
	fp.SetIdempotencyKey(key + "_confirm")
	confirmed, err := g.sc.V1SetupIntents.Confirm(ctx, si.ID, fp)
	var se *sapi.Error
	if errors.As(err, &se) && se.SetupIntent != nil {
		// a card error (402) carries the SetupIntent with its refusal
		return setupResult(se.SetupIntent), nil
	}
	if err != nil {
		return payment.CardSetupResult{}, g.wrap("setup confirm", err)
	}
	return setupResult(confirmed), nil
}

// CardSetupStatus reads a card check by its SetupIntent id.
func (g *Gateway) CardSetupStatus(ctx context.Context, setupID string) (payment.CardSetupResult, error) {
	if !validID(setupID, "seti_") {
		return payment.CardSetupResult{}, payment.ErrUnknownToken
	}
	si, err := g.sc.V1SetupIntents.Retrieve(ctx, setupID, &sapi.SetupIntentRetrieveParams{})
	if err != nil {
		return payment.CardSetupResult{}, g.wrap("setup status", err)
	}
	return setupResult(si), nil
}

// setupResult maps a SetupIntent: succeeded; requires_action with the
// member's page; processing as pending; a refusal with its failure code;
// cancelled as failed.
func setupResult(si *sapi.SetupIntent) payment.CardSetupResult {
	r := payment.CardSetupResult{SetupID: si.ID, MemberID: si.Metadata["member_id"], Scope: si.Metadata["scope"]}
	if si.PaymentMethod != nil {
		r.Token = si.PaymentMethod.ID
	}
	switch si.Status {
	case sapi.SetupIntentStatusSucceeded:
		r.Status = payment.VerifySucceeded
	case sapi.SetupIntentStatusRequiresAction:
		r.Status = payment.VerifyRequiresAction
		if si.NextAction != nil && si.NextAction.RedirectToURL != nil {
			r.NextAction = &payment.NextAction{Type: "redirect", URL: si.NextAction.RedirectToURL.URL}
		}
	case sapi.SetupIntentStatusProcessing, sapi.SetupIntentStatusRequiresConfirmation:
		r.Status = payment.VerifyPending
	case sapi.SetupIntentStatusCanceled:
		r.Status, r.FailureCode = payment.VerifyFailed, "canceled"
	default: // requires_payment_method
		r.Status = payment.VerifyFailed
		r.FailureCode = FailureCode(si.LastSetupError)
		if si.LastSetupError == nil {
			r.FailureCode = "card_declined"
		}
	}
	return r
}

// CreatePayment creates the PaymentIntent of a process (not confirmed:
// Authorize confirms it), metadata.reference the process id, the return
// page kept in its metadata for the confirmation. A card the member saves
// is set up for later use on the member's customer; a saved card is
// charged on it. Konbini slips are issued to the member's e-mail and name.
func (g *Gateway) CreatePayment(ctx context.Context, key string, in payment.CreatePayment) (payment.GatewayPayment, error) {
	t, ok := methodType(in.Method)
	if !ok {
		return payment.GatewayPayment{}, fmt.Errorf("stripe: method %q: %w", in.Method, payment.ErrGatewayRefused)
	}
	p := &sapi.PaymentIntentCreateParams{
		Amount: sapi.Int64(in.Amount), Currency: sapi.String(strings.ToLower(in.Currency)),
		Description: sapi.String(in.Description), PaymentMethodTypes: []*string{sapi.String(t)},
		CaptureMethod: sapi.String("automatic"),
	}
	p.AddMetadata("reference", in.Reference)
	p.AddMetadata("return_url", in.ReturnURL)
	switch t {
	case "card":
		p.PaymentMethod = sapi.String(in.Token)
		cus, err := g.customer(ctx, in.MemberID, in.SaveCard)
		if err != nil {
			return payment.GatewayPayment{}, err
		}
		if cus != "" {
			p.Customer = sapi.String(cus)
		}
		if in.SaveCard && cus != "" {
			p.SetupFutureUsage = sapi.String("off_session")
		}
	case "konbini":
		bd := &sapi.PaymentIntentCreatePaymentMethodDataBillingDetailsParams{}
		if g.members != nil && in.MemberID != "" {
			email, name, err := g.members.Contact(ctx, in.MemberID)
			if err != nil {
				return payment.GatewayPayment{}, fmt.Errorf("stripe: konbini contact: %w", err)
			}
			bd.Email, bd.Name = sapi.String(email), sapi.String(name)
		}
		p.PaymentMethodData = &sapi.PaymentIntentCreatePaymentMethodDataParams{Type: sapi.String(t), BillingDetails: bd}
	case "wechat_pay":
		p.PaymentMethodData = &sapi.PaymentIntentCreatePaymentMethodDataParams{Type: sapi.String(t)}
		p.PaymentMethodOptions = &sapi.PaymentIntentCreatePaymentMethodOptionsParams{
			WeChatPay: &sapi.PaymentIntentCreatePaymentMethodOptionsWeChatPayParams{Client: sapi.String("web")},
		}
	default:
		p.PaymentMethodData = &sapi.PaymentIntentCreatePaymentMethodDataParams{Type: sapi.String(t)}
	}
	p.SetIdempotencyKey(key)
	return g.answer("create")(g.sc.V1PaymentIntents.Create(ctx, p))
}

// Authorize confirms a PaymentIntent with its return page (a redirect,
// not Stripe.js, for 3-D Secure and the wallets). Stripe captures at once
// (automatic capture) unless autoCapture is false. A card refusal comes
// back as the failed payment, not as an error.
func (g *Gateway) Authorize(ctx context.Context, key, paymentID string, autoCapture bool) (payment.GatewayPayment, error) {
	pi, err := g.retrieve(ctx, paymentID)
	if err != nil {
		return payment.GatewayPayment{}, err
	}
	if pi.Status != sapi.PaymentIntentStatusRequiresConfirmation && pi.Status != sapi.PaymentIntentStatusRequiresPaymentMethod {
		return Payment(pi), nil // confirmed already (a repeat)
	}
	p := &sapi.PaymentIntentConfirmParams{UseStripeSDK: sapi.Bool(false)}
	if u := pi.Metadata["return_url"]; u != "" {
		p.ReturnURL = sapi.String(u)
	}
	if !autoCapture {
		p.CaptureMethod = sapi.String("manual")
	}
	p.SetIdempotencyKey(key)
	confirmed, err := g.sc.V1PaymentIntents.Confirm(ctx, paymentID, p)
	var se *sapi.Error
	if errors.As(err, &se) && se.PaymentIntent != nil && se.HTTPStatusCode == http.StatusPaymentRequired {
		return g.Payment(ctx, paymentID)
	}
	return g.answer("confirm")(confirmed, err)
}

// Capture captures an authorised PaymentIntent.
func (g *Gateway) Capture(ctx context.Context, key, paymentID string) (payment.GatewayPayment, error) {
	p := &sapi.PaymentIntentCaptureParams{}
	p.SetIdempotencyKey(key)
	return g.answer("capture")(g.sc.V1PaymentIntents.Capture(ctx, paymentID, p))
}

// Refund gives back amount of a paid PaymentIntent (partly or in full).
func (g *Gateway) Refund(ctx context.Context, key, paymentID string, amount int64) (payment.GatewayPayment, error) {
	p := &sapi.RefundCreateParams{PaymentIntent: sapi.String(paymentID), Amount: sapi.Int64(amount)}
	p.SetIdempotencyKey(key)
	if _, err := g.sc.V1Refunds.Create(ctx, p); err != nil {
		return payment.GatewayPayment{}, g.wrap("refund", err)
	}
	return g.Payment(ctx, paymentID)
}

// Cancel cancels a PaymentIntent still waiting for its customer; one paid
// meanwhile is ErrGatewayRefused.
func (g *Gateway) Cancel(ctx context.Context, key, paymentID string) (payment.GatewayPayment, error) {
	p := &sapi.PaymentIntentCancelParams{}
	p.SetIdempotencyKey(key)
	return g.answer("cancel")(g.sc.V1PaymentIntents.Cancel(ctx, paymentID, p))
}

// Payment reads a PaymentIntent with its card and latest charge (the
// refunded amount).
func (g *Gateway) Payment(ctx context.Context, paymentID string) (payment.GatewayPayment, error) {
	pi, err := g.retrieve(ctx, paymentID)
	if err != nil {
		return payment.GatewayPayment{}, err
	}
	return Payment(pi), nil
}

func (g *Gateway) retrieve(ctx context.Context, id string) (*sapi.PaymentIntent, error) {
	if !validID(id, "pi_") {
		return nil, payment.ErrUnknownToken
	}
	p := &sapi.PaymentIntentRetrieveParams{}
	p.AddExpand("latest_charge")
	p.AddExpand("payment_method")
	pi, err := g.sc.V1PaymentIntents.Retrieve(ctx, id, p)
	if err != nil {
		return nil, g.wrap("payment", err)
	}
	return pi, nil
}

// PaymentsByReference finds the PaymentIntents of a process when a create
// answer was lost (Stripe's search by metadata.reference). Search lags
// behind writes by up to a minute: the engine then creates again under
// the same idempotency key, which answers the first PaymentIntent.
func (g *Gateway) PaymentsByReference(ctx context.Context, reference string) ([]payment.GatewayPayment, error) {
	if reference == "" || strings.ContainsAny(reference, `'"\`) {
		return nil, nil
	}
	p := &sapi.PaymentIntentSearchParams{SearchParams: sapi.SearchParams{Query: "metadata['reference']:'" + reference + "'"}}
	var out []payment.GatewayPayment
	for pi, err := range g.sc.V1PaymentIntents.Search(ctx, p).All(ctx) {
		if err != nil {
			return nil, g.wrap("search", err)
		}
		if pi.Metadata["reference"] == reference {
			out = append(out, Payment(pi))
		}
	}
	return out, nil
}

// answer maps the answer of the PaymentIntent call what for the engine.
func (g *Gateway) answer(what string) func(*sapi.PaymentIntent, error) (payment.GatewayPayment, error) {
	return func(pi *sapi.PaymentIntent, err error) (payment.GatewayPayment, error) {
		if err != nil {
			return payment.GatewayPayment{}, g.wrap(what, err)
		}
		return Payment(pi), nil
	}
}

// wrap classifies a Stripe error for the engine: a missing object is
// ErrUnknownToken, a refusal (4xx but rate limits) ErrGatewayRefused,
// anything else (network, 5xx, 429) ErrGatewayUnavailable.
func (g *Gateway) wrap(what string, err error) error {
	var se *sapi.Error
	if errors.As(err, &se) {
		switch {
		case se.HTTPStatusCode == http.StatusNotFound || se.Code == sapi.ErrorCodeResourceMissing:
			return fmt.Errorf("stripe: %s: %s: %w", what, se.Code, payment.ErrUnknownToken)
		case se.HTTPStatusCode == http.StatusTooManyRequests || se.HTTPStatusCode >= 500 || se.HTTPStatusCode == 0:
			return fmt.Errorf("stripe: %s: %d %s: %w", what, se.HTTPStatusCode, se.Code, payment.ErrGatewayUnavailable)
		default:
			g.log.Warn("stripe: call refused", "call", what, "status", se.HTTPStatusCode, "code", se.Code, "request", se.RequestID)
			return fmt.Errorf("stripe: %s: %d %s: %w", what, se.HTTPStatusCode, se.Code, payment.ErrGatewayRefused)
		}
	}
	return fmt.Errorf("stripe: %s: %v: %w", what, err, payment.ErrGatewayUnavailable)
}

// validID reports whether id looks like a Stripe id with prefix (never
// sent to Stripe otherwise: it goes into a path).
func validID(id, prefix string) bool {
	if !strings.HasPrefix(id, prefix) || len(id) > 255 {
		return false
	}
	for _, c := range id[len(prefix):] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
