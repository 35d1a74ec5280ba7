package payment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"members/internal/apperr"
	"members/internal/mail"
)

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
	err := n.Notify(ctx, g, granted)
	if err != nil {
		e.log.Warn("payment: notify", "process", g.ProcessID, "err", err)
	}
	if len(granted.Secret) > 0 && (err == nil || errors.Is(err, mail.ErrNotSent)) {
		// the outbox holds the mail and its secret (sent, or waiting for
		// SMTP): the process's copy goes once the page had its moment
		if err := e.store.SecretMailed(ctx, g.ProcessID, e.now()); err != nil {
			e.log.Warn("payment: secret mailed", "process", g.ProcessID, "err", err)
		}
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
		// recorded as made before, its goods ended with it
		return nil
	}
	if _, err := e.gw.Refund(ctx, idemKey(p.ID, "refund_"+reason), p.GatewayPaymentID, recorded); err != nil {
		return err
	}
	return e.completeRefund(ctx, p, reason, recorded)
}

// completeRefund records a refund of p as made, and in the same
// transaction the product ends the goods it pays back (RefundEnder); the
// member is then mailed about it when that transaction changed the goods.
func (e *Engine) completeRefund(ctx context.Context, p *Process, reason string, amount int64) error {
	owed, err := e.store.CompleteRefund(ctx, p.ID, reason, e.now(), e.endGoods(ctx, p, reason, amount))
	if err != nil {
		return fmt.Errorf("payment: refund %s %s: %w", p.ID, reason, err)
	}
	if owed {
		e.refundMail(ctx, *p)
	}
	return nil
}

// endGoods is the product's end of the goods of p that a refund pays
// back, for the transaction that records the refund (nil: nothing to
// end, as a late or refused payment granted nothing, or the product's
// goods do not end with a refund).
func (e *Engine) endGoods(ctx context.Context, p *Process, reason string, amount int64) EndGoodsFunc {
	prod, err := e.product(p.ProductType)
	if err != nil || reason == RefundLate || reason == RefundRefused {
		return nil
	}
	r, ok := prod.(RefundEnder)
	if !ok {
		return nil
	}
	done := RefundDone{ProcessID: p.ID, MemberID: p.MemberID, Lang: p.Lang, Reason: reason, Amount: amount, At: e.now()}
	return func(tx Tx) (bool, error) { return r.EndGoods(ctx, tx, done) }
}

// refundMail tells the member that a refund ended their goods (the
// product's Refunded), then records the mail sent. A mail the outbox
// could not store stays owed: the worker's sweep sends it a minute after
// the refund was recorded, as after a crash before it.
func (e *Engine) refundMail(ctx context.Context, p Process) {
	prod, err := e.product(p.ProductType)
	if r, ok := prod.(RefundEnder); ok && err == nil {
		if err := r.Refunded(ctx, RefundDone{ProcessID: p.ID, MemberID: p.MemberID, Lang: p.Lang, Amount: p.RefundedAmount, At: e.now()}); err != nil {
			e.log.Warn("payment: refund mail not stored, left to the worker's sweep", "process", p.ID, "err", err)
			return
		}
	}
	e.storeFailed(ctx, "refund mailed", p.ID, e.store.RefundMailed(ctx, p.ID))
}

// refundsConfirmed records the refunds the engine owes for p as made when
// the gateway's record of the payment holds them all (its refunded amount
// covers what the process records plus every owed refund): the record is
// the gateway's answer that the answers lost would have given. It makes
// no gateway call, so a request making one of them this instant is not
// repeated; each refund flips done once, with the end of its goods. A
// record that does not cover them leaves them to the background work,
// which makes each again under its own key; a refund the engine never
// asked for is reconciliation's to report.
func (e *Engine) refundsConfirmed(ctx context.Context, p *Process, gp GatewayPayment) error {
	open, err := e.store.OpenRefunds(ctx, p.ID)
	if err != nil {
		return err
	}
	owed := p.RefundedAmount
	for _, r := range open {
		owed += r.Amount
	}
	if len(open) == 0 || owed > gp.RefundedAmount {
		return nil
	}
	for _, r := range open {
		if err := e.completeRefund(ctx, p, r.Reason, r.Amount); err != nil {
			return err
		}
	}
	return nil
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
