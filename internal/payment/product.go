// Package payment is the payment engine shared by every product (points,
// the unlimited pass, the coupon pass): one payment process per purchase,
// kept as a state machine in the database, talking to a payment service
// provider through the Gateway interface. docs/payments.md has the contract.
package payment

import (
	"context"
	"encoding/json"
	"time"
)

// Purchase is a purchase body decoded once, at the edge, from the
// product's type in the API description, and split in two: the engine's
// payment fields and the product's own, of the product's input type T
// (points.PurchaseInput, coupon.Selection, pass.Selection), which reach
// the product's Quote as they are. Nothing after the edge parses the body
// again.
type Purchase[T any] struct {
	Payment Fields
	// Product is the product's fields.
	Product T
	// Canonical is the body re-encoded from its typed value without
	// requestId (object keys in a fixed order): its hash tells a repeated
	// buy from a changed one under the same requestId.
	Canonical []byte
	// PaymentErr or ProductErr is set when that side's fields did not
	// decode (a value of the wrong JSON type). The engine answers them
	// where it would have met them: the payment fields' at once, the
	// product's in place of its Quote, with the payment fields' own field
	// errors beside it.
	PaymentErr error
	ProductErr error
}

// quoted is a purchase as the engine checks it: whatever the product's
// input type, its Quote is bound to the product's fields (Checkout makes
// it), so nothing recovers a type at run time.
type quoted struct {
	Payment    Fields
	quote      func(ctx context.Context, memberID, lang string) (Order, error)
	Canonical  []byte
	PaymentErr error
	ProductErr error
}

// Order is what a product asks the member to pay for, as priced by Quote.
type Order struct {
	// Amount in the currency's minor unit (SGD has two decimals, the others none).
	Amount int64
	// Currency is one of JPY KRW CNY TWD HKD THB SGD.
	Currency string
	// Description is shown on the payment pages and sent to the gateway
	// (in the member's language).
	Description string
	// Details are the product's purchase fields, normalised; the engine
	// stores them with the process and hands them back to Grant.
	Details json.RawMessage
	// Once names goods a member may not pay for twice (the unlimited
	// pass: its period), "" for goods bought any number of times. While
	// an open payment of the member holds it (a slip left for later, past
	// its purchase block), another purchase of the same goods is refused
	// with ErrPendingSameGoods; the database keeps it (a unique index), so
	// two parallel requests cannot both pass.
	Once string
}

// Grant is a settled process handed to its product.
type Grant struct {
	ProcessID string
	MemberID  string
	Lang      string
	Order     Order
	SettledAt time.Time
	// PaymentMethod is how the member paid (creditCard, otherPayment or
	// convenienceStore) and OtherPaymentType the QR or wallet of an
	// otherPayment (paypay, alipay, …): products record what was used.
	PaymentMethod    string
	OtherPaymentType string
	// Prepared is what the product's Preparer returned for this grant, if
	// it has one.
	Prepared any
}

// Granted is what a product created for a settled process.
type Granted struct {
	// Goods are shown in every status answer of the process (JSON object).
	Goods json.RawMessage
	// Secret is shown once, in the first status answer its owner reads after
	// settlement (a voucher's pin), then erased by the engine.
	Secret json.RawMessage
}

// Product is one kind of goods bought through the engine, as the engine
// keeps it: it calls Grant exactly once per process, inside the
// transaction that records settlement, so goods and settlement commit
// together or not at all.
type Product interface {
	// Type is the product's API name: "peachpoints", "gogo_pass" or "coupon_ticket".
	Type() string
	// Grant creates the goods in tx, the settlement's unit of work, by
	// handing it to the product's own store. It must not end tx.
	Grant(ctx context.Context, tx Tx, g Grant) (Granted, error)
}

// Sale is a product as a product package sells it: a Product whose
// purchase fields are a T. Register ties T to the product's checkout, so a
// product's fields handed to another product fail the build.
type Sale[T any] interface {
	Product
	// Quote checks the product's fields of a purchase and prices them.
	// Field problems are an *apperr.Error from apperr.FromFields (400).
	Quote(ctx context.Context, memberID, lang string, in T) (Order, error)
}

// Tx is the unit of work of a settlement (and of a refund's record, for
// RefundEnder): what a product's grant writes through it commits together
// with the settlement, or not at all. The
// store that settles makes it and only stores read it: a product passes
// it on to its own store's write (points, passes and coupons take a Tx),
// so no product touches the database itself.
type Tx interface {
	// UnitOfWork marks the settlement transaction.
	UnitOfWork()
}

// RefundEnder is implemented by products whose goods end with a refund
// (the coupon pass). Goods follow money in one transaction: EndGoods runs
// inside the transaction that records a refund of the product's process
// as made (the refund's done flag and the process's refunded amount),
// whoever made it: the member's request, the background work making a
// refund whose answer was lost, or a refund event the gateway's record
// confirms. It ends the goods through the product's own store with that
// unit of work (the coupon: disabled, no longer usable or refundable), so
// the refund and the end of the goods commit together or not at all. It
// reports whether it changed them (false: they had ended before); an
// error rolls the record of the refund back too, and the worker makes the
// owed refund again later. When it changed them, the same transaction
// records the member's mail as owed, and Refunded sends it after the
// commit (the worker's sweep does after a crash in between); Refunded
// returns an error only when the mail was not stored (it stays owed).
type RefundEnder interface {
	EndGoods(ctx context.Context, tx Tx, r RefundDone) (bool, error)
	Refunded(ctx context.Context, r RefundDone) error
}

// RefundDone is a refund made through the gateway.
type RefundDone struct {
	ProcessID, MemberID, Lang, Reason string
	Amount                            int64
	At                                time.Time
}

// Notifier is implemented by products that mail the member after a grant
// (the issued voucher, the pass). The engine calls it after the settlement
// transaction commits; a failure is logged, never undoes the grant.
type Notifier interface {
	Notify(ctx context.Context, g Grant, granted Granted) error
}

// Opener is implemented by products that close for a while (the
// unlimited pass's daily maintenance window). Continue asks it before a
// prepared payment starts, since a member may prepare an order just
// before the window and press Pay inside it: a closed product refuses
// with its own error and the process stays prepared. A payment already
// under way (a slip issued, a QR code shown) is not asked again: the
// member's money is moving, so it is honoured.
type Opener interface {
	Open(ctx context.Context) error
}

// Preparer is implemented by products whose grant needs slow work (hashing
// a voucher's pin) that must not hold the settlement transaction: on
// SQLite that transaction holds the one write lock, so every settlement
// would wait for the hash before it. The engine calls Prepare before the
// transaction and passes the result to Grant in Grant.Prepared. A prepared
// value may go unused (the process was settled elsewhere meanwhile).
type Preparer interface {
	Prepare(ctx context.Context, g Grant) (any, error)
}
