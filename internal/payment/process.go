package payment

import (
	"encoding/json"
	"time"
)

// Status is a payment process's state.
type Status string

// The states of a payment process (docs/payments.md).
const (
	Prepared Status = "prepared" // the tentative order of POST …/buy
	Pending  Status = "pending"  // continue was called; the gateway is working
	Settled  Status = "settled"  // captured, goods granted (one transaction)
	Failed   Status = "failed"   // declined, challenge failed
	Expired  Status = "expired"  // not paid in time, or superseded by a newer order
	Refunded Status = "refunded" // settled, then (partly) refunded
)

// transitions lists every legal move. The store refuses any other by a
// conditional UPDATE (… WHERE status = from), so a repeated or racing
// transition changes nothing.
var transitions = map[Status][]Status{
	Prepared: {Pending, Expired},
	Pending:  {Settled, Failed, Expired},
	Settled:  {Refunded},
	Refunded: {Refunded}, // a second partial refund
}

// CanMove reports whether from → to is a legal transition.
func CanMove(from, to Status) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// Open reports whether a process in s still blocks a new purchase.
func (s Status) Open() bool { return s == Prepared || s == Pending }

// Payment methods of a purchase.
const (
	MethodCreditCard       = "creditCard"
	MethodOtherPayment     = "otherPayment"
	MethodConvenienceStore = "convenienceStore"
)

// Failure codes the engine records itself (the gateway's are passed on).
const (
	FailSuperseded = "superseded" // a newer order by the same member (second window)
	FailCanceled   = "canceled"   // the member cancelled a payment left for later
)

// Process is one purchase's payment process as stored.
type Process struct {
	ID               string
	MemberID         string
	RequestID        string
	RequestHash      string
	ProductType      string
	Status           Status
	Lang             string
	Amount           int64
	Currency         string
	Description      string
	Details          json.RawMessage
	PaymentMethod    string
	OtherPaymentType string
	Card             ProcessCard
	SaveCard         bool
	SaveCardCurrency string
	GatewayPaymentID string
	GatewayStatus    string
	NextActionURL    string
	FailureCode      string
	Goods            json.RawMessage
	Secret           json.RawMessage
	// Slip: the numbers of a konbini / ATM / net-banking slip (the
	// gateway's JSON), recorded once when the slip is issued.
	Slip           json.RawMessage
	RefundedAmount int64
	Notified       bool
	// RefundMailOwed: a refund ended the goods and the member's mail
	// about it is not in the outbox yet.
	RefundMailOwed bool
	// BlockUntil ends the purchase block the process holds while open
	// (about 30 minutes after its continue); ExpiresAt, its deadline, may
	// be days later (a slip). ExclusiveKey is its product type and the
	// Order's Once ("" for none).
	BlockUntil   time.Time
	ExclusiveKey string
	NextCheckAt  time.Time
	LeaseUntil   time.Time
	ExpiresAt    time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
	SettledAt    *time.Time
}

// ProcessCard is the card a process pays with (never the number).
type ProcessCard struct {
	Gateway        string
	Token          string
	Brand          string
	Last4          string
	ExpirationDate string
	HolderName     string
}

// NextAction is a step the member does at the gateway (challenge, QR,
// payment slip): the browser goes to URL and comes back by redirect.
type NextAction struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// CardView is the card shown on a process.
type CardView struct {
	Brand string `json:"brand"`
	Last4 string `json:"last4"`
}

// View is a process as the member sees it (buy, continue and status answers).
type View struct {
	PaymentProcessID string          `json:"paymentProcessId"`
	TransactionID    string          `json:"transactionId"`
	ProductType      string          `json:"productType"`
	Status           Status          `json:"status"`
	Amount           int64           `json:"amount"`
	Currency         string          `json:"currency"`
	Description      string          `json:"description"`
	PaymentMethod    string          `json:"paymentMethod"`
	OtherPaymentType string          `json:"otherPaymentType,omitempty"`
	Card             *CardView       `json:"card,omitempty"`
	Details          json.RawMessage `json:"details"`
	NextAction       *NextAction     `json:"nextAction,omitempty"`
	Slip             *Slip           `json:"slip,omitempty"`
	FailureCode      string          `json:"failureCode,omitempty"`
	Goods            json.RawMessage `json:"goods,omitempty"`
	Secret           json.RawMessage `json:"secret,omitempty"`
	RefundedAmount   int64           `json:"refundedAmount"`
	CreatedAt        time.Time       `json:"createdAt"`
	ExpiresAt        time.Time       `json:"expiresAt"`
	SettledAt        *time.Time      `json:"settledAt,omitempty"`
	// ReplacedBy: the order of another window or tab that replaced this
	// one (failure code superseded), for its page to link to.
	ReplacedBy *Replacement `json:"replacedBy,omitempty"`
}

// Replacement names the order that replaced a superseded one.
type Replacement struct {
	PaymentProcessID string `json:"paymentProcessId"`
	ProductType      string `json:"productType"`
}

// view builds the member's view of p. The transaction id is the process
// id: one process makes at most one gateway payment.
func (p *Process) view() View {
	v := View{
		PaymentProcessID: p.ID, TransactionID: p.ID, ProductType: p.ProductType, Status: p.Status,
		Amount: p.Amount, Currency: p.Currency, Description: p.Description, PaymentMethod: p.PaymentMethod,
		OtherPaymentType: p.OtherPaymentType, Details: p.Details, FailureCode: p.FailureCode,
		RefundedAmount: p.RefundedAmount, CreatedAt: p.CreatedAt.UTC(), ExpiresAt: p.ExpiresAt.UTC(),
	}
	if len(v.Details) == 0 {
		v.Details = json.RawMessage(`{}`)
	}
	if p.Card.Last4 != "" {
		v.Card = &CardView{Brand: p.Card.Brand, Last4: p.Card.Last4}
	}
	if p.Status == Pending && p.NextActionURL != "" {
		v.NextAction = &NextAction{Type: "redirect", URL: p.NextActionURL}
	}
	if p.Status == Pending && len(p.Slip) > 0 {
		var s Slip
		if json.Unmarshal(p.Slip, &s) == nil {
			v.Slip = &s
		}
	}
	if p.Status == Settled || p.Status == Refunded {
		if len(p.Goods) > 0 {
			v.Goods = p.Goods
		}
	}
	if p.SettledAt != nil {
		t := p.SettledAt.UTC()
		v.SettledAt = &t
	}
	return v
}
