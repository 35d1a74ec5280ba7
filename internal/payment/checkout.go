package payment

import (
	"context"
	"sync"

	"members/internal/i18n"
)

// Register makes s a product of e and returns its checkout, where its
// purchases are checked and bought with fields of s's own input type.
func Register[T any](e *Engine, s Sale[T]) *Checkout[T] {
	e.register(s)
	return &Checkout[T]{e: e, sale: s}
}

// Checkout is one product's way into the engine: its purchases' product
// fields are a T, the type its Quote takes.
type Checkout[T any] struct {
	e    *Engine
	mu   sync.RWMutex
	sale Sale[T]
}

// Replace sells s through c in place of its product, and registers it for
// the grants (tests that count grants with a product of their own).
func Replace[T any](c *Checkout[T], s Sale[T]) {
	c.mu.Lock()
	c.sale = s
	c.mu.Unlock()
	c.e.replace(s)
}

func (c *Checkout[T]) current() Sale[T] {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.sale
}

// Type is the product's API name.
func (c *Checkout[T]) Type() string { return c.current().Type() }

// bind is pur with the product's Quote bound to its fields.
func (c *Checkout[T]) bind(pur Purchase[T]) quoted {
	sale := c.current()
	return quoted{
		Payment: pur.Payment, Canonical: pur.Canonical, PaymentErr: pur.PaymentErr, ProductErr: pur.ProductErr,
		quote: func(ctx context.Context, memberID, lang string) (Order, error) {
			return sale.Quote(ctx, memberID, lang, pur.Product)
		},
	}
}

// Validate checks a purchase and prices it (…/buy/validate).
func (c *Checkout[T]) Validate(ctx context.Context, memberID string, lang i18n.Lang, pur Purchase[T]) (Quote, error) {
	return c.e.validate(ctx, memberID, lang, c.Type(), c.bind(pur))
}

// Buy records the tentative order of a purchase (…/buy).
func (c *Checkout[T]) Buy(ctx context.Context, memberID string, lang i18n.Lang, pur Purchase[T]) (View, error) {
	return c.e.buy(ctx, memberID, lang, c.Type(), c.bind(pur))
}
