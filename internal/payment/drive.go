package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"members/internal/apperr"
)

// load returns the member's process of productType ("" for any), 404 when
// the type is not registered or the process is missing or another
// member's.
func (e *Engine) load(ctx context.Context, memberID, productType, id string) (Process, error) {
	if len(id) > 64 {
		return Process{}, apperr.ErrNotFound
	}
	if productType != "" {
		if _, err := e.product(productType); err != nil {
			return Process{}, err
		}
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
	if err := e.open(ctx, p.ProductType); err != nil {
		return View{}, err
	}
	owner := "r" + randomID()
	expires := time.UnixMilli(now.Add(e.cfg.OpenFor).UnixMilli()) // as stored: milliseconds
	check := now.Add(e.cfg.Lease)
	moved, err := e.store.Move(ctx, p.ID, Prepared, Pending, Changes{
		LeaseOwner: owner, LeaseUntil: now.Add(e.cfg.Lease), ExpiresAt: &expires, NextCheckAt: &check,
		// the purchase block runs 30 minutes from here, however far the
		// gateway then moves the deadline (a slip's: days)
		BlockUntil: &expires,
	}, now)
	if err != nil {
		return View{}, fmt.Errorf("payment: continue: %w", err)
	}
	if !moved {
		return e.reload(ctx, p.ID)
	}
	p.Status, p.ExpiresAt, p.BlockUntil, p.LeaseUntil = Pending, expires, expires, time.UnixMilli(now.Add(e.cfg.Lease).UnixMilli())
	if p = e.drive(ctx, p, true); p.Status == Settled {
		// settled: p is the row as the settlement wrote it (or as read
		// back after another caller's), so there is nothing to read again
		return p.view(), nil
	}
	return e.reload(ctx, p.ID)
}

// open asks a product that closes for a while (Opener) whether a
// payment may start now.
func (e *Engine) open(ctx context.Context, productType string) error {
	prod, err := e.product(productType)
	if err != nil {
		return err
	}
	if o, is := prod.(Opener); is {
		if err := o.Open(ctx); err != nil {
			return fmt.Errorf("payment: continue: %w", err)
		}
	}
	return nil
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
		// the database is gone for a moment: the background work gives
		// the lease back once it answers again (leases.go)
		e.log.Warn("payment: release lease", "process", p.ID, "err", err)
		e.leaseNotReturned(p.ID, p.LeaseUntil)
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
		Description: p.Description, Reference: p.ID, MemberID: p.MemberID, SaveCard: p.SaveCard,
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
			if (p.Status == Settled || p.Status == Refunded) && (gp.Status == GWRefunded || gp.Status == GWCaptured) && gp.RefundedAmount > p.RefundedAmount {
				// the gateway refunded more than the process records (a
				// partial refund leaves a captured payment): a refund whose
				// answer was lost
				return e.refundsConfirmed(ctx, p, gp)
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
	mail := code == FailCanceled && len(p.Slip) > 0
	ok, err := e.store.Move(ctx, p.ID, Pending, Failed, Changes{FailureCode: &code, NextActionURL: &empty, Notify: mail}, e.now())
	if err != nil {
		return err
	}
	if ok {
		p.Status, p.FailureCode = Failed, code
		if mail {
			e.mailSlipEnded(ctx, *p)
		}
	}
	return nil
}

func (e *Engine) expire(ctx context.Context, p *Process) error {
	mail := p.Status == Pending && len(p.Slip) > 0
	ok, err := e.store.Move(ctx, p.ID, p.Status, Expired, Changes{Notify: mail}, e.now())
	if err != nil {
		return err
	}
	if ok {
		p.Status = Expired
		if mail {
			e.mailSlipEnded(ctx, *p)
		}
		return nil
	}
	q, err := e.store.Process(ctx, p.ID)
	if err == nil {
		*p = q
	}
	return err
}
