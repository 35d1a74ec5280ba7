package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/validate"
)

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
func (e *Engine) check(ctx context.Context, memberID string, lang i18n.Lang, productType string, pur quoted, needRequest bool) (checked, error) {
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
		order, qerr = pur.quote(ctx, memberID, string(lang))
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
		avail := e.availability(order.Currency)
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
	errs.Check("creditCardToken", e.availability(currency).brandAllowed(c.card.Brand), "payment.card.brand")
	return nil
}

// Validate checks a purchase body and prices it (…/buy/validate).
func (e *Engine) validate(ctx context.Context, memberID string, lang i18n.Lang, productType string, pur quoted) (Quote, error) {
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
	// ErrPendingSameGoods: a payment of the member left for later (a slip
	// past its 30 minutes' block) buys the same goods (the same pass
	// period): it is paid or cancelled under Pending payments first; the
	// member may buy anything else.
	ErrPendingSameGoods = &apperr.Error{Code: apperr.Conflict, MsgKey: "payment.error.pending_same_goods", ErrorKey: "payment_pending_same_goods"}
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
// process. A pending process of the member blocks for about 30 minutes
// after its continue (ErrPending), whatever its own deadline (a slip's is
// days away); one past that blocks only a purchase of the same goods
// (Order.Once: ErrPendingSameGoods). A prepared one from another window is
// replaced.
func (e *Engine) buy(ctx context.Context, memberID string, lang i18n.Lang, productType string, pur quoted) (View, error) {
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
	// blocking process per member and one open process per member and
	// goods, so CreateProcess itself refuses a new order while one blocks
	// or buys the same goods (and replaces a prepared one), one read less
	// a purchase.
	now := e.now()
	p := Process{
		ID: randomID() + randomID(), MemberID: memberID, RequestID: c.fields.RequestID, RequestHash: hash,
		ProductType: productType, Status: Prepared, Lang: string(lang), Amount: c.order.Amount,
		Currency: c.order.Currency, Description: c.order.Description, Details: c.order.Details,
		PaymentMethod: c.fields.PaymentMethod, Card: c.card, SaveCard: c.fields.SaveCard && c.card.Token != "",
		SaveCardCurrency: c.scope, ExpiresAt: now.Add(e.cfg.OpenFor), NextCheckAt: now.Add(e.cfg.OpenFor),
		BlockUntil: now.Add(e.cfg.OpenFor), CreatedAt: now, UpdatedAt: now,
	}
	if c.order.Once != "" {
		p.ExclusiveKey = productType + ":" + c.order.Once
	}
	if c.fields.PaymentMethod == MethodOtherPayment {
		p.OtherPaymentType = c.fields.OtherPaymentType
	}
	if err := e.store.CreateProcess(ctx, p); err != nil {
		if errors.Is(err, ErrConflict) || errors.Is(err, ErrSameGoods) {
			// the same requestId at the same instant (a double click), or
			// the member has a blocking process, or one buying the same goods
			if q, qerr := e.store.ProcessByRequest(ctx, memberID, c.fields.RequestID); qerr == nil && q.RequestHash == hash {
				return q.view(), nil
			}
			if errors.Is(err, ErrSameGoods) {
				return View{}, ErrPendingSameGoods
			}
			return View{}, ErrPending
		}
		return View{}, fmt.Errorf("payment: buy: %w", err)
	}
	return p.view(), nil
}
