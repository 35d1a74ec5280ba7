package pass_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/demo"
	"members/internal/pass"
	"members/internal/platform"
	"members/internal/store"
)

// switches is the operator's pass switches as the service reads them.
type switches struct{ maintenance bool }

func (s *switches) GogoPassStatus(context.Context) (platform.GogoPassStatus, error) {
	return platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true, IsGogoPassMaintenance: s.maintenance}, nil
}

type holders struct{}

func (holders) Holder(_ context.Context, memberID string) (pass.Holder, error) {
	return pass.Holder{Email: memberID + "@example.com", Firstname: "Member", Lang: "en"}, nil
}

// outbox keeps the pass mails the service sends.
type outbox struct{ apitest.Kept[pass.Mail] }

func (o *outbox) SendPassMail(_ context.Context, m pass.Mail) error {
	o.Keep(m)
	return nil
}

type exchangeFixture struct {
	svc      *pass.Service
	switches *switches
	outbox   *outbox
	clock    *apitest.Clock
}

// newExchange builds the pass service on a real database holding the demo's
// plans, periods and exchange codes.
func newExchange(t *testing.T, engine store.Engine) exchangeFixture {
	t.Helper()
	db, _ := apitest.OpenDemoDB(t, engine)
	f := exchangeFixture{switches: &switches{}, outbox: &outbox{}, clock: apitest.NewClock(db.Now())}
	f.svc = pass.NewService(pass.Deps{
		Store: store.NewPassStore(db), Status: f.switches, Members: holders{}, Mailer: f.outbox,
		Translate: func(_, key string) string { return key }, Counters: store.NewCounters(db),
		Now: f.clock.Now, NewID: store.NewID, Logger: apitest.Quiet(),
	})
	return f
}

func errorKeyOf(err error) string {
	if e := apperr.As(err); e != nil {
		return e.ErrorKey
	}
	return ""
}

func TestExchange(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		f := newExchange(t, engine)
		code := demo.DemoExchangeCodes[0] // the next all-route period, Happlus

		// what the code gives, before it is used; the code as typed
		offer, err := f.svc.ValidateExchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: "  " + code + " ", Password: demo.DemoExchangePassword})
		if err != nil {
			t.Fatal(err)
		}
		if offer.Code != code || offer.FareType != pass.FareHapplus || offer.AvailablePeriodToBoard.Begin == "" {
			t.Errorf("offer %+v", offer)
		}

		p, err := f.svc.Exchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: code, Password: demo.DemoExchangePassword})
		if err != nil {
			t.Fatal(err)
		}
		if p.Source != pass.SourceExchange || p.PurchasedPrice != 0 || p.PeriodID != demo.DemoPeriodNext || len(p.Code) != 12 || p.Code[:2] != "GP" {
			t.Errorf("pass %+v", p)
		}
		held, err := f.svc.Passes(ctx, demo.Member2, "en")
		if err != nil || len(held) != 1 || held[0].ID != p.ID {
			t.Fatalf("member 2's passes: %v %v", held, err)
		}
		if mails := f.outbox.List(); len(mails) != 1 || mails[0].Kind != pass.MailIssued || mails[0].Code != p.Code {
			t.Errorf("mails %+v", mails)
		}

		// a code is used once, by one member
		if _, err := f.svc.Exchange(ctx, demo.Member1, "en", pass.ExchangeInput{Code: code, Password: demo.DemoExchangePassword}); !errors.Is(err, pass.ErrExchange) {
			t.Errorf("a used code: %v", err)
		}
		// a member holds one pass of a period: another code of it is refused
		if _, err := f.svc.Exchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: demo.DemoExchangeCodes[1], Password: demo.DemoExchangePassword}); !errors.Is(err, pass.ErrAlreadyHeld) {
			t.Errorf("a second pass of the period: %v", err)
		}
		if held, _ := f.svc.Passes(ctx, demo.Member2, "en"); len(held) != 1 {
			t.Errorf("member 2 holds %d passes", len(held))
		}
	})
}

func TestExchangeRefusals(t *testing.T) {
	ctx := context.Background()
	f := newExchange(t, store.SQLite)
	code := demo.DemoExchangeCodes[3] // the weekday plan
	for _, c := range []struct {
		name     string
		in       pass.ExchangeInput
		code     apperr.Code
		errorKey string
	}{
		{"blank code", pass.ExchangeInput{Code: " ", Password: demo.DemoExchangePassword}, apperr.Invalid, ""},
		{"blank password", pass.ExchangeInput{Code: code}, apperr.Invalid, ""},
		{"unknown code", pass.ExchangeInput{Code: "GPX-NONE-0000", Password: demo.DemoExchangePassword}, apperr.Internal, "gogopass_exchange_error"},
		{"wrong password", pass.ExchangeInput{Code: code, Password: "pass12345"}, apperr.Internal, "gogopass_exchange_error"},
	} {
		_, err := f.svc.Exchange(ctx, demo.Member2, "en", c.in)
		if apperr.CodeOf(err) != c.code || errorKeyOf(err) != c.errorKey {
			t.Errorf("%s: %v (%s), want %s %q", c.name, err, errorKeyOf(err), c.code, c.errorKey)
		}
	}
	if held, _ := f.svc.Passes(ctx, demo.Member2, "en"); len(held) != 0 {
		t.Fatalf("refused exchanges left passes: %v", held)
	}

	// in maintenance nothing is looked up, the right password included
	f.switches.maintenance = true
	if _, err := f.svc.Exchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: code, Password: demo.DemoExchangePassword}); !errors.Is(err, pass.ErrMaintenance) {
		t.Errorf("in maintenance: %v", err)
	}
	f.switches.maintenance = false

	// guessing is bounded per member: the attempts above (wrong ones
	// counted) and these use up the window, then even the right code waits
	for range pass.ExchangeAttempts - 2 {
		_, _ = f.svc.ValidateExchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: code, Password: "guess"})
	}
	if _, err := f.svc.Exchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: code, Password: demo.DemoExchangePassword}); apperr.CodeOf(err) != apperr.TooMany {
		t.Fatalf("after %d attempts: %v", pass.ExchangeAttempts, err)
	}
	// another member is not held back by member 2's guesses
	if _, err := f.svc.ValidateExchange(ctx, demo.Member1, "en", pass.ExchangeInput{Code: code, Password: demo.DemoExchangePassword}); err != nil {
		t.Errorf("member 1: %v", err)
	}
	// and the window ends
	f.clock.Advance(pass.ExchangeWindow + time.Second)
	if _, err := f.svc.Exchange(ctx, demo.Member2, "en", pass.ExchangeInput{Code: code, Password: demo.DemoExchangePassword}); err != nil {
		t.Errorf("after the window: %v", err)
	}
}
