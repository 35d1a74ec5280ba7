package payment

import (
	"context"
	"time"
)

// Run does the background work until ctx ends: every tick it leases the
// processes whose check is due (so two instances never work on the same
// one), reconciles them with the gateway, expires unpaid ones and sends
// the notifications a crash left unsent.
func (e *Engine) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	// the reconciliation job is tried once a minute (its lease in the
	// database says whether it is due and no other instance runs it)
	r := time.NewTicker(time.Minute)
	defer r.Stop()
	for {
		if _, err := e.RunOnce(ctx); err != nil && ctx.Err() == nil {
			e.log.Warn("payment: background work", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.C:
			if _, _, err := e.RunReconcile(ctx); err != nil && ctx.Err() == nil {
				e.log.Warn("payment: reconciliation", "err", err)
			}
		}
	}
}

// ReleaseLeases frees the leases this engine's background work holds, once
// it has stopped (graceful shutdown): another instance picks the work up
// at once instead of after the lease lapses.
func (e *Engine) ReleaseLeases(ctx context.Context) (int64, error) {
	return e.store.ReleaseLeases(ctx, e.owner)
}

// RunOnce does one round of background work and returns how many
// processes it handled.
func (e *Engine) RunOnce(ctx context.Context) (int, error) {
	n := 0
	e.returnLeases(ctx)
	e.forgetSecrets(ctx)
	for {
		now := e.now()
		ps, err := e.store.ClaimDue(ctx, e.owner, now, now.Add(e.cfg.Lease), 32)
		if err != nil {
			return n, err
		}
		// refunds recorded by the engine and not made (a crash after the
		// record): a minute's grace for the request that is making them
		rs, err := e.store.ClaimRefunds(ctx, e.owner, now, now.Add(e.cfg.Lease), now.Add(-time.Minute), 32)
		if err != nil {
			return n, err
		}
		for _, p := range rs {
			if err := e.refundRecorded(ctx, &p); err != nil {
				// the lease runs out and the next round tries again
				e.log.Warn("payment: recorded refund", "process", p.ID, "err", err)
				continue
			}
			_ = e.store.Update(ctx, p.ID, Changes{ReleaseLease: true}, e.now())
		}
		n += len(rs)
		for _, p := range ps {
			e.work(ctx, p)
		}
		n += len(ps)
		if len(ps) < 32 || ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
}

// forgetSecrets erases the secrets (voucher PINs) whose mail the outbox
// has held for SecretShownFor, and those of settlements older than
// SecretRetention, whether or not the member's page ever showed them.
func (e *Engine) forgetSecrets(ctx context.Context) {
	now := e.now()
	n, err := e.store.ForgetSecrets(ctx, now.Add(-e.cfg.SecretShownFor), now.Add(-e.cfg.SecretRetention))
	if err != nil && ctx.Err() == nil {
		e.log.Warn("payment: forget secrets", "err", err)
	}
	if n > 0 {
		e.log.Info("payment: secrets erased (mailed, or past the retention)", "count", n)
	}
}

// work handles one leased process and releases it.
func (e *Engine) work(ctx context.Context, p Process) {
	now := e.now()
	switch p.Status {
	case Prepared:
		if !now.Before(p.ExpiresAt) {
			_, err := e.store.Move(ctx, p.ID, Prepared, Expired, Changes{ReleaseLease: true}, now)
			e.storeFailed(ctx, "expire prepared", p.ID, err)
			return
		}
		next := p.ExpiresAt
		e.storeFailed(ctx, "release prepared", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true, NextCheckAt: &next}, now))
	case Pending:
		if !now.Before(p.ExpiresAt) {
			e.expireDue(ctx, p)
			return
		}
		e.drive(ctx, p, false)
	case Settled, Refunded:
		if !p.Notified {
			if prod, err := e.product(p.ProductType); err == nil {
				if n, ok := prod.(Notifier); ok {
					at := now
					if p.SettledAt != nil {
						at = *p.SettledAt
					}
					e.notify(ctx, n, e.grantOf(&p, at), Granted{Goods: p.Goods, Secret: p.Secret})
				} else {
					e.storeFailed(ctx, "mark notified", p.ID, e.store.MarkNotified(ctx, p.ID))
				}
			}
		}
		if p.RefundMailOwed {
			// a refund ended the goods; its mail was left unsent by a
			// crash, or the outbox could not store it then
			e.refundMail(ctx, p)
		}
		e.storeFailed(ctx, "release settled", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true}, now))
	case Failed, Expired:
		if !p.Notified {
			// a slip that ended unpaid, its mail left unsent by a crash
			e.mailSlipEnded(ctx, p)
		}
		e.storeFailed(ctx, "release ended", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true}, now))
	default:
		e.storeFailed(ctx, "release", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true}, now))
	}
}

// expireDue ends a pending process whose time ran out. The gateway is
// asked first: a payment captured meanwhile is refunded, never granted.
func (e *Engine) expireDue(ctx context.Context, p Process) {
	var gp GatewayPayment
	var err error
	if p.GatewayPaymentID != "" {
		gp, err = e.gw.Payment(ctx, p.GatewayPaymentID)
	} else {
		var found []GatewayPayment
		found, err = e.gw.PaymentsByReference(ctx, p.ID)
		if err == nil && len(found) > 0 {
			gp = found[0]
			e.storeFailed(ctx, "record gateway payment", p.ID, e.store.Update(ctx, p.ID, Changes{GatewayPaymentID: &gp.ID}, e.now()))
			p.GatewayPaymentID = gp.ID
		}
	}
	next := e.now().Add(e.cfg.Retry)
	if err != nil {
		e.log.Warn("payment: expire: gateway status", "process", p.ID, "err", err)
		e.storeFailed(ctx, "release for retry", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true, NextCheckAt: &next}, e.now()))
		return
	}
	if err := e.expire(ctx, &p); err != nil {
		e.log.Warn("payment: expire", "process", p.ID, "err", err)
	}
	if gp.Status == GWCaptured && p.Status == Expired {
		if err := e.refundLate(ctx, &p, gp); err != nil {
			e.log.Warn("payment: late refund", "process", p.ID, "err", err)
			e.storeFailed(ctx, "release for retry", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true, NextCheckAt: &next}, e.now()))
			return
		}
	}
	e.storeFailed(ctx, "release expired", p.ID, e.store.Update(ctx, p.ID, Changes{ReleaseLease: true}, e.now()))
}

// storeFailed logs a store call of the background work that failed (nil:
// nothing to log). The process keeps its lease until the lease runs out,
// and the next round takes it up again, so nothing is lost, but a store
// that fails is a fault and is logged at ERROR; while the work is being
// stopped (ctx ended) the failure is expected and logged at INFO.
func (e *Engine) storeFailed(ctx context.Context, op, processID string, err error) {
	if err == nil {
		return
	}
	if ctx.Err() != nil {
		e.log.Info("payment: store call ended by shutdown", "op", op, "process", processID, "err", err)
		return
	}
	e.log.Error("payment: store call failed", "op", op, "process", processID, "err", err)
}
