package payment

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/validate"
)

// Config tunes the engine.
type Config struct {
	// ReturnBase prefixes the return URL the gateway sends the member back
	// to (the site's public URL; empty keeps it relative to the gateway's
	// origin, right when the gateway is mounted in the same server).
	ReturnBase string
	// OpenFor is how long an unpaid process stays open (30 minutes).
	OpenFor time.Duration
	// Lease is how long a worker or a request owns a process.
	Lease time.Duration
	// Poll is how often an open process waiting for the member's step is
	// checked at the gateway when no webhook came.
	Poll time.Duration
	// Retry is the wait before reconciling a call whose outcome is unknown.
	Retry time.Duration
	// WebhookSecret signs the gateway's webhooks. PreviousWebhookSecrets
	// still verify during a change of secret (the gateway signs with the
	// new one as soon as it has it).
	WebhookSecret          []byte
	PreviousWebhookSecrets [][]byte
	// WebhookTolerance is how far a webhook's timestamp may be off.
	WebhookTolerance time.Duration
	// ReconcileEvery is how often the reconciliation job runs (one hour),
	// over the processes changed in the last ReconcileWindow (two days);
	// ReconcileLease bounds one run's hold of the job (ten minutes).
	ReconcileEvery  time.Duration
	ReconcileWindow time.Duration
	ReconcileLease  time.Duration
	// Mailer and MailTemplates send the slip of a convenience-store / ATM
	// / net-banking payment to the member when the gateway issues it (nil:
	// no mail).
	Mailer        Mailer
	MailTemplates *mail.Templates
}

func (c *Config) defaults() {
	if c.OpenFor == 0 {
		c.OpenFor = 30 * time.Minute
	}
	if c.Lease == 0 {
		c.Lease = time.Minute
	}
	if c.Poll == 0 {
		c.Poll = 30 * time.Second
	}
	if c.Retry == 0 {
		c.Retry = 3 * time.Second
	}
	if c.WebhookTolerance == 0 {
		c.WebhookTolerance = 5 * time.Minute
	}
	if c.ReconcileEvery == 0 {
		c.ReconcileEvery = time.Hour
	}
	if c.ReconcileWindow == 0 {
		c.ReconcileWindow = 48 * time.Hour
	}
	if c.ReconcileLease == 0 {
		c.ReconcileLease = 10 * time.Minute
	}
}

// Engine is the payment engine: the products, the processes in the
// database and the gateway. Its state lives in the store only, so several
// instances share one database.
type Engine struct {
	store Store
	audit AuditStore
	gw    Gateway
	cfg   Config
	now   func() time.Time
	log   *slog.Logger
	owner string

	mu       sync.RWMutex
	products map[string]Product
}

// NewEngine returns an engine without products.
func NewEngine(s Store, gw Gateway, cfg Config, now func() time.Time, log *slog.Logger) *Engine {
	cfg.defaults()
	return &Engine{store: s, audit: s, gw: gw, cfg: cfg, now: now, log: log, owner: "w" + randomID(), products: map[string]Product{}}
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Register adds a product. Registering a type twice panics: it is a wiring
// mistake found at start-up.
func (e *Engine) Register(p Product) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.products[p.Type()]; ok {
		panic("payment: product registered twice: " + p.Type())
	}
	e.products[p.Type()] = p
}

// Replace registers p in place of the product of the same type (tests
// that count grants with a product of their own).
func (e *Engine) Replace(p Product) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.products[p.Type()] = p
}

// product returns a registered product (404 otherwise).
func (e *Engine) product(t string) (Product, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	p, ok := e.products[t]
	if !ok {
		return nil, apperr.ErrNotFound
	}
	return p, nil
}

// Gateway is the engine's gateway (the cards service shares it).
func (e *Engine) Gateway() Gateway { return e.gw }

// idemKey is the idempotency key of a step of a process: the same step of
// the same process is the same key, whoever repeats it and whenever.
func idemKey(processID, step string) string { return "pp_" + processID + "_" + step }

// Fields are the engine's fields of a purchase body.
type Fields struct {
	PaymentMethod     string `json:"paymentMethod"`
	CreditCardToken   string `json:"creditCardToken"`
	CreditCardGateway string `json:"creditCardGateway"`
	SaveCard          bool   `json:"saveCard"`
	OtherPaymentType  string `json:"otherPaymentType"`
	RequestID         string `json:"requestId"`
}

// Quote is the answer of …/buy/validate: the priced order.
type Quote struct {
	ProductType string          `json:"productType"`
	Amount      int64           `json:"amount"`
	Currency    string          `json:"currency"`
	Description string          `json:"description"`
	Details     json.RawMessage `json:"details"`
}

// checked is a validated purchase.
type checked struct {
	product Product
	order   Order
	fields  Fields
	card    ProcessCard
	scope   string
}

// check validates a purchase body: the product's fields (Quote) and the
// payment fields, all field errors together.
func (e *Engine) check(ctx context.Context, memberID string, lang i18n.Lang, productType string, pur Purchase, needRequest bool) (checked, error) {
	prod, err := e.product(productType)
	if err != nil {
		return checked{}, err
	}
	if pur.PaymentErr != nil {
		return checked{}, pur.PaymentErr
	}
	f := pur.Payment
	errs := validate.Errors{}
	var order Order
	qerr := pur.ProductErr
	if qerr == nil {
		order, qerr = prod.Quote(ctx, memberID, string(lang), pur.Product)
	}
	if qerr != nil {
		ae := apperr.As(qerr)
		if ae == nil || ae.Code != apperr.Invalid || len(ae.Fields) == 0 {
			return checked{}, qerr
		}
		for k, v := range ae.Fields {
			errs[k] = v
		}
	}
	c := checked{product: prod, order: order, fields: f}
	if needRequest && errs.Required("requestId", f.RequestID) {
		errs.Check("requestId", len(f.RequestID) <= 64 && validate.IsAlnum(strings.ReplaceAll(f.RequestID, "-", "")),
			"payment.request_id.format")
	}
	if errs.Required("paymentMethod", f.PaymentMethod) {
		avail := AvailabilityFor(order.Currency)
		switch f.PaymentMethod {
		case MethodCreditCard:
			if errs.Required("creditCardToken", f.CreditCardToken) && qerr == nil {
				if err := e.checkCard(ctx, memberID, order.Currency, &c, errs); err != nil {
					return checked{}, err
				}
			}
		case MethodOtherPayment:
			if errs.Required("otherPaymentType", f.OtherPaymentType) {
				errs.Check("otherPaymentType", avail.otherAllowed(f.OtherPaymentType), "payment.other.unavailable")
			}
		case MethodConvenienceStore:
			errs.Check("paymentMethod", avail.ConvenienceStore || qerr != nil, "payment.method.unavailable")
		default:
			errs.Add("paymentMethod", "payment.method.unknown")
		}
	}
	if !errs.Empty() {
		return checked{}, apperr.FromFields(errs)
	}
	if c.order.Amount <= 0 || !ValidCurrency(c.order.Currency) {
		return checked{}, fmt.Errorf("payment: product %s quoted %d %q", productType, c.order.Amount, c.order.Currency)
	}
	if len(c.order.Details) == 0 {
		c.order.Details = json.RawMessage(`{}`)
	}
	return c, nil
}

// checkCard resolves the card of a purchase: a saved card of the member's,
// or a fresh token from the browser (which may be saved after payment).
// Another member's saved card is a 404.
func (e *Engine) checkCard(ctx context.Context, memberID, currency string, c *checked, errs validate.Errors) error {
	gw := c.fields.CreditCardGateway
	if gw == "" {
		gw = e.gw.Name()
	}
	if gw != e.gw.Name() {
		errs.Add("creditCardToken", "payment.card.gateway_unknown")
		return nil
	}
	now := e.now()
	saved, err := e.store.Card(ctx, gw, c.fields.CreditCardToken)
	switch {
	case err == nil && saved.MemberID != memberID:
		return apperr.ErrNotFound
	case err == nil:
		c.card = ProcessCard{Gateway: gw, Token: saved.Token, Brand: saved.Brand, Last4: saved.Last4,
			ExpirationDate: saved.ExpirationDate, HolderName: saved.HolderName}
		c.fields.SaveCard = false
		if !ScopeServes(saved.Currency, currency) {
			errs.Add("creditCardToken", "payment.card.currency")
			return nil
		}
	case errors.Is(err, ErrNotFound):
		tok, err := e.gw.Token(ctx, c.fields.CreditCardToken)
		if errors.Is(err, ErrUnknownToken) {
			errs.Add("creditCardToken", "payment.card.token_unknown")
			return nil
		}
		if err != nil {
			return fmt.Errorf("payment: card token: %w", err)
		}
		c.card = ProcessCard{Gateway: gw, Token: tok.Token, Brand: tok.Brand, Last4: tok.Last4,
			ExpirationDate: tok.ExpirationDate, HolderName: tok.HolderName}
		if c.card.Token == "" {
			c.card.Token = c.fields.CreditCardToken
		}
		c.scope = scopeFor(tok.Brand, currency)
		if c.fields.SaveCard {
			// a card the member has already saved for this scope is paid
			// with, not saved a second time
			saved, err := e.store.Cards(ctx, memberID)
			if err != nil {
				return fmt.Errorf("payment: card: %w", err)
			}
			if _, dup := SameCard(saved, SavedCard{Gateway: gw, Token: c.card.Token, Brand: c.card.Brand, Last4: c.card.Last4,
				ExpirationDate: c.card.ExpirationDate, Currency: c.scope}); dup {
				c.fields.SaveCard = false
			}
		}
	default:
		return fmt.Errorf("payment: card: %w", err)
	}
	if !CardValid(c.card.ExpirationDate, now) {
		errs.Add("creditCardToken", "payment.card.expired")
		return nil
	}
	errs.Check("creditCardToken", AvailabilityFor(currency).brandAllowed(c.card.Brand), "payment.card.brand")
	return nil
}

// Validate checks a purchase body and prices it (…/buy/validate).
func (e *Engine) Validate(ctx context.Context, memberID string, lang i18n.Lang, productType string, pur Purchase) (Quote, error) {
	c, err := e.check(ctx, memberID, lang, productType, pur, false)
	if err != nil {
		return Quote{}, err
	}
	return Quote{ProductType: productType, Amount: c.order.Amount, Currency: c.order.Currency,
		Description: c.order.Description, Details: c.order.Details}, nil
}

// Errors the member meets.
var (
	// ErrPending: a paid-for process is still open (about 30 minutes).
	ErrPending = &apperr.Error{Code: apperr.Conflict, MsgKey: "payment.error.pending", ErrorKey: "payment_pending"}
	// ErrMultipleWindows: the order was replaced by one from another window.
	ErrMultipleWindows = &apperr.Error{Code: apperr.Conflict, MsgKey: "payment.error.multiple_windows", ErrorKey: "payment_multiple_windows"}
	// ErrRestart: the order is too old or changed; restart the purchase.
	ErrRestart = &apperr.Error{Code: apperr.Conflict, MsgKey: "payment.error.processing", ErrorKey: "payment_processing_error"}
)

// bodyHash fingerprints a purchase by its canonical body (without
// requestId).
func bodyHash(productType string, canonical []byte) string {
	h := sha256.Sum256(append([]byte(productType+"\n"), canonical...))
	return hex.EncodeToString(h[:])
}

// Buy records the tentative order (prepared), keyed by the member's
// requestId: the same requestId with the same body answers the same
// process. A pending process of the member blocks (ErrPending); a prepared
// one from another window is replaced.
func (e *Engine) Buy(ctx context.Context, memberID string, lang i18n.Lang, productType string, pur Purchase) (View, error) {
	c, err := e.check(ctx, memberID, lang, productType, pur, true)
	if err != nil {
		return View{}, err
	}
	hash := bodyHash(productType, pur.Canonical)
	if p, err := e.store.ProcessByRequest(ctx, memberID, c.fields.RequestID); err == nil {
		if p.RequestHash != hash {
			return View{}, ErrRestart
		}
		return p.view(), nil
	} else if !errors.Is(err, ErrNotFound) {
		return View{}, fmt.Errorf("payment: buy: %w", err)
	}
	// No look for the member's open process first: the database keeps one
	// per member, so CreateProcess itself refuses a new order while one is
	// pending (and replaces a prepared one), one read less a purchase.
	now := e.now()
	p := Process{
		ID: randomID() + randomID(), MemberID: memberID, RequestID: c.fields.RequestID, RequestHash: hash,
		ProductType: productType, Status: Prepared, Lang: string(lang), Amount: c.order.Amount,
		Currency: c.order.Currency, Description: c.order.Description, Details: c.order.Details,
		PaymentMethod: c.fields.PaymentMethod, Card: c.card, SaveCard: c.fields.SaveCard && c.card.Token != "",
		SaveCardCurrency: c.scope, ExpiresAt: now.Add(e.cfg.OpenFor), NextCheckAt: now.Add(e.cfg.OpenFor),
		CreatedAt: now, UpdatedAt: now,
	}
	if c.fields.PaymentMethod == MethodOtherPayment {
		p.OtherPaymentType = c.fields.OtherPaymentType
	}
	if err := e.store.CreateProcess(ctx, p); err != nil {
		if errors.Is(err, ErrConflict) {
			// the same requestId at the same instant (a double click), or
			// the member has a pending process
			if q, err := e.store.ProcessByRequest(ctx, memberID, c.fields.RequestID); err == nil && q.RequestHash == hash {
				return q.view(), nil
			}
			return View{}, ErrPending
		}
		return View{}, fmt.Errorf("payment: buy: %w", err)
	}
	return p.view(), nil
}

// load returns the member's process of productType ("" for any), 404 when
// it is missing or another member's.
func (e *Engine) load(ctx context.Context, memberID, productType, id string) (Process, error) {
	if len(id) > 64 {
		return Process{}, apperr.ErrNotFound
	}
	p, err := e.store.Process(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return Process{}, apperr.ErrNotFound
	}
	if err != nil {
		return Process{}, fmt.Errorf("payment: load: %w", err)
	}
	if p.MemberID != memberID || (productType != "" && p.ProductType != productType) {
		return Process{}, apperr.ErrNotFound
	}
	return p, nil
}

// Continue starts the payment of a prepared process: prepared → pending
// by a conditional update (one caller wins a double click or a second
// tab), then the gateway calls with the process's idempotency keys. A
// repeat answers the process as it stands.
func (e *Engine) Continue(ctx context.Context, memberID, productType, id string) (View, error) {
	if _, err := e.product(productType); err != nil {
		return View{}, err
	}
	p, err := e.load(ctx, memberID, productType, id)
	if err != nil {
		return View{}, err
	}
	now := e.now()
	switch {
	case p.Status == Expired && p.FailureCode == FailSuperseded:
		return View{}, ErrMultipleWindows
	case p.Status == Expired:
		return View{}, ErrRestart
	case p.Status != Prepared:
		return p.view(), nil
	case !now.Before(p.ExpiresAt):
		_, err := e.store.Move(ctx, p.ID, Prepared, Expired, Changes{}, now)
		e.storeFailed(ctx, "expire prepared", p.ID, err)
		return View{}, ErrRestart
	}
	owner := "r" + randomID()
	expires := time.UnixMilli(now.Add(e.cfg.OpenFor).UnixMilli()) // as stored: milliseconds
	check := now.Add(e.cfg.Lease)
	moved, err := e.store.Move(ctx, p.ID, Prepared, Pending, Changes{
		LeaseOwner: owner, LeaseUntil: now.Add(e.cfg.Lease), ExpiresAt: &expires, NextCheckAt: &check,
	}, now)
	if err != nil {
		return View{}, fmt.Errorf("payment: continue: %w", err)
	}
	if !moved {
		return e.reload(ctx, p.ID)
	}
	p.Status, p.ExpiresAt = Pending, expires
	if p = e.drive(ctx, p, true); p.Status == Settled {
		// settled: p is the row as the settlement wrote it (or as read
		// back after another caller's), so there is nothing to read again
		return p.view(), nil
	}
	return e.reload(ctx, p.ID)
}

func (e *Engine) reload(ctx context.Context, id string) (View, error) {
	p, err := e.store.Process(ctx, id)
	if err != nil {
		return View{}, fmt.Errorf("payment: reload: %w", err)
	}
	return p.view(), nil
}

// drive advances a pending process the caller holds the lease of as far
// as the gateway lets it, then releases the lease with the next check
// time. Errors leave the process pending for the background work. It
// returns the process as far as this caller knows it: only a settled one
// is known in full.
func (e *Engine) drive(ctx context.Context, p Process, fresh bool) Process {
	next := e.now().Add(e.cfg.Poll)
	if err := e.advance(ctx, &p, fresh); err != nil {
		e.log.Warn("payment: step failed, will reconcile", "process", p.ID, "err", err)
		next = e.now().Add(e.cfg.Retry)
	}
	if p.Status == Settled && p.LeaseUntil.UnixMilli() == 0 {
		// the settlement released the lease in its own statement (a
		// process that another caller settled while this one held it
		// still holds this one's lease, and is released below)
		return p
	}
	if p.Status == Pending && !p.ExpiresAt.After(next) {
		next = p.ExpiresAt
	}
	if err := e.store.Update(ctx, p.ID, Changes{ReleaseLease: true, NextCheckAt: &next}, e.now()); err != nil {
		e.log.Warn("payment: release lease", "process", p.ID, "err", err)
	}
	return p
}

// advance makes sure the gateway payment exists (created with the
// process's create key, or found by reference when the answer was lost)
// and applies its state. fresh is a process that has just moved to
// pending: no payment can exist for it yet, so there is nothing to look up.
func (e *Engine) advance(ctx context.Context, p *Process, fresh bool) error {
	var (
		gp  GatewayPayment
		err error
	)
	if p.GatewayPaymentID == "" {
		var found []GatewayPayment
		if !fresh {
			var lookErr error
			if found, lookErr = e.gw.PaymentsByReference(ctx, p.ID); lookErr != nil {
				// creating with the process's create key is safe either way:
				// the gateway answers a repeated key with the same payment
				e.log.Warn("payment: look-up by reference failed, creating", "process", p.ID, "err", lookErr)
			}
		}
		if len(found) > 0 {
			gp = found[0]
		} else {
			gp, err = e.gw.CreatePayment(ctx, idemKey(p.ID, "create"), e.createRequest(p))
			if errors.Is(err, ErrGatewayRefused) {
				return e.fail(ctx, p, "gateway_refused")
			}
			if err != nil {
				return err
			}
		}
		if err := e.store.Update(ctx, p.ID, Changes{GatewayPaymentID: &gp.ID, GatewayStatus: &gp.Status}, e.now()); err != nil {
			return err
		}
		p.GatewayPaymentID = gp.ID
	} else {
		gp, err = e.gw.Payment(ctx, p.GatewayPaymentID)
		if err != nil {
			return err
		}
	}
	return e.apply(ctx, p, gp)
}

func (e *Engine) createRequest(p *Process) CreatePayment {
	method := "card"
	switch p.PaymentMethod {
	case MethodOtherPayment:
		method = p.OtherPaymentType
	case MethodConvenienceStore:
		method = gatewayKonbini
	}
	return CreatePayment{
		Amount: p.Amount, Currency: p.Currency, Method: method, Token: p.Card.Token,
		Description: p.Description, Reference: p.ID,
		ReturnURL: strings.TrimRight(e.cfg.ReturnBase, "/") + "/payment/" + p.ProductType + "/" + p.ID + "/result",
	}
}

// apply moves the process to follow the gateway payment gp: authorise a
// created payment, capture an authorised one, settle a captured one,
// record a customer step, fail or expire. A capture that arrives after the
// process expired or failed is refunded; its goods are never granted.
func (e *Engine) apply(ctx context.Context, p *Process, gp GatewayPayment) error {
	var err error
	for range 4 {
		if p.Status != Pending {
			if gp.Status == GWCaptured && (p.Status == Expired || p.Status == Failed) {
				return e.refundLate(ctx, p, gp)
			}
			return nil
		}
		switch gp.Status {
		case GWCreated:
			// capture in the same call when the customer has no step to do:
			// the goods are granted at once anyway
			if gp, err = e.gw.Authorize(ctx, idemKey(p.ID, "authorize"), gp.ID, true); err != nil {
				return err
			}
		case GWAuthorized:
			if gp, err = e.gw.Capture(ctx, idemKey(p.ID, "capture"), gp.ID); err != nil {
				return err
			}
		case GWRequiresAction, GWPending:
			return e.waitForCustomer(ctx, p, gp)
		case GWCaptured:
			if diffs := recordDiffs(p, gp); len(diffs) > 0 {
				// never settle on a payment that is not this process's
				// sale; the process stays pending (and expires, when a
				// captured payment is refunded) while an operator looks
				e.alert(ctx, p, "gateway", "", gp.ID, diffs)
				return nil
			}
			return e.settle(ctx, p, gp)
		case GWFailed:
			return e.fail(ctx, p, gp.FailureCode)
		case GWExpired:
			return e.expire(ctx, p)
		default:
			return nil
		}
	}
	return nil
}

// withLang adds the member's language to a gateway page's address
// (?lang=), so the challenge, QR and slip pages speak it.
func withLang(page, lang string) string {
	if lang == "" || page == "" {
		return page
	}
	sep := "?"
	if strings.Contains(page, "?") {
		sep = "&"
	}
	return page + sep + "lang=" + url.QueryEscape(lang)
}

// waitForCustomer records a customer step: the page to send the member
// to, the deadline the gateway set for the method (days for a slip,
// minutes for a QR wallet or a challenge: the process stays open until
// then, and the expiry work ends it then) and, for a slip, its numbers,
// mailed to the member by whichever caller records them first.
func (e *Engine) waitForCustomer(ctx context.Context, p *Process, gp GatewayPayment) error {
	url := ""
	if gp.NextAction != nil {
		url = withLang(gp.NextAction.URL, p.Lang)
	}
	c := Changes{GatewayStatus: &gp.Status, NextActionURL: &url}
	if gp.ExpiresAt != nil && gp.ExpiresAt.After(e.now()) && !gp.ExpiresAt.Equal(p.ExpiresAt) {
		at := gp.ExpiresAt.UTC()
		c.ExpiresAt = &at
		p.ExpiresAt = at
	}
	p.NextActionURL = url
	if err := e.store.Update(ctx, p.ID, c, e.now()); err != nil {
		return err
	}
	if gp.Slip == nil || len(p.Slip) > 0 {
		return nil
	}
	b, err := json.Marshal(gp.Slip)
	if err != nil {
		return fmt.Errorf("payment: slip: %w", err)
	}
	first, err := e.store.SetSlip(ctx, p.ID, b, e.now())
	if err != nil {
		return err
	}
	p.Slip = b
	if first {
		e.mailSlip(ctx, *p, *gp.Slip)
	}
	return nil
}

func (e *Engine) fail(ctx context.Context, p *Process, code string) error {
	if code == "" {
		code = "failed"
	}
	empty := ""
	ok, err := e.store.Move(ctx, p.ID, Pending, Failed, Changes{FailureCode: &code, NextActionURL: &empty}, e.now())
	if err != nil {
		return err
	}
	if ok {
		p.Status = Failed
	}
	return nil
}

func (e *Engine) expire(ctx context.Context, p *Process) error {
	ok, err := e.store.Move(ctx, p.ID, p.Status, Expired, Changes{}, e.now())
	if err != nil {
		return err
	}
	if ok {
		p.Status = Expired
		return nil
	}
	q, err := e.store.Process(ctx, p.ID)
	if err == nil {
		*p = q
	}
	return err
}

// settle grants the goods in the transaction that records settlement.
func (e *Engine) settle(ctx context.Context, p *Process, gp GatewayPayment) error {
	prod, err := e.product(p.ProductType)
	if err != nil {
		return fmt.Errorf("payment: settle %s: product %s not registered", p.ID, p.ProductType)
	}
	_, notifies := prod.(Notifier)
	var card *SavedCard
	if p.SaveCard && p.Card.Token != "" {
		card = &SavedCard{MemberID: p.MemberID, Gateway: p.Card.Gateway, Token: p.Card.Token, Brand: p.Card.Brand,
			Last4: p.Card.Last4, ExpirationDate: p.Card.ExpirationDate, HolderName: p.Card.HolderName,
			Currency: p.SaveCardCurrency, CreatedAt: e.now()}
	}
	now := e.now()
	var granted Granted
	g := e.grantOf(p, now)
	if pr, is := prod.(Preparer); is {
		if g.Prepared, err = pr.Prepare(ctx, g); err != nil {
			return fmt.Errorf("payment: settle %s: prepare: %w", p.ID, err)
		}
	}
	if p.GatewayPaymentID == "" && gp.ID != "" {
		// the refund of a refused grant needs the payment's id
		if err := e.store.Update(ctx, p.ID, Changes{GatewayPaymentID: &gp.ID}, now); err != nil {
			return err
		}
		p.GatewayPaymentID = gp.ID
	}
	out, err := e.store.Settle(ctx, p.ID, now, notifies, card, func(tx Tx) (Granted, error) {
		var err error
		granted, err = prod.Grant(ctx, tx, g)
		return granted, err
	})
	if err != nil {
		return fmt.Errorf("payment: settle %s: %w", p.ID, err)
	}
	if out.Refused != "" {
		// Captured, but the goods may not be granted (an erased member, a
		// pass held already): the process failed in the settlement's
		// transaction, which also recorded the refund; make it now. A crash
		// before it leaves the recorded refund to the worker.
		p.Status, p.FailureCode = Failed, out.Refused
		e.log.Warn("payment: capture refused, refunding", "process", p.ID, "reason", out.Refused)
		return e.refundRecorded(ctx, p)
	}
	if !out.Settled {
		q, err := e.store.Process(ctx, p.ID)
		if err != nil {
			return err
		}
		*p = q
		if p.Status == Pending && !now.Before(p.ExpiresAt) {
			// captured after the process's time ran out: expire, then refund
			if err := e.expire(ctx, p); err != nil {
				return err
			}
		}
		if p.Status == Expired || p.Status == Failed {
			return e.refundLate(ctx, p, gp)
		}
		return nil
	}
	// as the row now stands: settled, with its goods, and the lease
	// released
	settledAt := time.UnixMilli(now.UnixMilli()) // as stored: milliseconds
	p.Status, p.SettledAt, p.LeaseUntil, p.UpdatedAt = Settled, &settledAt, time.UnixMilli(0), settledAt
	p.Goods, p.Secret, p.NextActionURL, p.GatewayStatus, p.Notified = granted.Goods, granted.Secret, "", GWCaptured, !notifies
	if n, is := prod.(Notifier); is {
		e.notify(ctx, n, g, granted)
	}
	return nil
}

func (e *Engine) grantOf(p *Process, at time.Time) Grant {
	return Grant{ProcessID: p.ID, MemberID: p.MemberID, Lang: p.Lang, SettledAt: at,
		PaymentMethod: p.PaymentMethod, OtherPaymentType: p.OtherPaymentType,
		Order: Order{Amount: p.Amount, Currency: p.Currency, Description: p.Description, Details: p.Details}}
}

func (e *Engine) notify(ctx context.Context, n Notifier, g Grant, granted Granted) {
	if err := n.Notify(ctx, g, granted); err != nil {
		e.log.Warn("payment: notify", "process", g.ProcessID, "err", err)
	}
	if err := e.store.MarkNotified(ctx, g.ProcessID); err != nil {
		e.log.Warn("payment: mark notified", "process", g.ProcessID, "err", err)
	}
}

// refundLate gives back a payment captured for a process that expired or
// failed first: the goods were never granted.
func (e *Engine) refundLate(ctx context.Context, p *Process, gp GatewayPayment) error {
	if IsRefusal(p.FailureCode) {
		// a refused settlement recorded its own refund of the whole
		// amount: make that one, never a second under another key
		return e.refundRecorded(ctx, p)
	}
	amount := gp.Amount - gp.RefundedAmount
	if amount <= 0 {
		return nil
	}
	return e.refund(ctx, p, "late", amount)
}

// refundRecorded makes every refund recorded for p and not done yet (the
// refusal of a settlement, or one a crash interrupted). Each goes through
// the gateway under its own idempotency key, so a repeat moves no money.
func (e *Engine) refundRecorded(ctx context.Context, p *Process) error {
	open, err := e.store.OpenRefunds(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, r := range open {
		if err := e.refund(ctx, p, r.Reason, r.Amount); err != nil {
			return fmt.Errorf("payment: refund %s %s: %w", p.ID, r.Reason, err)
		}
	}
	return nil
}

func (e *Engine) refund(ctx context.Context, p *Process, reason string, amount int64) error {
	now := e.now()
	recorded, done, err := e.store.AddRefund(ctx, p.ID, reason, amount, now)
	if err != nil {
		return err
	}
	if done {
		return nil
	}
	if _, err := e.gw.Refund(ctx, idemKey(p.ID, "refund_"+reason), p.GatewayPaymentID, recorded); err != nil {
		return err
	}
	return e.store.CompleteRefund(ctx, p.ID, reason, e.now())
}

// Refund gives back amount of a member's settled process through the
// gateway (the coupon pass refund). The same reason twice refunds once.
func (e *Engine) Refund(ctx context.Context, memberID, processID string, amount int64, reason string) error {
	p, err := e.load(ctx, memberID, "", processID)
	if err != nil {
		return err
	}
	if p.Status != Settled && p.Status != Refunded {
		return apperr.New(apperr.Conflict, "payment.error.not_refundable")
	}
	if reason == "" || len(reason) > 40 || amount <= 0 || amount > p.Amount-p.RefundedAmount {
		return apperr.New(apperr.Conflict, "payment.error.not_refundable")
	}
	if err := e.refund(ctx, &p, reason, amount); err != nil {
		return fmt.Errorf("payment: refund %s: %w", p.ID, err)
	}
	return nil
}

// Status answers a member's process. A pending process whose check is due
// is reconciled with the gateway first (the member's return redirect may
// arrive before the webhook). The secret of the goods is shown once.
func (e *Engine) Status(ctx context.Context, memberID, productType, id string) (View, error) {
	if productType != "" {
		if _, err := e.product(productType); err != nil {
			return View{}, err
		}
	}
	p, err := e.load(ctx, memberID, productType, id)
	if err != nil {
		return View{}, err
	}
	now := e.now()
	if p.Status == Pending && !now.Before(p.NextCheckAt) {
		if ok, err := e.store.ClaimOne(ctx, p.ID, e.owner, now, now.Add(e.cfg.Lease)); err == nil && ok {
			e.work(ctx, p)
			if p, err = e.store.Process(ctx, id); err != nil {
				return View{}, fmt.Errorf("payment: status: %w", err)
			}
		}
	}
	v := p.view()
	if (p.Status == Settled || p.Status == Refunded) && len(p.Secret) > 0 {
		taken, err := e.store.TakeSecret(ctx, p.ID, p.Secret, e.now())
		if err != nil {
			return View{}, fmt.Errorf("payment: status: %w", err)
		}
		if taken {
			v.Secret = p.Secret
		}
	}
	return v, nil
}

// Pending is the answer of GET /api/cc/pending: the member's open process.
type PendingView struct {
	Pending          bool       `json:"pending"`
	PaymentProcessID string     `json:"paymentProcessId,omitempty"`
	ProductType      string     `json:"productType,omitempty"`
	Status           Status     `json:"status,omitempty"`
	ExpiresAt        *time.Time `json:"expiresAt,omitempty"`
}

// Pending reports the member's pending payment, which blocks a new
// purchase until it ends (about 30 minutes at most).
func (e *Engine) Pending(ctx context.Context, memberID string) (PendingView, error) {
	p, err := e.store.OpenProcess(ctx, memberID)
	if errors.Is(err, ErrNotFound) || (err == nil && p.Status != Pending) {
		return PendingView{}, nil
	}
	if err != nil {
		return PendingView{}, fmt.Errorf("payment: pending: %w", err)
	}
	t := p.ExpiresAt.UTC()
	return PendingView{Pending: true, PaymentProcessID: p.ID, ProductType: p.ProductType, Status: p.Status, ExpiresAt: &t}, nil
}

// Availability answers GET /api/payment_availability.
func (e *Engine) Availability(currency, productType string) (Availability, error) {
	currency = NormalizeCurrency(currency)
	errs := validate.Errors{}
	if errs.Required("currency", currency) {
		errs.Check("currency", ValidCurrency(currency), "payment.currency.unknown")
	}
	if !errs.Empty() {
		return Availability{}, apperr.FromFields(errs)
	}
	if productType != "" {
		if _, err := e.product(productType); err != nil {
			return Availability{}, err
		}
	}
	return AvailabilityFor(currency), nil
}
