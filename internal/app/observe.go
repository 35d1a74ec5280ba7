package app

import (
	"context"
	"errors"
	"time"

	"members/internal/flightops"
	"members/internal/mail"
	"members/internal/ops"
	"members/internal/payment"
	"members/internal/push"
	"members/internal/store"
)

// The stores below count what the metrics show at the one place each
// change is made; the domain packages know nothing of the metrics. Each
// is its store with the metrics beside it (observed{store, a.metrics}):
// with metrics off (nil) ops.Metrics counts nothing, so no store needs a
// plain and an observed way of being built.

// observedPayments counts the state changes of payment processes and the
// recorded discrepancies.
type observedPayments struct {
	*store.PaymentStore
	m *ops.Metrics
}

func (o observedPayments) Move(ctx context.Context, id string, from, to payment.Status, c payment.Changes, now time.Time) (bool, error) {
	ok, err := o.PaymentStore.Move(ctx, id, from, to, c, now)
	if ok && err == nil {
		o.m.PaymentTransition(string(from), string(to))
	}
	return ok, err
}

func (o observedPayments) Settle(ctx context.Context, id string, now time.Time, needsNotify bool, card *payment.SavedCard, grant payment.SettleFunc) (payment.SettleOutcome, error) {
	out, err := o.PaymentStore.Settle(ctx, id, now, needsNotify, card, grant)
	if err == nil {
		switch {
		case out.Settled:
			o.m.PaymentTransition(string(payment.Pending), string(payment.Settled))
		case out.Refused != "":
			o.m.PaymentTransition(string(payment.Pending), string(payment.Failed))
		}
	}
	return out, err
}

func (o observedPayments) RecordDiscrepancy(ctx context.Context, d payment.Discrepancy) error {
	err := o.PaymentStore.RecordDiscrepancy(ctx, d)
	if err == nil {
		o.m.PaymentDiscrepancy()
	}
	return err
}

// observedOutbox counts failed SMTP attempts.
type observedOutbox struct {
	mail.Outbox
	m *ops.Metrics
}

func (o observedOutbox) MarkAttempt(ctx context.Context, id string, attempts int, status mail.Status, next time.Time, lastErr string) error {
	err := o.Outbox.MarkAttempt(ctx, id, attempts, status, next, lastErr)
	if err == nil {
		o.m.MailFailure(status == mail.Failed)
	}
	return err
}

// observedFlights counts the events of the operations feed by result.
type observedFlights struct {
	flightops.Store
	m *ops.Metrics
}

func (o observedFlights) Apply(ctx context.Context, ev flightops.Event, source string, merge func(flightops.State) (flightops.State, bool, error), alertDue func(flightops.State) time.Time) (flightops.Result, error) {
	res, err := o.Store.Apply(ctx, ev, source, merge, alertDue)
	switch {
	case err == nil:
		o.m.FlightEvent("applied")
	case errors.Is(err, flightops.ErrDuplicate):
		o.m.FlightEvent("duplicate")
	case errors.Is(err, flightops.ErrUnknownFlight):
		o.m.FlightEvent("unknown_flight")
	default:
		o.m.FlightEvent("error")
	}
	return res, err
}

// observedPush counts the pushes sent, the failed attempts and the
// devices forgotten on a 404 or 410.
type observedPush struct {
	push.Store
	m *ops.Metrics
}

func (o observedPush) MarkSent(ctx context.Context, d push.Delivery, at time.Time) error {
	err := o.Store.MarkSent(ctx, d, at)
	if err == nil {
		o.m.PushSent()
	}
	return err
}

func (o observedPush) MarkAttempt(ctx context.Context, d push.Delivery, attempts int, failed bool, next time.Time, lastErr string) error {
	err := o.Store.MarkAttempt(ctx, d, attempts, failed, next, lastErr)
	if err == nil {
		o.m.PushFailed(failed)
	}
	return err
}

func (o observedPush) Expire(ctx context.Context, subscriptionID string) error {
	err := o.Store.Expire(ctx, subscriptionID)
	if err == nil {
		o.m.PushExpired()
	}
	return err
}
