package coupon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/payment"
)

// Sale is the coupon pass as sold through the payment engine.
type Sale struct{ s *Service }

var (
	_ payment.Sale[Selection] = Sale{}
	_ payment.Notifier        = Sale{}
	_ payment.Describer       = Sale{}
	_ payment.RefundEnder     = Sale{}
)

// EndGoods disables the coupon of a process whose refund the engine
// records as made, inside that record's transaction (tx): the member's
// refund on the page, a refund whose answer was lost and that the
// background work made again, or one a refund event the gateway's record
// confirmed. The refund and the coupon's end commit together: no state
// has the refund recorded and the coupon still usable or refundable.
// False when the coupon was disabled before (or there is none).
func (p Sale) EndGoods(ctx context.Context, tx payment.Tx, r payment.RefundDone) (bool, error) {
	ended, err := p.s.d.Store.EndByRefund(ctx, tx, r.MemberID, r.ProcessID, r.Amount, r.At.UTC().Truncate(time.Millisecond))
	if err != nil {
		return false, fmt.Errorf("coupon refunded: %w", err)
	}
	return ended, nil
}

// Refunded mails the member that the coupon was refunded, once its end is
// committed (the engine calls it once per end, and again only when the
// mail was not stored). An error means the mail was not stored and stays
// owed; one stored and not delivered yet is the outbox's to retry.
func (p Sale) Refunded(ctx context.Context, r payment.RefundDone) error {
	cs, err := p.s.d.Store.Coupons(ctx, r.MemberID)
	if err != nil {
		return fmt.Errorf("coupon refunded: %w", err)
	}
	for _, c := range cs {
		if c.PaymentProcessID != r.ProcessID {
			continue
		}
		nameKey, descriptionKey := c.Name, c.Description
		c = p.s.view(c, r.Lang)
		c.Name, c.Description = nameKey, descriptionKey
		if err := p.s.send(ctx, r.MemberID, r.Lang, MailRefunded, c); err != nil && !errors.Is(err, mail.ErrNotSent) {
			return fmt.Errorf("coupon refunded: mail: %w", err)
		}
	}
	return nil
}

// ProductType is the coupon pass's name in the payment engine and the API.
const ProductType = "coupon_ticket"

// Sale returns the coupon's payment product.
func (s *Service) Sale() Sale { return Sale{s: s} }

// Type is the product's API name.
func (Sale) Type() string { return ProductType }

// orderDetails are what Grant needs, fixed at Quote.
type orderDetails struct {
	Ticket
	NameKey        string `json:"nameKey"`
	DescriptionKey string `json:"descriptionKey"`
}

// Quote checks productId, periodId, fareType, additionalPassengers and the
// terms agreement (a Selection), and prices them.
func (p Sale) Quote(ctx context.Context, memberID, lang string, in Selection) (payment.Order, error) {
	t, err := p.s.Price(ctx, memberID, lang, in)
	if err != nil {
		return payment.Order{}, err
	}
	details, err := json.Marshal(orderDetails{Ticket: t, NameKey: t.productNameKey, DescriptionKey: t.productDescriptionKey})
	if err != nil {
		return payment.Order{}, fmt.Errorf("coupon order: %w", err)
	}
	return payment.Order{Amount: t.TotalPrice, Currency: t.CurrencyCode, Description: t.Name, Details: details}, nil
}

// Goods are the granted goods of a coupon purchase.
type Goods struct {
	CouponTicket Coupon `json:"couponTicket"`
	// PaymentMethod and OtherPaymentType are how the coupon was paid.
	PaymentMethod    string `json:"paymentMethod"`
	OtherPaymentType string `json:"otherPaymentType,omitempty"`
}

// Grant creates the coupon and its passengers in the settlement
// transaction (UNIQUE payment_process_id).
func (p Sale) Grant(ctx context.Context, tx payment.Tx, g payment.Grant) (payment.Granted, error) {
	s := p.s
	var d orderDetails
	if err := json.Unmarshal(g.Order.Details, &d); err != nil {
		return payment.Granted{}, fmt.Errorf("coupon grant: details: %w", err)
	}
	c := Coupon{
		ID: s.d.NewID(), MemberID: g.MemberID, ProductID: d.ProductID, PeriodID: d.PeriodID,
		Name: d.NameKey, Description: d.DescriptionKey,
		AvailablePeriodToBoard: d.Period.AvailablePeriodToBoard, AvailablePeriodToBook: d.Period.AvailablePeriodToBook,
		FareType: FareOf(d.FareType), CurrencyCode: g.Order.Currency, PricePerPerson: d.Plan.PricePerPerson,
		PurchasedPrice: g.Order.Amount, PurchasedAt: g.SettledAt.UTC().Truncate(time.Millisecond), Purchaser: d.Purchaser,
		AvailableDaysAfterFirstUse: d.Plan.AvailableDaysAfterFirstUse, AvailableNumberOfUse: d.Plan.AvailableNumberOfUse,
		Items: d.Items, Passengers: d.AdditionalPassengers, PaymentProcessID: g.ProcessID,
	}
	if err := s.d.Store.InsertCoupon(ctx, tx, c); err != nil {
		return payment.Granted{}, fmt.Errorf("coupon grant: %w", err)
	}
	goods, err := json.Marshal(Goods{CouponTicket: s.view(c, g.Lang),
		PaymentMethod: g.PaymentMethod, OtherPaymentType: g.OtherPaymentType})
	if err != nil {
		return payment.Granted{}, fmt.Errorf("coupon grant: %w", err)
	}
	return payment.Granted{Goods: goods}, nil
}

// Notify mails the member the coupon after settlement.
func (p Sale) Notify(ctx context.Context, g payment.Grant, granted payment.Granted) error {
	var goods Goods
	if err := json.Unmarshal(granted.Goods, &goods); err != nil {
		return fmt.Errorf("coupon notify: %w", err)
	}
	// the goods name the coupon in the purchase's language; the mail names
	// it in its own, from the order's keys
	c := goods.CouponTicket
	var d orderDetails
	if json.Unmarshal(g.Order.Details, &d) == nil && d.NameKey != "" {
		c.Name, c.Description = d.NameKey, d.DescriptionKey
	}
	if err := p.s.send(ctx, g.MemberID, g.Lang, MailPurchased, c); err != nil {
		return fmt.Errorf("coupon notify: %w", err)
	}
	return nil
}

// Describe is what a coupon order buys, in lang: the coupon pass's name;
// "" for an order recorded without its key.
func (p Sale) Describe(lang i18n.Lang, o payment.Order) string {
	var d orderDetails
	if json.Unmarshal(o.Details, &d) != nil || d.NameKey == "" {
		return ""
	}
	return p.s.d.Translate(string(lang), d.NameKey)
}
