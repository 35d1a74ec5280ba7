package payment

import (
	"context"
	"fmt"

	"members/internal/i18n"
)

// Describer is implemented by products that can write what an order buys
// in any language. The process keeps the description in the language the
// purchase was made in (the gateway is sent it); a mail about the process
// may go out in another language (the member's mail language) and a
// payment page may be read in another (the member switched the page's
// language after ordering), so the engine asks the product to write the
// item anew in the mail's or the page's language from the order's details,
// which hold catalogue keys and not words.
type Describer interface {
	// Describe is what the order buys, in lang; "" when the details do
	// not say (a process recorded before they held what it needs).
	Describe(lang i18n.Lang, o Order) string
}

// Namer is implemented by products whose description says what the
// order's amount says too (the points' currency: "Peach Points (JPY)").
// Name is what the order buys in a text that gives the amount beside it,
// so the mail reads "Peach Points (JPY 3,000)", not "Peach Points (JPY)
// (JPY 3,000)"; "" when the details do not say.
type Namer interface {
	Name(lang i18n.Lang, o Order) string
}

// itemName is what process p buys, in lang, for a text that gives its
// amount beside it: the product's Name when it has one, else describe.
func (e *Engine) itemName(p Process, lang i18n.Lang) string {
	prod, err := e.product(p.ProductType)
	if n, ok := prod.(Namer); ok && err == nil {
		if s := n.Name(lang, Order{Amount: p.Amount, Currency: p.Currency, Description: p.Description, Details: p.Details}); s != "" {
			return s
		}
	}
	return e.describe(p, lang)
}

// describe is what process p buys, in lang: written by its product when it
// can, else the description stored with the process.
func (e *Engine) describe(p Process, lang i18n.Lang) string {
	return e.describeOrder(p.ProductType, Order{Amount: p.Amount, Currency: p.Currency, Description: p.Description, Details: p.Details}, lang)
}

// describeOrder is what order o of a productType buys, in lang: written by
// the product when it can, else the order's stored description.
func (e *Engine) describeOrder(productType string, o Order, lang i18n.Lang) string {
	prod, err := e.product(productType)
	if d, ok := prod.(Describer); ok && err == nil {
		if s := d.Describe(lang, o); s != "" {
			return s
		}
	}
	return o.Description
}

// InLang is the member's view v with its description in lang, the
// language of the page that asked: an order made on an English page and
// read on a Thai one names its item in Thai, as the member's passes do.
func (e *Engine) InLang(lang i18n.Lang, v View) View {
	v.Description = e.describeOrder(v.ProductType,
		Order{Amount: v.Amount, Currency: v.Currency, Description: v.Description, Details: v.Details}, lang)
	return v
}

// PendingPaymentsIn is PendingPayments with each payment's description in
// lang, the language of the page that asked.
func (e *Engine) PendingPaymentsIn(ctx context.Context, memberID string, lang i18n.Lang) (PendingList, error) {
	out, err := e.PendingPayments(ctx, memberID)
	if err != nil {
		return out, err
	}
	for i := range out.Payments {
		p, err := e.store.Process(ctx, out.Payments[i].PaymentProcessID)
		if err != nil {
			return PendingList{}, fmt.Errorf("payment: pending payments: %w", err)
		}
		out.Payments[i].Description = e.describe(p, lang)
	}
	return out, nil
}
