package app

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"time"

	"members/internal/flightops"
	"members/internal/payment"
)

// CrashEnv names the crash points of the tests that kill the real server
// between two steps of a payment (cmd/members, the crash tests): a comma
// list of "before-CALL", "during-CALL" or "after-CALL", CALL one of
// authorize (which captures a card that needs no customer step), capture,
// refund, cancel. The server kills itself with SIGKILL, so no shutdown
// code runs, just before it sends such a gateway call, while the call
// has been out for duringWait without an answer (the gateway has it, its
// outcome unknown here), or just after the gateway answered it, at the
// first point it reaches; it logs the point first, so a test knows
// where the run ended. Three points are not gateway calls:
// "after-slipend", just after the move that ends a slip unpaid (cancelled
// or expired) took effect, before its mail; "after-refundrecord", inside
// the transaction that records a refund as made, after the refund and the
// process's refunded amount are written and before the product ends the
// goods (the coupon's disable) in it, uncommitted; "after-refundend", just
// after that transaction committed, before the member's mail about it.
// They are honoured only with the
// in-process sandbox gateway, or Stripe at a test URL (--stripe-api-url:
// the stand-in), neither of which moves money. Another is not a gateway
// call either: "after-pushqueue", just after a flight event's
// transaction, which queued its pushes, committed, before the sender
// sends them; it is honoured only with a stand-in push service
// (--test-push-service).
const CrashEnv = "MEMBERS_TEST_CRASH"

// crashPoints are the points the environment arms, when the gateway
// moves no money (testOnly); nil when none is armed.
type crashPoints struct {
	points map[string]bool
	log    *slog.Logger
}

// armedCrashPoints reads CrashEnv.
func armedCrashPoints(testOnly bool, log *slog.Logger) *crashPoints {
	env := os.Getenv(CrashEnv)
	if env == "" {
		return nil
	}
	points := map[string]bool{}
	valid := testOnly
	for _, at := range strings.Split(env, ",") {
		when, call, _ := strings.Cut(at, "-")
		valid = valid && (storePoints[at] || at == "after-pushqueue" || (when == "before" || when == "during" || when == "after") &&
			(call == "authorize" || call == "capture" || call == "refund" || call == "cancel"))
		points[at] = true
	}
	if !valid {
		log.Warn("ignored: "+CrashEnv+" is for the sandbox gateway, as before-CALL, during-CALL, after-CALL, after-slipend, after-refundrecord or after-refundend points, or after-pushqueue with a stand-in push service", "value", env)
		return nil
	}
	log.Warn("crash points armed: the server kills itself at the first", "points", env)
	return &crashPoints{points: points, log: log}
}

// storePoints are the crash points in the payment store's calls.
var storePoints = map[string]bool{"after-slipend": true, "after-refundrecord": true, "after-refundend": true}

// crashStore wraps the payment store when one of its points is armed.
func crashStore(st payment.Store, armed *crashPoints) payment.Store {
	if armed == nil {
		return st
	}
	for p := range armed.points {
		if storePoints[p] {
			return crashingStore{Store: st, crashPoints: *armed}
		}
	}
	return st
}

// crashingStore kills the process after a move that ended a slip (the
// one that records its mail as owed) took effect, and inside and after
// the transaction that records a refund and ends its goods.
type crashingStore struct {
	payment.Store
	crashPoints
}

func (c crashingStore) Move(ctx context.Context, id string, from, to payment.Status, ch payment.Changes, now time.Time) (bool, error) {
	ok, err := c.Store.Move(ctx, id, from, to, ch, now)
	if ok && err == nil && ch.Notify {
		c.at("after", "slipend")
	}
	return ok, err
}

func (c crashingStore) CompleteRefund(ctx context.Context, id, reason string, now time.Time, end payment.EndGoodsFunc) (bool, error) {
	if end != nil {
		inner := end
		end = func(tx payment.Tx) (bool, error) {
			// the refund is written in tx, the goods not yet ended
			c.at("after", "refundrecord")
			return inner(tx)
		}
	}
	owed, err := c.Store.CompleteRefund(ctx, id, reason, now, end)
	if owed && err == nil {
		c.at("after", "refundend")
	}
	return owed, err
}

// crashPoint wraps gw when crash points are armed; otherwise it returns
// gw as it is.
func crashPoint(gw payment.Gateway, armed *crashPoints) payment.Gateway {
	if armed == nil {
		return gw
	}
	c := crashGateway{Gateway: gw, crashPoints: *armed}
	if s, ok := gw.(setupGateway); ok {
		// keep what the gateway offers and how it checks cards
		return crashSetupGateway{crashGateway: c, offer: s, setup: s}
	}
	return c
}

// setupGateway is a gateway that narrows the offer and checks cards with
// the member (Stripe).
type setupGateway interface {
	payment.Gateway
	payment.Offering
	payment.CardSetup
}

// crashSetupGateway is crashGateway over a setupGateway.
type crashSetupGateway struct {
	crashGateway
	offer payment.Offering
	setup payment.CardSetup
}

func (c crashSetupGateway) Offer(currency string, a payment.Availability) payment.Availability {
	return c.offer.Offer(currency, a)
}

func (c crashSetupGateway) SetupCard(ctx context.Context, key string, in payment.CardSetupInput) (payment.CardSetupResult, error) {
	return c.setup.SetupCard(ctx, key, in)
}

func (c crashSetupGateway) CardSetupStatus(ctx context.Context, setupID string) (payment.CardSetupResult, error) {
	return c.setup.CardSetupStatus(ctx, setupID)
}

// crashGateway is the gateway with crash points armed.
type crashGateway struct {
	payment.Gateway
	crashPoints
}

// at kills the process when when-call is an armed point.
func (c crashPoints) at(when, call string) {
	point := when + "-" + call
	if !c.points[point] {
		return
	}
	c.log.Warn("crash point reached", "point", point)
	self, err := os.FindProcess(os.Getpid())
	if err == nil {
		_ = self.Kill()
	}
	select {} // the signal ends the process; nothing after the point runs
}

// duringWait is how long a call is out without an answer before its
// "during" point is reached: the sandbox's slow card answers after
// seconds, any other call within milliseconds.
const duringWait = 150 * time.Millisecond

// through makes one gateway call with the crash points around it: during
// only while the call is out, after only when the gateway answered.
func through(c crashGateway, call string, do func() (payment.GatewayPayment, error)) (payment.GatewayPayment, error) {
	c.at("before", call)
	type answer struct {
		gp  payment.GatewayPayment
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		gp, err := do()
		answered <- answer{gp, err}
	}()
	var a answer
	if c.points["during-"+call] {
		select {
		case a = <-answered:
		case <-time.After(duringWait):
			c.at("during", call)
		}
	} else {
		a = <-answered
	}
	if a.err == nil {
		c.at("after", call)
	}
	return a.gp, a.err
}

func (c crashGateway) Authorize(ctx context.Context, key, paymentID string, autoCapture bool) (payment.GatewayPayment, error) {
	return through(c, "authorize", func() (payment.GatewayPayment, error) { return c.Gateway.Authorize(ctx, key, paymentID, autoCapture) })
}

func (c crashGateway) Capture(ctx context.Context, key, paymentID string) (payment.GatewayPayment, error) {
	return through(c, "capture", func() (payment.GatewayPayment, error) { return c.Gateway.Capture(ctx, key, paymentID) })
}

func (c crashGateway) Refund(ctx context.Context, key, paymentID string, amount int64) (payment.GatewayPayment, error) {
	return through(c, "refund", func() (payment.GatewayPayment, error) { return c.Gateway.Refund(ctx, key, paymentID, amount) })
}

func (c crashGateway) Cancel(ctx context.Context, key, paymentID string) (payment.GatewayPayment, error) {
	return through(c, "cancel", func() (payment.GatewayPayment, error) { return c.Gateway.Cancel(ctx, key, paymentID) })
}

// crashFlights wraps the flight events' store when after-pushqueue is
// armed: the process is killed once an event applied (its pushes queued
// in the same transaction), before any is sent.
func crashFlights(st flightops.Store, armed *crashPoints) flightops.Store {
	if armed == nil || !armed.points["after-pushqueue"] {
		return st
	}
	return crashingFlights{Store: st, crashPoints: *armed}
}

type crashingFlights struct {
	flightops.Store
	crashPoints
}

func (c crashingFlights) Apply(ctx context.Context, ev flightops.Event, source string, merge func(flightops.State) (flightops.State, bool, error),
	alertDue func(flightops.State) time.Time) (flightops.Result, error) {
	res, err := c.Store.Apply(ctx, ev, source, merge, alertDue)
	if err == nil && res.Outcome == flightops.OutcomeApplied {
		c.at("after", "pushqueue")
	}
	return res, err
}
