package payment_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/payment"
	"members/internal/store"
	"members/internal/stripe"
	"members/internal/stripe/stripefake"
	"members/internal/validate"
)

// The engine's state machine, driven directly (no HTTP) over the real
// store on both engines, with a gateway that records every call and
// applies each idempotency key's effect once.

// fakeGateway is an in-memory gateway. A card is captured at authorise
// unless action is set (a challenge: the payment waits for the customer
// until the test captures it). A repeated key answers the first answer
// and moves nothing.
type fakeGateway struct {
	mu       sync.Mutex
	action   bool
	payments map[string]*payment.GatewayPayment
	answers  map[string]payment.GatewayPayment
	calls    []string // "op key"
	effects  map[string]int
	n        int
}

func newFakeGateway() *fakeGateway {
	return &fakeGateway{payments: map[string]*payment.GatewayPayment{}, answers: map[string]payment.GatewayPayment{}, effects: map[string]int{}}
}

func (g *fakeGateway) Name() string { return "fake" }

func (g *fakeGateway) Token(_ context.Context, tok string) (payment.GatewayToken, error) {
	if tok == "tok_unknown" {
		return payment.GatewayToken{}, payment.ErrUnknownToken
	}
	return payment.GatewayToken{Token: tok, Gateway: "fake", Brand: "visa", Last4: "4242", ExpirationDate: "99/12", HolderName: "HANAKO YAMADA"}, nil
}

func (g *fakeGateway) DeleteToken(context.Context, string) error { return nil }

func (g *fakeGateway) VerifyCard(context.Context, string, string) (payment.CardVerification, error) {
	return payment.CardVerification{Status: payment.VerifySucceeded}, nil
}

// once runs the effect of key the first time and answers its first answer
// after.
func (g *fakeGateway) once(op, key string, effect func() (payment.GatewayPayment, error)) (payment.GatewayPayment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, op+" "+key)
	if a, ok := g.answers[key]; ok {
		return a, nil
	}
	a, err := effect()
	if err != nil {
		return a, err
	}
	g.effects[key]++
	g.answers[key] = a
	return a, nil
}

func (g *fakeGateway) CreatePayment(_ context.Context, key string, in payment.CreatePayment) (payment.GatewayPayment, error) {
	return g.once("create", key, func() (payment.GatewayPayment, error) {
		g.n++
		p := &payment.GatewayPayment{ID: fmt.Sprintf("gp_%d", g.n), Status: payment.GWCreated, Amount: in.Amount,
			Currency: in.Currency, Method: in.Method, Reference: in.Reference, Token: in.Token}
		g.payments[p.ID] = p
		return *p, nil
	})
}

func (g *fakeGateway) Authorize(_ context.Context, key, id string, autoCapture bool) (payment.GatewayPayment, error) {
	return g.once("authorize", key, func() (payment.GatewayPayment, error) {
		p := g.payments[id]
		switch {
		case g.action:
			p.Status = payment.GWRequiresAction
			p.NextAction = &payment.NextAction{Type: "redirect", URL: "https://gw.example/challenge/" + id}
		case autoCapture:
			p.Status = payment.GWCaptured
		default:
			p.Status = payment.GWAuthorized
		}
		return *p, nil
	})
}

func (g *fakeGateway) Capture(_ context.Context, key, id string) (payment.GatewayPayment, error) {
	return g.once("capture", key, func() (payment.GatewayPayment, error) {
		p := g.payments[id]
		p.Status = payment.GWCaptured
		return *p, nil
	})
}

func (g *fakeGateway) Refund(_ context.Context, key, id string, amount int64) (payment.GatewayPayment, error) {
	return g.once("refund", key, func() (payment.GatewayPayment, error) {
		p := g.payments[id]
		p.RefundedAmount += amount
		return *p, nil
	})
}

func (g *fakeGateway) Cancel(_ context.Context, key, id string) (payment.GatewayPayment, error) {
	return g.once("cancel", key, func() (payment.GatewayPayment, error) {
		p := g.payments[id]
		if p.Status == payment.GWCaptured {
			return payment.GatewayPayment{}, payment.ErrGatewayRefused
		}
		p.Status, p.FailureCode = payment.GWFailed, "canceled"
		return *p, nil
	})
}

func (g *fakeGateway) Payment(_ context.Context, id string) (payment.GatewayPayment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, "payment "+id)
	return *g.payments[id], nil
}

func (g *fakeGateway) PaymentsByReference(_ context.Context, ref string) ([]payment.GatewayPayment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []payment.GatewayPayment
	for _, p := range g.payments {
		if p.Reference == ref {
			out = append(out, *p)
		}
	}
	return out, nil
}

// setAction makes the next cards wait for a challenge (true) or capture
// at authorise.
func (g *fakeGateway) setAction(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.action = on
}

// set moves a gateway payment as the customer or the provider would.
func (g *fakeGateway) set(id, status string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.payments[id].Status = status
}

// keyed lists the calls that carried an idempotency key (every call that
// moves money), in order.
func (g *fakeGateway) keyed() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, c := range g.calls {
		if !strings.HasPrefix(c, "payment ") {
			out = append(out, c)
		}
	}
	return out
}

// moved reports any key whose effect was applied more than once.
func (g *fakeGateway) moved() map[string]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]int{}
	for k, n := range g.effects {
		out[k] = n
	}
	return out
}

// goodsFields are the test product's fields of a purchase.
type goodsFields struct{ Amount int64 }

// goods is a product of the tests: one row per grant in test_goods
// (process_id UNIQUE, like a real product's goods table); refuse makes
// its grant refuse (the goods may not be had after all).
type goods struct {
	db     *store.DB
	st     *store.PaymentStore
	mu     sync.Mutex
	grants int
	refuse bool
}

func (p *goods) Type() string { return "test_goods" }

func (p *goods) Quote(_ context.Context, _, _ string, in goodsFields) (payment.Order, error) {
	if in.Amount < 100 {
		errs := validate.Errors{}
		errs.Add("amount", "validation.something")
		return payment.Order{}, apperr.FromFields(errs)
	}
	return payment.Order{Amount: in.Amount, Currency: "JPY", Description: "Test goods",
		Details: []byte(fmt.Sprintf(`{"amount":%d}`, in.Amount))}, nil
}

func (p *goods) Grant(ctx context.Context, uow payment.Tx, g payment.Grant) (payment.Granted, error) {
	p.mu.Lock()
	refuse := p.refuse
	p.mu.Unlock()
	if refuse {
		return payment.Granted{}, payment.RefuseGrant("already_held")
	}
	tx, err := store.TxOf(uow)
	if err != nil {
		return payment.Granted{}, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO test_goods (process_id, amount) VALUES ($1, $2)`, g.ProcessID, g.Order.Amount); err != nil {
		return payment.Granted{}, err
	}
	p.mu.Lock()
	p.grants++
	p.mu.Unlock()
	return payment.Granted{Goods: []byte(`{"ok":true}`)}, nil
}

// rows counts the goods granted for a process.
func (p *goods) rows(t *testing.T, id string) int {
	t.Helper()
	var n int
	if err := p.db.QueryRow(`SELECT COUNT(*) FROM test_goods WHERE process_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

type rig struct {
	e     *payment.Engine
	co    *payment.Checkout[goodsFields]
	st    *store.PaymentStore
	gw    *fakeGateway
	goods *goods
	clock *apitest.Clock
}

// newRig is an engine over a fresh database of engine (demo members
// seeded) with the fake gateway and the test product.
func newRig(t *testing.T, engine store.Engine) *rig {
	t.Helper()
	return newRigWith(t, engine, payment.Config{})
}

// newRigWith is newRig with the engine's configuration.
func newRigWith(t *testing.T, engine store.Engine, cfg payment.Config) *rig {
	t.Helper()
	gw := newFakeGateway()
	r := newRigOn(t, engine, cfg, gw)
	r.gw = gw
	return r
}

// newRigOn is an engine over gw (the scripted gateway, or a real adapter).
func newRigOn(t *testing.T, engine store.Engine, cfg payment.Config, gw payment.Gateway) *rig {
	t.Helper()
	env := apitest.New(t, engine)
	db := env.App.DB
	if _, err := db.Exec(`CREATE TABLE test_goods (process_id TEXT NOT NULL UNIQUE, amount BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	st := store.NewPaymentStore(db)
	clock := env.Clock
	e := payment.NewEngine(st, gw, cfg, clock.Now, apitest.Quiet())
	g := &goods{db: db, st: st}
	co := payment.Register(e, g)
	return &rig{e: e, co: co, st: st, goods: g, clock: clock}
}

var reqN struct {
	sync.Mutex
	n int
}

// card is a card purchase of amount under a new requestId.
func card(amount int64) payment.Purchase[goodsFields] {
	reqN.Lock()
	reqN.n++
	id := fmt.Sprintf("req-%d", reqN.n)
	reqN.Unlock()
	return payment.Purchase[goodsFields]{
		Payment:   payment.Fields{PaymentMethod: payment.MethodCreditCard, CreditCardToken: "tok_visa", RequestID: id},
		Product:   goodsFields{Amount: amount},
		Canonical: []byte(fmt.Sprintf(`{"amount":%d}`, amount)),
	}
}

func (r *rig) buy(t *testing.T, pur payment.Purchase[goodsFields]) payment.View {
	t.Helper()
	v, err := r.co.Buy(context.Background(), demo.Member1, i18n.EN, pur)
	if err != nil {
		t.Fatalf("buy: %v", err)
	}
	return v
}

func (r *rig) status(t *testing.T, id string) payment.View {
	t.Helper()
	p, err := r.st.Process(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return payment.View{PaymentProcessID: p.ID, Status: p.Status, FailureCode: p.FailureCode, RefundedAmount: p.RefundedAmount}
}

func key(id, step string) string { return "pp_" + id + "_" + step }

func TestTransitionRule(t *testing.T) {
	all := []payment.Status{payment.Prepared, payment.Pending, payment.Settled, payment.Failed, payment.Expired, payment.Refunded}
	allowed := map[[2]payment.Status]bool{
		{payment.Prepared, payment.Pending}: true, {payment.Prepared, payment.Expired}: true,
		{payment.Pending, payment.Settled}: true, {payment.Pending, payment.Failed}: true, {payment.Pending, payment.Expired}: true,
		{payment.Settled, payment.Refunded}: true, {payment.Refunded, payment.Refunded}: true,
	}
	for _, from := range all {
		for _, to := range all {
			if got := payment.CanMove(from, to); got != allowed[[2]payment.Status{from, to}] {
				t.Errorf("CanMove(%s, %s) = %v", from, to, got)
			}
		}
	}
}

// Every move on a stored process: a legal move from the status it is in
// moves it once (a repeat changes nothing), any other move changes nothing.
func TestStoreMoves(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		r := newRig(t, engine)
		ctx := context.Background()
		for _, c := range []struct {
			path []payment.Status // the moves that bring a process to from
			to   payment.Status
			want bool
		}{
			{nil, payment.Pending, true},
			{nil, payment.Expired, true},
			{nil, payment.Settled, false},
			{nil, payment.Failed, false},
			{nil, payment.Refunded, false},
			{[]payment.Status{payment.Pending}, payment.Failed, true},
			{[]payment.Status{payment.Pending}, payment.Expired, true},
			{[]payment.Status{payment.Pending}, payment.Prepared, false},
			{[]payment.Status{payment.Pending}, payment.Refunded, false},
			{[]payment.Status{payment.Pending, payment.Failed}, payment.Pending, false},
			{[]payment.Status{payment.Pending, payment.Failed}, payment.Settled, false},
			{[]payment.Status{payment.Pending, payment.Expired}, payment.Settled, false},
			{[]payment.Status{payment.Expired}, payment.Pending, false},
		} {
			name := fmt.Sprint(append(append([]payment.Status{payment.Prepared}, c.path...), c.to))
			t.Run(name, func(t *testing.T) {
				v := r.buy(t, card(1000))
				t.Cleanup(func() {
					// leave no open process to block the next case's buy
					_, _ = r.st.Move(ctx, v.PaymentProcessID, payment.Pending, payment.Failed, payment.Changes{}, r.clock.Now())
				})
				from := payment.Prepared
				for _, s := range c.path {
					if ok, err := r.st.Move(ctx, v.PaymentProcessID, from, s, payment.Changes{}, r.clock.Now()); err != nil || !ok {
						t.Fatalf("setting up %s→%s: %v %v", from, s, ok, err)
					}
					from = s
				}
				ok, err := r.st.Move(ctx, v.PaymentProcessID, from, c.to, payment.Changes{}, r.clock.Now())
				if err != nil || ok != c.want {
					t.Fatalf("move %s→%s = %v %v, want %v", from, c.to, ok, err, c.want)
				}
				want := from
				if c.want {
					want = c.to
				}
				if got := r.status(t, v.PaymentProcessID).Status; got != want {
					t.Fatalf("status %s, want %s", got, want)
				}
				if c.want && from != c.to {
					// the same move again: the process is no longer in from
					if ok, err := r.st.Move(ctx, v.PaymentProcessID, from, c.to, payment.Changes{}, r.clock.Now()); err != nil || ok {
						t.Fatalf("repeated move %s→%s = %v %v", from, c.to, ok, err)
					}
				}
			})
		}
		// settlement runs the grant only for a pending process: a failed
		// or expired one is not settled and nothing is granted
		for _, end := range []payment.Status{payment.Failed, payment.Expired} {
			v := r.buy(t, card(1000))
			_, _ = r.st.Move(ctx, v.PaymentProcessID, payment.Prepared, payment.Pending, payment.Changes{}, r.clock.Now())
			_, _ = r.st.Move(ctx, v.PaymentProcessID, payment.Pending, end, payment.Changes{}, r.clock.Now())
			out, err := r.st.Settle(ctx, v.PaymentProcessID, r.clock.Now(), false, nil, func(payment.Tx) (payment.Granted, error) {
				t.Errorf("granted a %s process", end)
				return payment.Granted{}, nil
			})
			if err != nil || out.Settled {
				t.Errorf("settle %s: %+v %v", end, out, err)
			}
		}
	})
}

// The purchase paths through the engine, each with the gateway calls it
// makes (every one under the process's key for that step) and the goods
// granted (exactly once, whatever is repeated).
func TestEnginePaths(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		for _, c := range []struct {
			name   string
			run    func(t *testing.T, r *rig, id string) // after buy
			status payment.Status
			code   string
			goods  int
			calls  func(id string) []string
			refund int64
		}{
			{
				name: "card captured at once, continue repeated",
				run: func(t *testing.T, r *rig, id string) {
					// the first answer is the settlement's own view of the
					// process, the repeats read it back: they must agree,
					// on a clock that is not on a whole millisecond too
					r.clock.Advance(333 * time.Microsecond)
					var first []byte
					for i := range 3 {
						v, err := r.e.Continue(ctx, demo.Member1, "test_goods", id)
						if err != nil {
							t.Fatal(err)
						}
						b, _ := json.Marshal(v)
						if i == 0 {
							first = b
						} else if string(b) != string(first) {
							t.Errorf("continue answered\n%s\nthen\n%s", first, b)
						}
					}
				},
				status: payment.Settled, goods: 1,
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize")}
				},
			},
			{
				name: "challenge, then captured and reconciled by status and the worker",
				run: func(t *testing.T, r *rig, id string) {
					r.gw.setAction(true)
					v, err := r.e.Continue(ctx, demo.Member1, "test_goods", id)
					if err != nil || v.Status != payment.Pending || v.NextAction == nil {
						t.Fatalf("continue: %+v %v", v, err)
					}
					r.gw.set("gp_1", payment.GWCaptured)
					r.clock.Advance(time.Minute)
					var wg sync.WaitGroup
					for range 4 {
						wg.Add(2)
						go func() { defer wg.Done(); _, _ = r.e.Status(ctx, demo.Member1, "test_goods", id) }()
						go func() { defer wg.Done(); _, _ = r.e.RunOnce(ctx) }()
					}
					wg.Wait()
					waitStatus(t, r, id, payment.Settled)
				},
				status: payment.Settled, goods: 1,
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize")}
				},
			},
			{
				name: "declined at the gateway",
				run: func(t *testing.T, r *rig, id string) {
					r.gw.setAction(true)
					_, _ = r.e.Continue(ctx, demo.Member1, "test_goods", id)
					r.gw.mu.Lock()
					r.gw.payments["gp_1"].Status, r.gw.payments["gp_1"].FailureCode = payment.GWFailed, "card_declined"
					r.gw.mu.Unlock()
					r.clock.Advance(time.Minute)
					if _, err := r.e.RunOnce(ctx); err != nil {
						t.Fatal(err)
					}
				},
				status: payment.Failed, code: "card_declined",
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize")}
				},
			},
			{
				name: "cancelled by the member while waiting, cancel repeated",
				run: func(t *testing.T, r *rig, id string) {
					r.gw.setAction(true)
					_, _ = r.e.Continue(ctx, demo.Member1, "test_goods", id)
					for range 2 {
						if _, err := r.e.Cancel(ctx, demo.Member1, id); err != nil {
							t.Fatal(err)
						}
					}
				},
				status: payment.Failed, code: payment.FailCanceled,
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize"), "cancel " + key(id, "cancel")}
				},
			},
			{
				name: "captured after the process's time ran out: expired and refunded, not granted",
				run: func(t *testing.T, r *rig, id string) {
					r.gw.setAction(true)
					_, _ = r.e.Continue(ctx, demo.Member1, "test_goods", id)
					r.gw.set("gp_1", payment.GWCaptured)
					r.clock.Advance(31 * time.Minute)
					for range 2 {
						if _, err := r.e.RunOnce(ctx); err != nil {
							t.Fatal(err)
						}
						_, _ = r.e.Status(ctx, demo.Member1, "test_goods", id)
						r.clock.Advance(time.Minute)
					}
					waitStatus(t, r, id, payment.Expired)
				},
				status: payment.Expired, refund: 1000,
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize"), "refund " + key(id, "refund_late")}
				},
			},
			{
				name: "captured, but the grant is refused: failed and refunded in full",
				run: func(t *testing.T, r *rig, id string) {
					r.goods.refuse = true
					_, _ = r.e.Continue(ctx, demo.Member1, "test_goods", id)
					_, _ = r.e.Status(ctx, demo.Member1, "test_goods", id)
				},
				status: payment.Failed, code: "refused_already_held", refund: 1000,
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize"), "refund " + key(id, "refund_refused")}
				},
			},
			{
				name: "settled, then partly refunded twice for one reason",
				run: func(t *testing.T, r *rig, id string) {
					_, _ = r.e.Continue(ctx, demo.Member1, "test_goods", id)
					for range 2 {
						if err := r.e.Refund(ctx, demo.Member1, id, 400, "coupon_cancel"); err != nil {
							t.Fatal(err)
						}
					}
					// more than is left is refused
					if err := r.e.Refund(ctx, demo.Member1, id, 700, "other"); apperr.CodeOf(err) != apperr.Conflict {
						t.Fatalf("refund beyond the amount: %v", err)
					}
				},
				status: payment.Refunded, goods: 1, refund: 400,
				calls: func(id string) []string {
					return []string{"create " + key(id, "create"), "authorize " + key(id, "authorize"), "refund " + key(id, "refund_coupon_cancel")}
				},
			},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := newRig(t, engine)
				v := r.buy(t, card(1000))
				id := v.PaymentProcessID
				if v.Status != payment.Prepared || len(r.gw.keyed()) != 0 {
					t.Fatalf("buy: %s, gateway calls %v", v.Status, r.gw.keyed())
				}
				c.run(t, r, id)
				got := r.status(t, id)
				if got.Status != c.status || got.FailureCode != c.code {
					t.Errorf("status %s %q, want %s %q", got.Status, got.FailureCode, c.status, c.code)
				}
				// the caller that drove the process released its lease
				// (a settlement releases it in its own statement), so the
				// background work can take it up at once
				if p, err := r.st.Process(ctx, id); err != nil || p.LeaseUntil.UnixMilli() != 0 {
					t.Errorf("process lease until %v (%v), want released", p.LeaseUntil, err)
				}
				if n := r.goods.rows(t, id); n != c.goods || r.goods.grants != c.goods {
					t.Errorf("%d goods rows, %d grants; want %d", n, r.goods.grants, c.goods)
				}
				// each key once in the order of the steps (a repeat may call
				// again, but under the same key, and moves nothing)
				var first []string
				seen := map[string]bool{}
				for _, k := range r.gw.keyed() {
					if !seen[k] {
						seen[k] = true
						first = append(first, k)
					}
				}
				if want := c.calls(id); strings.Join(first, "\n") != strings.Join(want, "\n") {
					t.Errorf("gateway calls\n%s\nwant\n%s", strings.Join(first, "\n"), strings.Join(want, "\n"))
				}
				for k, n := range r.gw.moved() {
					if n != 1 {
						t.Errorf("key %s moved money %d times", k, n)
					}
				}
				r.gw.mu.Lock()
				refunded := int64(0)
				if p := r.gw.payments["gp_1"]; p != nil {
					refunded = p.RefundedAmount
				}
				r.gw.mu.Unlock()
				if refunded != c.refund {
					t.Errorf("refunded %d at the gateway, want %d", refunded, c.refund)
				}
			})
		}
	})
}

// A buy is keyed by its requestId: the same body answers the same
// process, another body under it is refused, field errors of the product
// and of the payment come together, and nothing reaches the gateway.
func TestBuyIdempotency(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		r := newRig(t, engine)
		ctx := context.Background()
		pur := card(1000)
		a := r.buy(t, pur)
		b := r.buy(t, pur)
		if a.PaymentProcessID != b.PaymentProcessID {
			t.Fatalf("same requestId, same body: %s and %s", a.PaymentProcessID, b.PaymentProcessID)
		}
		changed := card(2000)
		changed.Payment.RequestID = pur.Payment.RequestID
		if _, err := r.co.Buy(ctx, demo.Member1, i18n.EN, changed); !errors.Is(err, payment.ErrRestart) {
			t.Fatalf("same requestId, other body: %v", err)
		}
		// a second window's order replaces the prepared one
		c := r.buy(t, card(3000))
		if _, err := r.e.Continue(ctx, demo.Member1, "test_goods", a.PaymentProcessID); !errors.Is(err, payment.ErrMultipleWindows) {
			t.Fatalf("continue of the replaced order: %v", err)
		}
		// a pending process blocks a new order
		if _, err := r.e.Continue(ctx, demo.Member1, "test_goods", c.PaymentProcessID); err != nil {
			t.Fatal(err)
		}
		r.gw.setAction(true)
		d := r.buy(t, card(1000))
		if _, err := r.e.Continue(ctx, demo.Member1, "test_goods", d.PaymentProcessID); err != nil {
			t.Fatal(err)
		}
		if _, err := r.co.Buy(ctx, demo.Member1, i18n.EN, card(1000)); !errors.Is(err, payment.ErrPending) {
			t.Fatalf("buy while a payment is pending: %v", err)
		}
		// the product's refusal and the payment fields' come in one 400
		bad := card(1)
		bad.Payment.PaymentMethod = ""
		_, err := r.co.Validate(ctx, demo.Member2, i18n.EN, bad)
		if ae := apperr.As(err); ae == nil || !ae.Fields.Has("amount") || !ae.Fields.Has("paymentMethod") {
			t.Fatalf("validate: %v", err)
		}
		// a product's fields that did not decode stand for its quote
		wrong := payment.Purchase[goodsFields]{Payment: payment.Fields{}, ProductErr: apperr.FromDecode(&json.UnmarshalTypeError{Field: "amount"})}
		_, err = r.co.Validate(ctx, demo.Member2, i18n.EN, wrong)
		if ae := apperr.As(err); ae == nil || !ae.Fields.Has("amount") || !ae.Fields.Has("paymentMethod") {
			t.Fatalf("validate with a wrong type: %v", err)
		}
		// an unknown product is a 404 before anything else (a product's
		// purchases reach the engine through its own checkout only)
		if _, err := r.e.Continue(ctx, demo.Member1, "nothing", d.PaymentProcessID); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("unknown product: %v", err)
		}
	})
}

// waitStatus waits until the process reaches want (or fails the test
// after ten seconds): a condition, never a fixed sleep.
func waitStatus(t *testing.T, r *rig, id string, want payment.Status) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := r.status(t, id).Status
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %s is %s, want %s", id, got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWebhookOnSettledProcess: the gateway's "captured" event for a card
// purchase the request has already settled claims what the process
// recorded: it is acknowledged and recorded once, with no second read of
// the gateway's record. An event for the same settled process that claims
// anything else is still checked against the record, and recorded as a
// discrepancy.
func TestWebhookOnSettledProcess(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		secret := []byte("whsec_test")
		r := newRigWith(t, engine, payment.Config{WebhookSecret: secret})
		id := r.buy(t, card(1000)).PaymentProcessID
		if v, err := r.e.Continue(ctx, demo.Member1, "test_goods", id); err != nil || v.Status != payment.Settled {
			t.Fatalf("continue: %+v %v", v, err)
		}
		r.gw.mu.Lock()
		captured := *r.gw.payments["gp_1"]
		r.gw.mu.Unlock()
		send := func(evID string, gp payment.GatewayPayment) {
			t.Helper()
			body, _ := json.Marshal(map[string]any{"id": evID, "type": "payment.captured", "created": r.clock.Now().Unix(),
				"data": map[string]any{"payment": gp}})
			if err := r.e.HandleWebhook(ctx, body, payment.Sign(secret, body, r.clock.Now())); err != nil {
				t.Fatalf("%s: %v", evID, err)
			}
			if seen, err := r.st.SeenEvent(ctx, evID); err != nil || !seen {
				t.Errorf("%s not recorded: %v %v", evID, seen, err)
			}
		}
		reads := func() int {
			r.gw.mu.Lock()
			defer r.gw.mu.Unlock()
			n := 0
			for _, c := range r.gw.calls {
				if strings.HasPrefix(c, "payment ") {
					n++
				}
			}
			return n
		}
		discrepancies := func() int {
			var n int
			if err := r.goods.db.QueryRow(`SELECT COUNT(*) FROM payment_discrepancies WHERE process_id = $1`, id).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		send("evt_same", captured)
		if n := reads(); n != 0 {
			t.Errorf("the settled process's own capture read the gateway %d times", n)
		}
		other := captured
		other.Amount = 1
		send("evt_other", other)
		if n := reads(); n != 1 {
			t.Errorf("an event that differs from the process read the gateway %d times, want once", n)
		}
		if n := discrepancies(); n != 1 {
			t.Errorf("%d discrepancies, want 1", n)
		}
		if st := r.status(t, id); st.Status != payment.Settled || r.goods.rows(t, id) != 1 {
			t.Errorf("after the events: %s, %d goods", st.Status, r.goods.rows(t, id))
		}
	})
}

// TestBuyRaces: a double click, as 32 buys with one requestId at once,
// records one order and answers it to every click; 32 continues of it
// at once grant once. 32 windows ordering at once (other requestIds)
// leave the member one open order, and every click is answered with an
// order or "a payment is pending", never an error.
func TestBuyRaces(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		r := newRig(t, engine)
		buyRaces(t, r, card)
	})
}

// TestBuyRacesOverStripe is TestBuyRaces with the Stripe adapter in place
// of the sandbox, over the stateful Stripe stand-in.
func TestBuyRacesOverStripe(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		fake := stripefake.New(stripefake.Options{})
		api := httptest.NewServer(fake)
		t.Cleanup(api.Close)
		gw := stripe.New(stripe.Config{SecretKey: "sk_test_races", APIURL: api.URL})
		r := newRigOn(t, engine, payment.Config{}, gw)
		buyRaces(t, r, func(amount int64) payment.Purchase[goodsFields] {
			p := card(amount)
			p.Payment.CreditCardToken = "pm_card_visa"
			return p
		})
		// the 32 continues made one PaymentIntent, confirmed once
		if c, f := fake.Calls("POST /v1/payment_intents"), fake.Calls("POST /v1/payment_intents/{id}/confirm"); c != 1 || f != 1 {
			t.Errorf("%d PaymentIntents created, %d confirmed; want 1, 1", c, f)
		}
	})
}

func buyRaces(t *testing.T, r *rig, card func(int64) payment.Purchase[goodsFields]) {
	t.Helper()
	ctx := context.Background()
	{
		const clicks = 32
		at := func(n int, fn func(i int)) {
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() { defer wg.Done(); fn(i) }()
			}
			wg.Wait()
		}
		pur := card(1000)
		ids := make([]string, clicks)
		errs := make([]error, clicks)
		at(clicks, func(i int) {
			v, err := r.co.Buy(ctx, demo.Member1, i18n.EN, pur)
			ids[i], errs[i] = v.PaymentProcessID, err
		})
		for i := range clicks {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("click %d: %q %v, want %q", i, ids[i], errs[i], ids[0])
			}
		}
		at(clicks, func(i int) {
			_, errs[i] = r.e.Continue(ctx, demo.Member1, "test_goods", ids[0])
		})
		for i, err := range errs {
			if err != nil {
				t.Errorf("continue %d: %v", i, err)
			}
		}
		if n := r.goods.rows(t, ids[0]); n != 1 || r.status(t, ids[0]).Status != payment.Settled {
			t.Fatalf("after the continues: %d goods, %s", n, r.status(t, ids[0]).Status)
		}

		at(clicks, func(i int) {
			_, errs[i] = r.co.Buy(ctx, demo.Member1, i18n.EN, card(2000))
		})
		for i, err := range errs {
			if err != nil && !errors.Is(err, payment.ErrPending) {
				t.Errorf("window %d: %v", i, err)
			}
		}
		var open int
		if err := r.goods.db.QueryRow(`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1 AND status IN ('prepared', 'pending')`,
			demo.Member1).Scan(&open); err != nil || open != 1 {
			t.Errorf("%d open orders (%v), want 1", open, err)
		}
	}
}
