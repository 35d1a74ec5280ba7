// Package coupon is the discovery coupon pass (the "coupon ticket"): a
// fixed-period book of flights in the lite or standard plan, bought for the
// member and additional passengers through the payment engine, viewed, and
// refunded less a fee per item. It holds the rules; SQL is in internal/store.
package coupon

import (
	"context"
	"errors"
	"time"

	"members/internal/pass"
	"members/internal/payment"
)

// Plans of a period, as the member chooses them.
const (
	PlanLite     = "lite"
	PlanStandard = "standard"
)

// Fare types of a purchased coupon: happy is the Lite plan, happlus the
// Standard plan.
const (
	FareHappy   = pass.FareHappy
	FareHapplus = pass.FareHapplus
)

// FareOf returns the purchased fare type of a plan.
func FareOf(plan string) string {
	if plan == PlanLite {
		return FareHappy
	}
	return FareHapplus
}

// RefundFeePerItem is the refund fee per coupon item, in yen.
const RefundFeePerItem = 9000

// Currency of the coupon pass: the refund fee is in yen, so coupons are
// sold in yen only.
const Currency = "JPY"

// Plan is one plan of a period.
type Plan struct {
	AvailableDaysAfterFirstUse int    `json:"availableDaysAfterFirstUse"`
	AvailableNumberOfUse       int    `json:"availableNumberOfUse"`
	CurrencyCode               string `json:"currencyCode"`
	PricePerPerson             int64  `json:"pricePerPerson"`
}

// Plans are the two plans of a period.
type Plans struct {
	Lite     Plan `json:"lite"`
	Standard Plan `json:"standard"`
}

// Of returns the plan by name.
func (p Plans) Of(name string) Plan {
	if name == PlanLite {
		return p.Lite
	}
	return p.Standard
}

// Period is one sale of a product.
type Period struct {
	ID                     string     `json:"id"`
	Description            string     `json:"description"`
	AvailablePeriodToBoard pass.Range `json:"availablePeriodToBoard"`
	AvailablePeriodToBook  pass.Range `json:"availablePeriodToBook"`
	Plan                   Plans      `json:"plan"`
}

// Product is a coupon pass product.
type Product struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// International: the trips cross a border, so each passenger's
	// nationality, passport and entry details are asked; a domestic
	// product asks none of them.
	International bool     `json:"international"`
	Periods       []Period `json:"periods"`
}

// Passenger types of additional passengers.
const (
	TypeAdult  = "adult"
	TypeChild  = "child"
	TypeInfant = "infant"
)

// Means of entry into the country.
var TransportMethods = []string{"air", "sea"}

// Passenger is a coupon passenger's information.
type Passenger struct {
	PassengerType          string `json:"passengerType"`
	Lastname               string `json:"lastname"`
	Firstname              string `json:"firstname"`
	Gender                 string `json:"gender"`
	DateOfBirth            string `json:"dateOfBirth"`
	NationalityCode        string `json:"nationalityCode"`
	PassportNo             string `json:"passportNo"`
	DateOfEntry            string `json:"dateOfEntry"`
	InboundTransportMethod string `json:"inboundTransportMethod"`
	InboundFlightNo        string `json:"inboundFlightNo"`
}

// Purchaser is the member who bought a coupon.
type Purchaser struct {
	Lastname  string `json:"lastname"`
	Firstname string `json:"firstname"`
	Birthday  string `json:"birthday"`
	Gender    string `json:"gender"`
}

// Coupon is a purchased coupon pass with every display field.
type Coupon struct {
	ID                         string      `json:"id"`
	Name                       string      `json:"name"`
	Description                string      `json:"description"`
	AvailablePeriodToBoard     pass.Range  `json:"availablePeriodToBoard"`
	AvailablePeriodToBook      pass.Range  `json:"availablePeriodToBook"`
	FareType                   string      `json:"fareType"`
	CurrencyCode               string      `json:"currencyCode"`
	PricePerPerson             int64       `json:"pricePerPerson"`
	PurchasedPrice             int64       `json:"purchasedPrice"`
	PurchasedAt                time.Time   `json:"purchasedAt"`
	Purchaser                  Purchaser   `json:"purchaser"`
	AvailableDaysAfterFirstUse int         `json:"availableDaysAfterFirstUse"`
	AvailableNumberOfUse       int         `json:"availableNumberOfUse"`
	NumberOfUsed               int         `json:"numberOfUsed"`
	Items                      int         `json:"items"`
	Passengers                 []Passenger `json:"passengers"`
	RefundFee                  int64       `json:"refundFee"`
	RefundAmount               int64       `json:"refundAmount"`
	Refundable                 bool        `json:"refundable"`
	Disabled                   bool        `json:"disabled"`
	RefundedAt                 *time.Time  `json:"refundedAt,omitempty"`
	MemberID                   string      `json:"-"`
	ProductID                  string      `json:"-"`
	PeriodID                   string      `json:"-"`
	PaymentProcessID           string      `json:"-"`
}

// Refund returns the refund fee and amount of a coupon: the fee is
// RefundFeePerItem for each paid item (a passenger with a seat), never
// more than what was paid.
func Refund(purchasedPrice int64, items int) (fee, amount int64) {
	fee = int64(items) * RefundFeePerItem
	if fee > purchasedPrice {
		fee = purchasedPrice
	}
	return fee, purchasedPrice - fee
}

// Store errors.
var (
	ErrNotFound = errors.New("coupon: not found")
	ErrConflict = errors.New("coupon: conflict")
)

// Prepared is a selection saved by /coupon_ticket/buy/prepare under the
// member's request id.
type Prepared struct {
	RequestID string
	MemberID  string
	Body      []byte
	CreatedAt time.Time
}

// Store is what the coupon pass needs from the database.
type Store interface {
	// Products returns every product with its periods, in display order.
	Products(ctx context.Context) ([]Product, error)
	// SavePrepared stores (or replaces) the member's prepared selection.
	SavePrepared(ctx context.Context, p Prepared) error
	// Prepared returns the member's prepared selection; ErrNotFound for
	// another member's or an unknown request id.
	Prepared(ctx context.Context, memberID, requestID string) (Prepared, error)
	// Coupons returns the member's coupons, newest first.
	Coupons(ctx context.Context, memberID string) ([]Coupon, error)
	// Coupon returns one of the member's coupons; ErrNotFound otherwise.
	Coupon(ctx context.Context, memberID, id string) (Coupon, error)
	// InsertCoupon adds a coupon and its passengers inside tx; ErrConflict
	// when its payment process already has a coupon.
	InsertCoupon(ctx context.Context, tx payment.Tx, c Coupon) error
	// ClaimRefund marks the coupon as being refunded; ErrConflict when it
	// is already disabled or being refunded.
	ClaimRefund(ctx context.Context, memberID, id string) error
	// ReleaseRefund undoes ClaimRefund after a failed refund.
	ReleaseRefund(ctx context.Context, memberID, id string) error
	// CompleteRefund disables the coupon with its refund amount.
	CompleteRefund(ctx context.Context, memberID, id string, amount int64, at time.Time) error
	// EndByRefund disables the member's coupon of a payment process whose
	// refund the payment engine records as made, inside tx (that record's
	// transaction), whatever its refund state; false when it was already
	// disabled (or there is none).
	EndByRefund(ctx context.Context, tx payment.Tx, memberID, processID string, amount int64, at time.Time) (bool, error)
}
