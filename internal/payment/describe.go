package payment

import "members/internal/i18n"

// Describer is implemented by products that can write what an order buys
// in any language. The process keeps the description in the language the
// purchase was made in (the gateway and the payment pages show it); a mail
// about the process may go out in another language (the member's mail
// language), so the engine asks the product to write the item anew in the
// mail's language from the order's details, which hold catalogue keys and
// not words.
type Describer interface {
	// Describe is what the order buys, in lang; "" when the details do
	// not say (a process recorded before they held what it needs).
	Describe(lang i18n.Lang, o Order) string
}

// describe is what process p buys, in lang: written by its product when it
// can, else the description stored with the process.
func (e *Engine) describe(p Process, lang i18n.Lang) string {
	prod, err := e.product(p.ProductType)
	if d, ok := prod.(Describer); ok && err == nil {
		if s := d.Describe(lang, Order{Amount: p.Amount, Currency: p.Currency, Description: p.Description, Details: p.Details}); s != "" {
			return s
		}
	}
	return p.Description
}
