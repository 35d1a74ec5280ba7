package points

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/payment"
	"members/internal/validate"
)

// ProductType is the points' name in the payment engine and the API.
const ProductType = "peachpoints"

// PurchaseAmounts are the face values a member can buy, in minor units,
// per currency: about 1,000 to 50,000 yen's worth in each, in round local
// amounts. A voucher costs its face value in the same currency.
var PurchaseAmounts = map[string][]int64{
	"JPY": {1000, 3000, 5000, 10000, 30000, 50000},
	"KRW": {10000, 30000, 50000, 100000, 300000, 500000},
	"CNY": {50, 100, 200, 500, 1000, 2000},
	"TWD": {300, 500, 1000, 3000, 5000, 10000},
	"HKD": {100, 200, 500, 1000, 2000, 3000},
	"THB": {300, 500, 1000, 3000, 5000, 10000},
	"SGD": {1000, 3000, 5000, 10000, 30000, 50000}, // 10.00 … 500.00
}

// PaymentMethodDefault is the sale record's payment method when the
// payment does not say (vouchers recorded before the method was kept).
const PaymentMethodDefault = "creditCard"

// Sale is the points purchase as a payment.Product (the unlimited and
// coupon passes' are each a Sale too).
type Sale struct{ svc *Service }

var (
	_ payment.Sale[PurchaseInput] = (*Sale)(nil)
	_ payment.Notifier            = (*Sale)(nil)
	_ payment.Offerer             = (*Sale)(nil)
	_ payment.Describer           = (*Sale)(nil)
	_ payment.Namer               = (*Sale)(nil)
)

// Sale returns the points purchase for the payment engine.
func (s *Service) Sale() *Sale { return &Sale{svc: s} }

// Type is "peachpoints".
func (p *Sale) Type() string { return ProductType }

// Offers lists the currencies and face values on sale, in the points'
// currency order: the same for every member (no per-member limit).
func (p *Sale) Offers(context.Context, string) ([]payment.CurrencyAmounts, error) {
	out := make([]payment.CurrencyAmounts, 0, len(Currencies))
	for _, c := range Currencies {
		out = append(out, payment.CurrencyAmounts{Currency: c, Amounts: slices.Clone(PurchaseAmounts[c])})
	}
	return out, nil
}

// PurchaseInput are the product fields of a purchase body.
type PurchaseInput struct {
	Nominee      string `json:"nominee"`
	CurrencyCode string `json:"currencyCode"`
	Amount       int64  `json:"amount"`
}

// CheckPurchase normalises and checks the purchase fields (nominee,
// currency unit and amount are required).
func CheckPurchase(in PurchaseInput) (PurchaseInput, validate.Errors) {
	in.Nominee = strings.Join(strings.Fields(in.Nominee), " ")
	in.CurrencyCode = strings.ToUpper(strings.TrimSpace(in.CurrencyCode))
	errs := validate.Errors{}
	if errs.Required("nominee", in.Nominee) {
		errs.MaxLen("nominee", in.Nominee, MaxTextLength)
		errs.Check("nominee", validate.IsLatinName(in.Nominee), "points.validation.nominee")
	}
	if errs.Required("currencyCode", in.CurrencyCode) {
		errs.Check("currencyCode", ValidCurrency(in.CurrencyCode), "points.validation.currency")
	}
	if in.Amount == 0 {
		errs.Add("amount", "validation.required")
	} else if !errs.Has("currencyCode") {
		errs.Check("amount", slices.Contains(PurchaseAmounts[in.CurrencyCode], in.Amount), "points.validation.amount")
	}
	return in, errs
}

// Quote checks the purchase fields and prices the voucher.
func (p *Sale) Quote(ctx context.Context, memberID, lang string, in PurchaseInput) (payment.Order, error) {
	in, errs := CheckPurchase(in)
	if !errs.Empty() {
		return payment.Order{}, apperr.FromFields(errs)
	}
	// The order's amount and currency are the voucher's face value: the
	// details keep only what the order does not (the amount is stored once).
	details, err := json.Marshal(saleDetails{Nominee: in.Nominee})
	if err != nil {
		return payment.Order{}, fmt.Errorf("quote: %w", err)
	}
	l, _ := i18n.Parse(lang)
	o := payment.Order{Amount: in.Amount, Currency: in.CurrencyCode, Details: details}
	o.Description = p.Describe(l, o)
	return o, nil
}

// Describe is what a points order buys, in lang (the voucher's currency
// is the order's).
func (p *Sale) Describe(lang i18n.Lang, o payment.Order) string {
	return p.svc.catalog.T(lang, "points.purchase.description", "currency", o.Currency)
}

// Name is what a points order buys beside its amount, which gives the
// currency: "Peach Points" in "Peach Points (JPY 3,000)".
func (p *Sale) Name(lang i18n.Lang, _ payment.Order) string {
	return p.svc.catalog.T(lang, "points.purchase.name")
}

// saleDetails are the purchase's fields the order does not hold already.
// A process recorded before held the amount and currency here too; they
// are read from the order now (the same values).
type saleDetails struct {
	Nominee string `json:"nominee"`
}

// Goods is the sale record shown in the status answers.
type Goods struct {
	PointNumber           string `json:"pointNumber"`
	IssuedCurrencyAmount  int64  `json:"issuedCurrencyAmount"`
	CurrencyCode          string `json:"currencyCode"`
	EffectiveDate         string `json:"effectiveDate"`
	ExpireDate            string `json:"expireDate"`
	IssuedName            string `json:"issuedName"`
	PaymentCurrencyAmount int64  `json:"paymentCurrencyAmount"`
	PaymentMethod         string `json:"paymentMethod"`
	OtherPaymentType      string `json:"otherPaymentType,omitempty"`
}

// Secret is the voucher's PIN, shown once.
type Secret struct {
	Pin string `json:"pin"`
}

// preparedPin is a new voucher's pin and its hash, made before the
// settlement transaction (a keyed HMAC now, microseconds; it kept argon2id's
// tens of milliseconds out of SQLite's write lock before).
type preparedPin struct{ pin, hash string }

func (p *Sale) newPin() (preparedPin, error) {
	pin := NewPin()
	h, err := p.svc.hasher.Hash(pin)
	if err != nil {
		return preparedPin{}, fmt.Errorf("hash pin: %w", err)
	}
	return preparedPin{pin: pin, hash: h}, nil
}

// Prepare hashes the new voucher's pin outside the settlement transaction.
func (p *Sale) Prepare(_ context.Context, _ payment.Grant) (any, error) { return p.newPin() }

// Grant issues the voucher in the settlement transaction. The voucher row
// carries the process id under a UNIQUE constraint: a second grant for the
// same process fails instead of issuing twice.
func (p *Sale) Grant(ctx context.Context, tx payment.Tx, g payment.Grant) (payment.Granted, error) {
	var in saleDetails
	if err := json.Unmarshal(g.Order.Details, &in); err != nil {
		return payment.Granted{}, fmt.Errorf("grant points: details: %w", err)
	}
	// a voucher's face value is what was paid for it, in its currency
	v := newVoucher(g.MemberID, g.Order.Currency, g.Order.Amount, SourcePurchase, g.SettledAt)
	v.PaymentProcessID, v.IssuedName = g.ProcessID, in.Nominee
	v.PaymentAmount, v.PaymentMethod = g.Order.Amount, g.PaymentMethod
	if v.PaymentMethod == "" {
		v.PaymentMethod = PaymentMethodDefault
	}
	pp, ok := g.Prepared.(preparedPin)
	if !ok {
		var err error
		if pp, err = p.newPin(); err != nil {
			return payment.Granted{}, err
		}
	}
	pin := pp.pin
	v.PinHash = pp.hash
	if err := p.svc.store.Create(ctx, tx, v, "payment:"+g.ProcessID); err != nil {
		return payment.Granted{}, fmt.Errorf("grant points: %w", err)
	}
	goods, _ := json.Marshal(Goods{
		PointNumber: v.Number, IssuedCurrencyAmount: v.IssuedAmount, CurrencyCode: v.Currency,
		EffectiveDate: v.EffectiveDate, ExpireDate: v.ExpireDate, IssuedName: v.IssuedName,
		PaymentCurrencyAmount: v.PaymentAmount, PaymentMethod: v.PaymentMethod, OtherPaymentType: g.OtherPaymentType,
	})
	secret, _ := json.Marshal(Secret{Pin: pin})
	return payment.Granted{Goods: goods, Secret: secret}, nil
}

// Notify mails the member the new voucher's number and PIN.
func (p *Sale) Notify(ctx context.Context, g payment.Grant, granted payment.Granted) error {
	var goods Goods
	var sec Secret
	if err := json.Unmarshal(granted.Goods, &goods); err != nil {
		return fmt.Errorf("notify points: %w", err)
	}
	if err := json.Unmarshal(granted.Secret, &sec); err != nil {
		return fmt.Errorf("notify points: %w", err)
	}
	v, err := p.svc.store.ByNumber(ctx, goods.PointNumber)
	if err != nil {
		return fmt.Errorf("notify points: %w", err)
	}
	lang, _ := i18n.Parse(g.Lang) // the purchase's page
	return p.svc.notify(ctx, g.MemberID, "issued", v, sec.Pin, lang)
}

// SaleCurrency is the amounts on sale in one currency.
type SaleCurrency struct {
	CurrencyCode string  `json:"currencyCode"`
	Amounts      []int64 `json:"amounts"`
}

// SaleOptions lists the purchasable face values in the summary order.
type SaleOptions struct {
	Currencies []SaleCurrency `json:"currencies"`
}

// SaleOptions returns the purchasable amounts.
func (s *Service) SaleOptions() SaleOptions {
	out := SaleOptions{Currencies: make([]SaleCurrency, 0, len(Currencies))}
	for _, c := range Currencies {
		out.Currencies = append(out.Currencies, SaleCurrency{c, PurchaseAmounts[c]})
	}
	return out
}
