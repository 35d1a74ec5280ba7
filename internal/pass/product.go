package pass

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/payment"
)

// Sale is the unlimited pass as sold through the payment engine.
type Sale struct{ s *Service }

var (
	_ payment.Sale[Selection] = Sale{}
	_ payment.Notifier        = Sale{}
	_ payment.Opener          = Sale{}
	_ payment.Describer       = Sale{}
)

// ProductType is the pass's name in the payment engine and the API.
const ProductType = "gogo_pass"

// Sale returns the pass's payment product.
func (s *Service) Sale() Sale { return Sale{s: s} }

// Type is the product's API name.
func (Sale) Type() string { return ProductType }

// ErrNotOnSale is a purchase while the sale is closed (or, in the lottery
// phase, by a member who did not win that period).
var ErrNotOnSale = apperr.New(apperr.Conflict, "pass.error.not_on_sale")

// Quote checks planId, periodId and fareType and prices the pass. The sale
// must be open (purchasable), outside maintenance; in the lottery phase
// only a winner of that period may buy, inside the buying window.
func (p Sale) Quote(ctx context.Context, memberID, lang string, in Selection) (payment.Order, error) {
	s := p.s
	st, err := s.public(ctx)
	if err != nil {
		return payment.Order{}, err
	}
	plan, period, err := s.resolve(ctx, lang, in, nil)
	if err != nil {
		return payment.Order{}, err
	}
	l, _ := i18n.Parse(lang)
	if st.IsGogoPassMaintenance {
		return payment.Order{}, ErrMaintenance
	}
	if !st.IsGogoPassPurchasable {
		return payment.Order{}, ErrNotOnSale
	}
	if err := s.checkNotBought(ctx, memberID, period.ID); err != nil {
		return payment.Order{}, err
	}
	if st.IsGogoPassLotteryPhase {
		wins, err := s.wins(ctx, memberID, lang)
		if err != nil {
			return payment.Order{}, err
		}
		won := false
		for _, w := range wins {
			won = won || w.PeriodID == period.ID
		}
		if !won {
			return payment.Order{}, ErrNotOnSale
		}
	}
	raw, err := s.period(ctx, plan.ID, period.ID)
	if err != nil {
		return payment.Order{}, fmt.Errorf("pass order: %w", err)
	}
	details, err := json.Marshal(orderDetails{
		Selection: Selection{PlanID: plan.ID, PeriodID: period.ID, FareType: in.FareType},
		NameKey:   raw.Name, NameAltKey: raw.NameAlt,
		Board: period.AvailablePeriodToBoard, Book: period.AvailablePeriodToBook,
	})
	if err != nil {
		return payment.Order{}, fmt.Errorf("pass order: %w", err)
	}
	// one pass a member and period: a second payment for the period is
	// refused while one is open (a slip not paid yet), whatever the fare
	o := payment.Order{Amount: period.Price.Of(in.FareType), Currency: period.CurrencyCode, Details: details, Once: "period:" + period.ID}
	o.Description = p.Describe(l, o)
	return o, nil
}

// Open refuses a payment that would start inside the maintenance window
// (03:00 to 05:00 Japan time, or the operator's override), as Quote
// refuses the purchase: an order prepared at 02:59 is not paid at 03:00.
func (p Sale) Open(ctx context.Context) error {
	st, err := p.s.public(ctx)
	if err != nil {
		return err
	}
	if st.IsGogoPassMaintenance {
		return ErrMaintenance
	}
	return nil
}

// orderDetails are what Grant needs, fixed at Quote, so the grant reads
// nothing but its transaction.
type orderDetails struct {
	Selection
	NameKey    string `json:"nameKey"`
	NameAltKey string `json:"nameAltKey"`
	Board      Range  `json:"board"`
	Book       Range  `json:"book"`
}

// Goods are the granted goods of a pass purchase.
type Goods struct {
	PurchasedGogoPass Pass `json:"purchasedGogoPass"`
	// Code is the pass number at the top level, where the payment pages
	// show the goods' labelled fields.
	Code string `json:"code"`
	// PaymentMethod and OtherPaymentType are how the pass was paid.
	PaymentMethod    string `json:"paymentMethod"`
	OtherPaymentType string `json:"otherPaymentType,omitempty"`
}

// Grant creates the pass in the settlement transaction. The pass carries
// the process id under a UNIQUE constraint: a second grant fails.
func (p Sale) Grant(ctx context.Context, tx payment.Tx, g payment.Grant) (payment.Granted, error) {
	s := p.s
	var d orderDetails
	if err := json.Unmarshal(g.Order.Details, &d); err != nil {
		return payment.Granted{}, fmt.Errorf("pass grant: details: %w", err)
	}
	pass := Pass{
		ID: s.d.NewID(), Code: s.passCode(), MemberID: g.MemberID, PlanID: d.PlanID, PeriodID: d.PeriodID,
		FareType: d.FareType, CurrencyCode: g.Order.Currency, PurchasedPrice: g.Order.Amount,
		PurchasedAt: g.SettledAt.UTC().Truncate(time.Millisecond), Source: SourcePurchase, PaymentProcessID: g.ProcessID,
		AvailablePeriodToBoard: d.Board, AvailablePeriodToBook: d.Book,
	}
	if err := s.d.Store.InsertPass(ctx, tx, pass); err != nil {
		if errors.Is(err, ErrHeld) {
			// the period came to be held after the quote (an exchange or
			// a parallel purchase): no second pass; the engine refunds
			return payment.Granted{}, payment.RefuseGrant(RefusedHeld)
		}
		return payment.Granted{}, fmt.Errorf("pass grant: %w", err)
	}
	pass.Name, pass.NameAlt = s.d.Translate(g.Lang, d.NameKey), s.d.Translate(g.Lang, d.NameAltKey)
	goods, err := json.Marshal(Goods{PurchasedGogoPass: pass, Code: pass.Code,
		PaymentMethod: g.PaymentMethod, OtherPaymentType: g.OtherPaymentType})
	if err != nil {
		return payment.Granted{}, fmt.Errorf("pass grant: %w", err)
	}
	return payment.Granted{Goods: goods}, nil
}

// Notify mails the member the pass after settlement.
func (p Sale) Notify(ctx context.Context, g payment.Grant, granted payment.Granted) error {
	var goods Goods
	if err := json.Unmarshal(granted.Goods, &goods); err != nil {
		return fmt.Errorf("pass notify: %w", err)
	}
	pp := goods.PurchasedGogoPass
	// the goods name the pass in the purchase's language; the mail names it
	// in its own, from the order's key (the written name for an order
	// recorded without one)
	key := pp.Name
	var d orderDetails
	if json.Unmarshal(g.Order.Details, &d) == nil && d.NameKey != "" {
		key = d.NameKey
	}
	if err := p.s.send(ctx, g.MemberID, g.Lang, Mail{Kind: MailIssued, NameKey: key, Period: pp.AvailablePeriodToBoard, Code: pp.Code}); err != nil {
		return fmt.Errorf("pass notify: %w", err)
	}
	return nil
}

// Describe is what a pass order buys, in lang: the plan's name and the
// boarding window; "" for an order recorded without the name's key.
func (p Sale) Describe(lang i18n.Lang, o payment.Order) string {
	var d orderDetails
	if json.Unmarshal(o.Details, &d) != nil || d.NameKey == "" {
		return ""
	}
	return p.s.d.Translate(string(lang), d.NameKey) + " " + RangeIn(lang, d.Board)
}

// period finds a plan (names as catalogue keys) by a period, whether or
// not it is still on sale.
func (s *Service) period(ctx context.Context, planID, periodID string) (Plan, error) {
	plans, err := s.d.Store.Plans(ctx)
	if err != nil {
		return Plan{}, err
	}
	for _, p := range plans {
		for _, pe := range p.Periods {
			if p.ID == planID && pe.ID == periodID {
				return p, nil
			}
		}
	}
	return Plan{}, errors.New("unknown plan period " + planID + "/" + periodID)
}
