package payment

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A gateway's webhook is a hint, never proof: before a process is settled,
// failed or expired on an event, the engine reads the payment from the
// gateway and acts on that record alone. A record (or an event) that does
// not fit the process is a discrepancy: nothing is settled on it, it is
// logged at ERROR (an alert) and kept in payment_discrepancies. The
// reconciliation job compares the ended processes with the gateway's
// records after the fact (docs/payments.md).

// Discrepancy is a difference between the gateway's word and the process.
type Discrepancy struct {
	ID        string
	ProcessID string
	// Source is "webhook" (an event that differs from the gateway's
	// record) or "gateway" (a gateway record that differs from the process).
	Source           string
	EventID          string
	GatewayPaymentID string
	Detail           string
	At               time.Time
}

// Cursor is a position in the ended processes (updated_at, id).
type Cursor struct {
	UpdatedAt time.Time
	ID        string
}

// AuditStore keeps discrepancies and the reconciliation job's lease.
type AuditStore interface {
	RecordDiscrepancy(ctx context.Context, d Discrepancy) error
	// ClaimJob leases a job when its lease is free and its run is due.
	ClaimJob(ctx context.Context, name, owner string, now, until time.Time) (bool, error)
	// FinishJob releases the lease and sets the next run.
	FinishJob(ctx context.Context, name, owner string, now, next time.Time) error
	// Concluded lists settled, refunded, expired and failed processes
	// changed at or after since, after the cursor, up to limit.
	Concluded(ctx context.Context, since time.Time, after Cursor, limit int) ([]Process, error)
}

// recordDiffs lists how the gateway record gp differs from process p in
// what the process was sold for: amount, currency and reference (the
// process id), and the payment id once the process knows it.
func recordDiffs(p *Process, gp GatewayPayment) []string {
	var d []string
	if gp.Amount != p.Amount {
		d = append(d, fmt.Sprintf("amount %d at the gateway, %d in the process", gp.Amount, p.Amount))
	}
	if gp.Currency != p.Currency {
		d = append(d, fmt.Sprintf("currency %q at the gateway, %q in the process", gp.Currency, p.Currency))
	}
	if gp.Reference != p.ID {
		d = append(d, fmt.Sprintf("reference %q at the gateway", gp.Reference))
	}
	if p.GatewayPaymentID != "" && gp.ID != p.GatewayPaymentID {
		d = append(d, fmt.Sprintf("payment %q at the gateway, %q in the process", gp.ID, p.GatewayPaymentID))
	}
	return d
}

// eventDiffs lists how an event's claim differs from the gateway's record
// of the same payment. A status may have moved on since the event was sent
// (pending, then captured); an event that claims an end the record has not
// reached (captured while the record is pending) differs.
func eventDiffs(claim, rec GatewayPayment) []string {
	var d []string
	if claim.Amount != rec.Amount {
		d = append(d, fmt.Sprintf("event amount %d, gateway %d", claim.Amount, rec.Amount))
	}
	if claim.Currency != rec.Currency {
		d = append(d, fmt.Sprintf("event currency %q, gateway %q", claim.Currency, rec.Currency))
	}
	if claim.Reference != rec.Reference {
		d = append(d, fmt.Sprintf("event reference %q, gateway %q", claim.Reference, rec.Reference))
	}
	if !statusReached(claim.Status, rec.Status) {
		d = append(d, fmt.Sprintf("event status %q, gateway %q", claim.Status, rec.Status))
	}
	return d
}

// statusReached reports whether a payment whose record is in rec can have
// been in claimed when an event was sent: an ending status must be the
// record's or one it leads to (captured → refunded).
func statusReached(claimed, rec string) bool {
	switch claimed {
	case GWCaptured:
		return rec == GWCaptured || rec == GWRefunded
	case GWRefunded, GWFailed, GWExpired:
		return rec == claimed
	}
	return true
}

// alert logs a discrepancy at ERROR and records it.
func (e *Engine) alert(ctx context.Context, p *Process, source, eventID, gatewayPaymentID string, diffs []string) {
	d := Discrepancy{ID: randomID() + randomID(), ProcessID: p.ID, Source: source, EventID: eventID,
		GatewayPaymentID: gatewayPaymentID, Detail: strings.Join(diffs, "; "), At: e.now()}
	e.log.Error("payment: the gateway's word does not match the process; not acted on",
		"alert", "payment_discrepancy", "process", p.ID, "source", source, "event", eventID,
		"gatewayPayment", gatewayPaymentID, "detail", d.Detail)
	if err := e.audit.RecordDiscrepancy(ctx, d); err != nil {
		e.log.Error("payment: record discrepancy", "process", p.ID, "err", err)
	}
}

// Difference is one ended process whose gateway record disagrees.
type Difference struct {
	ProcessID        string
	Status           Status
	GatewayPaymentID string
	Problem          string
}

// Reconcile compares every settled, refunded, expired and failed process
// changed at or after since with the gateway's record of its payment and
// returns the differences (each also logged at ERROR). A settled process
// needs a captured payment of its amount, currency and reference with
// nothing refunded; a refunded one the refunded amount the process records;
// an expired or failed one no payment that keeps the member's money
// (captured and not refunded in full, or authorised).
func (e *Engine) Reconcile(ctx context.Context, since time.Time) ([]Difference, error) {
	var out []Difference
	var after Cursor
	for {
		ps, err := e.audit.Concluded(ctx, since, after, 200)
		if err != nil {
			return out, fmt.Errorf("payment: reconcile: %w", err)
		}
		for i := range ps {
			p := &ps[i]
			problems, err := e.reconcileOne(ctx, p)
			if err != nil {
				return out, fmt.Errorf("payment: reconcile %s: %w", p.ID, err)
			}
			for _, pr := range problems {
				e.log.Error("payment: reconciliation difference", "alert", "payment_reconciliation",
					"process", p.ID, "status", string(p.Status), "gatewayPayment", p.GatewayPaymentID, "problem", pr)
				out = append(out, Difference{ProcessID: p.ID, Status: p.Status, GatewayPaymentID: p.GatewayPaymentID, Problem: pr})
			}
		}
		if len(ps) < 200 || ctx.Err() != nil {
			return out, ctx.Err()
		}
		last := ps[len(ps)-1]
		after = Cursor{UpdatedAt: last.UpdatedAt, ID: last.ID}
	}
}

func (e *Engine) reconcileOne(ctx context.Context, p *Process) ([]string, error) {
	var recs []GatewayPayment
	if p.GatewayPaymentID != "" {
		gp, err := e.gw.Payment(ctx, p.GatewayPaymentID)
		if errors.Is(err, ErrUnknownToken) {
			return []string{"the gateway does not know payment " + p.GatewayPaymentID}, nil
		}
		if err != nil {
			return nil, err
		}
		recs = []GatewayPayment{gp}
	} else {
		found, err := e.gw.PaymentsByReference(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		recs = found
	}
	var problems []string
	switch p.Status {
	case Settled, Refunded:
		if len(recs) == 0 {
			return []string{"no payment at the gateway"}, nil
		}
		gp := recs[0]
		problems = append(problems, recordDiffs(p, gp)...)
		if gp.Status != GWCaptured && gp.Status != GWRefunded {
			problems = append(problems, fmt.Sprintf("%s at the gateway, %s here", gp.Status, p.Status))
		}
		if gp.RefundedAmount != p.RefundedAmount {
			problems = append(problems, fmt.Sprintf("refunded %d at the gateway, %d here", gp.RefundedAmount, p.RefundedAmount))
		}
	case Expired, Failed:
		// nothing granted: no money may stay taken (a capture refused for
		// an erased member or a held pass is refunded in full)
		for _, gp := range recs {
			switch {
			case gp.Status == GWAuthorized:
				problems = append(problems, fmt.Sprintf("payment %s authorised at the gateway for a%s %s process", gp.ID, an(p.Status), p.Status))
			case (gp.Status == GWCaptured || gp.Status == GWRefunded) && gp.RefundedAmount < gp.Amount:
				problems = append(problems, fmt.Sprintf("payment %s captured %d at the gateway, %d refunded, for a%s %s process",
					gp.ID, gp.Amount, gp.RefundedAmount, an(p.Status), p.Status))
			}
		}
	}
	return problems, nil
}

// ReconcileJob is the job name of the periodic reconciliation.
const ReconcileJob = "gateway_reconcile"

// RunReconcile runs the reconciliation when it is due and no other
// instance holds its lease (payment_jobs), over the processes changed in
// the last ReconcileWindow, then sets the next run ReconcileEvery later.
// It reports whether this instance ran it.
func (e *Engine) RunReconcile(ctx context.Context) (bool, []Difference, error) {
	now := e.now()
	ok, err := e.audit.ClaimJob(ctx, ReconcileJob, e.owner, now, now.Add(e.cfg.ReconcileLease))
	if err != nil || !ok {
		return false, nil, err
	}
	diffs, err := e.Reconcile(ctx, now.Add(-e.cfg.ReconcileWindow))
	next := e.now().Add(e.cfg.ReconcileEvery)
	if err != nil {
		// try again sooner; the lease is released either way
		next = e.now().Add(e.cfg.ReconcileEvery / 10)
	}
	if ferr := e.audit.FinishJob(ctx, ReconcileJob, e.owner, e.now(), next); ferr != nil && err == nil {
		err = ferr
	}
	if err == nil {
		e.log.Info("payment: reconciliation done", "differences", len(diffs))
	}
	return true, diffs, err
}

// an is "n" before a status starting with a vowel ("an expired process").
func an(s Status) string {
	if strings.ContainsRune("aeiou", rune(string(s)[0])) {
		return "n"
	}
	return ""
}
