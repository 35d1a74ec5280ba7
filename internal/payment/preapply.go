package payment

import (
	"context"
	"fmt"
)

// Offer is what a member may buy in one currency: the amounts on sale
// (the product's limits) and the ways to pay in that currency.
type Offer struct {
	CurrencyCode string       `json:"currencyCode"`
	Amounts      []int64      `json:"amounts"`
	Availability Availability `json:"availability"`
}

// CurrencyAmounts is a product's amounts on sale in one currency.
type CurrencyAmounts struct {
	Currency string
	Amounts  []int64
}

// Offerer is implemented by products bought by amount (points): the
// currencies and amounts on sale, in the order the form lists them.
type Offerer interface {
	Offers(ctx context.Context, memberID string) ([]CurrencyAmounts, error)
}

// Preapplied answers …/buy/preapply: the member may start a purchase,
// and what the form offers.
type Preapplied struct {
	ProductType string  `json:"productType"`
	Currencies  []Offer `json:"currencies"`
}

// Preapply runs the checks that let a member start a purchase before the
// form is filled: the product is sold (404 otherwise), no payment of the
// member is still pending (ErrPending, the same 409 as buy gives), and it
// returns the currencies, amounts and ways to pay the form may offer.
func (e *Engine) Preapply(ctx context.Context, memberID, productType string) (Preapplied, error) {
	prod, err := e.product(productType)
	if err != nil {
		return Preapplied{}, err
	}
	pending, err := e.Pending(ctx, memberID)
	if err != nil {
		return Preapplied{}, err
	}
	if pending.Pending {
		return Preapplied{}, ErrPending
	}
	res := Preapplied{ProductType: productType, Currencies: []Offer{}}
	o, ok := prod.(Offerer)
	if !ok {
		return res, nil
	}
	offers, err := o.Offers(ctx, memberID)
	if err != nil {
		return Preapplied{}, fmt.Errorf("payment: preapply %s: %w", productType, err)
	}
	for _, c := range offers {
		if len(c.Amounts) == 0 || !ValidCurrency(c.Currency) {
			continue
		}
		res.Currencies = append(res.Currencies, Offer{
			CurrencyCode: c.Currency, Amounts: append([]int64(nil), c.Amounts...), Availability: e.availability(c.Currency),
		})
	}
	return res, nil
}
