package payment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"members/internal/apperr"
	"members/internal/validate"
)

// Status answers a member's process. A pending process whose check is due
// is reconciled with the gateway first (the member's return redirect may
// arrive before the webhook). The secret of the goods is shown once.
func (e *Engine) Status(ctx context.Context, memberID, productType, id string) (View, error) {
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
	if p.Status == Expired && p.FailureCode == FailSuperseded {
		// replaced by the member's next order (one open order a member):
		// the losing window's page says so and links to it
		if q, err := e.store.NextProcess(ctx, p); err == nil {
			v.ReplacedBy = &Replacement{PaymentProcessID: q.ID, ProductType: q.ProductType}
		} else if !errors.Is(err, ErrNotFound) {
			return View{}, fmt.Errorf("payment: status: %w", err)
		}
	}
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

// Pending reports the member's pending payment that blocks a new purchase
// now: about 30 minutes from its continue. A slip left for later stays
// payable after that (PendingPayments lists it) and blocks no more.
func (e *Engine) Pending(ctx context.Context, memberID string) (PendingView, error) {
	p, err := e.store.BlockingProcess(ctx, memberID, e.now())
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
	return e.availability(currency), nil
}
