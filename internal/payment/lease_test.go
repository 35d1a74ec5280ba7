package payment_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/payment"
	"members/internal/store"
)

// outageStore is the real store whose plain updates fail while down is
// set: a database restart in the middle of a purchase step.
type outageStore struct {
	*store.PaymentStore
	down atomic.Bool
}

var errOutage = errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")

func (s *outageStore) Update(ctx context.Context, id string, c payment.Changes, now time.Time) error {
	if s.down.Load() {
		return errOutage
	}
	return s.PaymentStore.Update(ctx, id, c, now)
}

// A continue whose writes failed (the gateway payment was created, then
// the database went away before the engine could record it or give its
// lease back) is taken up by the background work within seconds of the
// database's return, not when its lease lapses: the lease is given back
// by the next round, and the same round captures and settles it once.
func TestLeaseGivenBackAfterAFailedWrite(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		r := newRig(t, engine)
		st := &outageStore{PaymentStore: r.st}
		e := payment.NewEngine(st, r.gw, payment.Config{}, r.clock.Now, apitest.Quiet())
		co := payment.Register(e, r.goods)
		ctx := context.Background()
		v, err := co.Buy(ctx, demo.Member1, "en", card(5000))
		if err != nil {
			t.Fatal(err)
		}
		st.down.Store(true)
		if v, err = e.Continue(ctx, demo.Member1, "test_goods", v.PaymentProcessID); err != nil || v.Status != payment.Pending {
			t.Fatalf("continue in the outage = %+v, %v; want pending", v, err)
		}
		id := v.PaymentProcessID
		// the outage goes on: a round of background work changes nothing
		r.clock.Advance(time.Second)
		if _, err := e.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if got := r.status(t, id).Status; got != payment.Pending {
			t.Fatalf("during the outage: %s", got)
		}
		// the database is back; a few seconds later (well inside the
		// minute's lease) the background work has settled it
		st.down.Store(false)
		r.clock.Advance(3 * time.Second)
		if _, err := e.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if got := r.status(t, id).Status; got != payment.Settled {
			t.Fatalf("3 s after the outage: %s, want settled (the lease was not given back)", got)
		}
		if n := r.goods.rows(t, id); n != 1 {
			t.Errorf("%d grants", n)
		}
		// one payment created and authorised (captured) once
		if m := r.gw.moved(); len(m) != 2 || m[key(id, "create")] != 1 || m[key(id, "authorize")] != 1 {
			t.Errorf("gateway effects %v", m)
		}
	})
}
