package payment

import (
	"context"
	"errors"
	"time"
)

// Gateway is the payment service provider as the engine needs it. The
// sandbox gateway is reached through HTTPGateway; a real provider is one
// more implementation (docs/gateways.md maps the calls to Stripe and
// KOMOJU). Every call that moves money carries an idempotency key: a
// repeat with the same key answers the first result.
type Gateway interface {
	// Token looks up a card token made in the browser (ErrUnknownToken).
	Token(ctx context.Context, token string) (GatewayToken, error)
	// DeleteToken forgets a saved card's token (unknown tokens are not an error).
	DeleteToken(ctx context.Context, token string) error
	// VerifyCard asks the issuer about a card before it is saved: a
	// zero-amount authorisation under an idempotency key (ErrUnknownToken).
	VerifyCard(ctx context.Context, key, token string) (CardVerification, error)
	CreatePayment(ctx context.Context, key string, in CreatePayment) (GatewayPayment, error)
	// Authorize authorises a created payment; with autoCapture a card that
	// needs no customer step is captured in the same call (one round trip
	// instead of two; Stripe: capture_method "automatic"). A payment that
	// needs the customer (challenge, QR, konbini) comes back as without it.
	Authorize(ctx context.Context, key, paymentID string, autoCapture bool) (GatewayPayment, error)
	Capture(ctx context.Context, key, paymentID string) (GatewayPayment, error)
	Refund(ctx context.Context, key, paymentID string, amount int64) (GatewayPayment, error)
	// Cancel ends a payment still waiting for its customer (a slip, a QR
	// payment, a challenge) as failed ("canceled"). A payment paid
	// meanwhile is ErrGatewayRefused: read it and apply what it is.
	Cancel(ctx context.Context, key, paymentID string) (GatewayPayment, error)
	Payment(ctx context.Context, paymentID string) (GatewayPayment, error)
	// PaymentsByReference finds the payments made for a reference (the
	// process id) when a create answer was lost.
	PaymentsByReference(ctx context.Context, reference string) ([]GatewayPayment, error)
	// Name is the gateway name in tokens ("ndhk").
	Name() string
}

// GatewayToken is a tokenised card as the gateway shows it.
type GatewayToken struct {
	Token          string `json:"token"`
	Gateway        string `json:"gateway"`
	Brand          string `json:"brand"`
	Last4          string `json:"last4"`
	ExpirationDate string `json:"expirationDate"`
	HolderName     string `json:"holderName"`
}

// CardVerification is the answer of a zero-amount authorisation: Status
// "succeeded" or "failed" with the issuer's FailureCode (card_declined,
// expired_card, …).
type CardVerification struct {
	Token       string `json:"token"`
	Status      string `json:"status"`
	FailureCode string `json:"failureCode,omitempty"`
}

// Verification outcomes.
const (
	VerifySucceeded      = "succeeded"
	VerifyFailed         = "failed"
	VerifyRequiresAction = "requires_action"
	VerifyPending        = "pending"
)

// Offering is a gateway that cannot take every method or brand the
// product sells (Stripe: no Rakuten Pay, d払い or Pay-easy): it narrows
// what the member is offered, and may add what the browser needs to
// reach it (a publishable key).
type Offering interface {
	Offer(currency string, a Availability) Availability
}

// CardSetup is a gateway whose check of a card before it is saved may
// need the member (3-D Secure): Stripe's SetupIntent. The check keeps
// who asked and for which scope, so its completion after the member's
// step needs nothing kept here.
type CardSetup interface {
	// SetupCard checks token for memberID under key; a check that needs
	// the member answers VerifyRequiresAction with the page to send the
	// member to (returnURL gets the setup id appended as "setup").
	SetupCard(ctx context.Context, key string, in CardSetupInput) (CardSetupResult, error)
	// CardSetupStatus reads a check by its id (ErrUnknownToken when the
	// gateway does not know it).
	CardSetupStatus(ctx context.Context, setupID string) (CardSetupResult, error)
}

// CardSetupInput is a card check to start.
type CardSetupInput struct {
	MemberID  string
	Token     string
	Scope     string
	ReturnURL string
}

// CardSetupResult is a card check as the gateway reports it: Status one
// of the Verify* outcomes, with the failure code of a refusal or the
// member's page of a check that needs the member.
type CardSetupResult struct {
	SetupID     string
	MemberID    string
	Token       string
	Scope       string
	Status      string
	FailureCode string
	NextAction  *NextAction
}

// CreatePayment is a payment to create at the gateway.
type CreatePayment struct {
	Amount      int64  `json:"amount"`
	Currency    string `json:"currency"`
	Method      string `json:"method"`
	Token       string `json:"token,omitempty"`
	Description string `json:"description"`
	Reference   string `json:"reference"`
	ReturnURL   string `json:"returnUrl"`
	// MemberID and SaveCard are for gateways that keep saved cards per
	// customer (Stripe): the customer to charge a saved card on, and a new
	// card to keep for later. The sandbox's wire format does not carry them.
	MemberID string `json:"-"`
	SaveCard bool   `json:"-"`
}

// Gateway payment statuses (docs/gateways.md).
const (
	GWCreated        = "created"
	GWAuthorized     = "authorized"
	GWRequiresAction = "requires_action"
	GWPending        = "pending"
	GWCaptured       = "captured"
	GWFailed         = "failed"
	GWExpired        = "expired"
	GWRefunded       = "refunded"
)

// GatewayPayment is a payment as the gateway reports it.
type GatewayPayment struct {
	ID             string      `json:"id"`
	Status         string      `json:"status"`
	Amount         int64       `json:"amount"`
	Currency       string      `json:"currency"`
	Method         string      `json:"method"`
	Reference      string      `json:"reference"`
	Token          string      `json:"token,omitempty"`
	Brand          string      `json:"brand,omitempty"`
	Last4          string      `json:"last4,omitempty"`
	FailureCode    string      `json:"failureCode,omitempty"`
	RefundedAmount int64       `json:"refundedAmount"`
	NextAction     *NextAction `json:"nextAction,omitempty"`
	// Slip is what a konbini / ATM / net-banking payment is paid with.
	Slip *Slip `json:"slip,omitempty"`
	// ExpiresAt is the deadline of the customer's step, which the gateway
	// sets by method (days for a slip, minutes for a QR wallet or a card
	// challenge); the process follows it.
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

// Slip holds the numbers a convenience-store / ATM / net-banking payment
// is paid with, as the gateway issues them: the receipt and confirmation
// numbers a shop's terminal asks for, and the Pay-easy institution and
// customer numbers an ATM or a bank's site asks for.
type Slip struct {
	ReceiptNumber      string `json:"receiptNumber,omitempty"`
	ConfirmationNumber string `json:"confirmationNumber,omitempty"`
	InstitutionNumber  string `json:"institutionNumber,omitempty"`
	CustomerNumber     string `json:"customerNumber,omitempty"`
	// PaymentCodes are the payment code per convenience-store chain
	// (Stripe's konbini: familymart, lawson, ministop, seicomart).
	PaymentCodes map[string]string `json:"paymentCodes,omitempty"`
}

var (
	// ErrUnknownToken is a token the gateway does not know.
	ErrUnknownToken = errors.New("payment: unknown card token")
	// ErrGatewayUnavailable is a call whose outcome is unknown (timeout,
	// network error, 5xx): the engine reconciles by a status query later
	// and never repeats the money movement under a new key.
	ErrGatewayUnavailable = errors.New("payment: gateway unavailable")
	// ErrGatewayRefused is a call the gateway refused (4xx): retrying
	// with the same input will not help.
	ErrGatewayRefused = errors.New("payment: gateway refused the call")
)
