package gateway

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Payment statuses.
const (
	StatusCreated        = "created"
	StatusAuthorized     = "authorized"
	StatusRequiresAction = "requires_action"
	StatusPending        = "pending"
	StatusCaptured       = "captured"
	StatusFailed         = "failed"
	StatusExpired        = "expired"
	StatusRefunded       = "refunded"
)

// Payment methods.
const (
	MethodCard    = "card"
	MethodKonbini = "konbini"
)

// qrMethods are paid by scanning a code in the customer's app.
var qrMethods = []string{"rakuten_pay", "paypay", "d_payment", "wechat", "alipay", "unionpay"}

// IsQR reports whether method is paid with a QR code.
func IsQR(method string) bool { return slices.Contains(qrMethods, method) }

func validMethod(m string) bool { return m == MethodCard || m == MethodKonbini || IsQR(m) }

// Failure codes.
const (
	FailDeclined          = "card_declined"
	FailInsufficientFunds = "insufficient_funds"
	FailExpiredCard       = "expired_card"
	// FailAuthentication: the customer failed the challenge.
	FailAuthentication = "authentication_failed"
	// FailPayment: an asynchronous payment was cancelled by the customer
	// or failed by the operator.
	FailPayment = "payment_failed"
	// FailCanceled: the merchant cancelled a payment still waiting for
	// its customer (the member gave up a slip or a QR payment).
	FailCanceled = "canceled"
)

// Slip is what a customer needs to pay a convenience-store / ATM /
// net-banking payment: the receipt number and confirmation number a
// shop's terminal asks for, and the Pay-easy institution and customer
// numbers an ATM or a bank's site asks for. Each payment has its own; the
// sandbox derives them from the payment id, so they stay the same on
// every read.
type Slip struct {
	ReceiptNumber      string `json:"receiptNumber"`
	ConfirmationNumber string `json:"confirmationNumber"`
	InstitutionNumber  string `json:"institutionNumber"`
	CustomerNumber     string `json:"customerNumber"`
}

// apiSlip is the page's slip (pages.go) as the API shows it: the same
// numbers on the slip page, in the API and so in the merchant's mail.
func apiSlip(id string) *Slip {
	s := slipFor(id)
	return &Slip{ReceiptNumber: s.Receipt, ConfirmationNumber: s.Confirm, InstitutionNumber: s.Biller, CustomerNumber: s.Customer}
}

// expireAfter is how long a payment in method may wait for its customer.
func (g *Gateway) expireAfter(method string) time.Duration {
	switch {
	case method == MethodKonbini:
		return g.opt.SlipExpireAfter
	case IsQR(method):
		return g.opt.QRExpireAfter
	}
	return g.opt.ExpireAfter
}

// NextAction sends the customer to a page of the gateway.
type NextAction struct {
	Type string `json:"type"` // "redirect"
	URL  string `json:"url"`
}

// Payment is the gateway's view of one charge.
type Payment struct {
	ID             string      `json:"id"`
	Status         string      `json:"status"`
	Amount         int64       `json:"amount"`
	Currency       string      `json:"currency"`
	Method         string      `json:"method"`
	Reference      string      `json:"reference"`
	Description    string      `json:"description"`
	Token          string      `json:"token,omitempty"`
	Brand          string      `json:"brand,omitempty"`
	Last4          string      `json:"last4,omitempty"`
	FailureCode    string      `json:"failureCode,omitempty"`
	RefundedAmount int64       `json:"refundedAmount"`
	NextAction     *NextAction `json:"nextAction,omitempty"`
	// Slip: the numbers a konbini / ATM / net-banking payment is paid with.
	Slip *Slip `json:"slip,omitempty"`
	// ExpiresAt is the deadline of the customer's step (by method).
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`

	returnURL string
	behaviour Behaviour
}

// PaymentInput is the body of a create call.
type PaymentInput struct {
	Amount      int64  `json:"amount"`
	Currency    string `json:"currency"`
	Method      string `json:"method"`
	Token       string `json:"token"`
	Description string `json:"description"`
	Reference   string `json:"reference"`
	ReturnURL   string `json:"returnUrl"`
}

// Errors of the payment calls; the HTTP layer maps them to statuses.
var (
	ErrNotFound = errors.New("not found")
	// ErrState: the call does not apply to the payment's status.
	ErrState = errors.New("invalid state")
	// ErrIdempotency: the key was used with another request.
	ErrIdempotency = errors.New("idempotency key reused with another request")
	// ErrRefundTooLarge: refunds would exceed the captured amount.
	ErrRefundTooLarge = errors.New("refund exceeds the captured amount")
)

// FieldErrors are 400 validation errors (field → codes).
type FieldErrors map[string][]string

func (e FieldErrors) Error() string { return fmt.Sprintf("invalid fields: %v", map[string][]string(e)) }

var currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)

const paymentCols = `id, status, amount, currency, method, reference, description, return_url, token, brand, last4,
	behaviour, failure_code, refunded_amount, expires_at, created_at, updated_at`

type scanner interface{ Scan(...any) error }

func scanPayment(s scanner) (*Payment, error) {
	var (
		p                Payment
		expires          sql.NullInt64
		created, updated int64
		behaviour        string
	)
	if err := s.Scan(&p.ID, &p.Status, &p.Amount, &p.Currency, &p.Method, &p.Reference, &p.Description, &p.returnURL,
		&p.Token, &p.Brand, &p.Last4, &behaviour, &p.FailureCode, &p.RefundedAmount, &expires, &created, &updated); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("gateway: read payment: %w", err)
	}
	p.behaviour = Behaviour(behaviour)
	if expires.Valid {
		t := time.UnixMilli(expires.Int64).UTC()
		p.ExpiresAt = &t
	}
	p.CreatedAt = time.UnixMilli(created).UTC()
	p.UpdatedAt = time.UnixMilli(updated).UTC()
	return &p, nil
}

type querier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func (g *Gateway) getPayment(ctx context.Context, q querier, id string) (*Payment, error) {
	return scanPayment(q.QueryRowContext(ctx, `SELECT `+paymentCols+` FROM gw_payments WHERE id = $1`, id))
}

// Payment returns one payment with its next action (pages under base).
func (g *Gateway) Payment(ctx context.Context, id, base string) (*Payment, error) {
	p, err := g.getPayment(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	g.decorate(p, base)
	return p, nil
}

// PaymentsByReference lists the payments created with reference, oldest first.
func (g *Gateway) PaymentsByReference(ctx context.Context, reference, base string) ([]*Payment, error) {
	return g.listPayments(ctx, base, `WHERE reference = $1 ORDER BY created_at, id`, reference)
}

// ListPayments lists the most recent payments (operator).
func (g *Gateway) ListPayments(ctx context.Context, limit int) ([]*Payment, error) {
	return g.listPayments(ctx, "", `ORDER BY created_at DESC, id LIMIT $1`, limit)
}

func (g *Gateway) listPayments(ctx context.Context, base, where string, args ...any) ([]*Payment, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT `+paymentCols+` FROM gw_payments `+where, args...) // #nosec G202 -- where is one of this file's fixed clauses; values are bound arguments
	if err != nil {
		return nil, fmt.Errorf("gateway: list payments: %w", err)
	}
	defer rows.Close()
	out := []*Payment{}
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, err
		}
		g.decorate(p, base)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gateway: list payments: %w", err)
	}
	return out, nil
}

// decorate adds the customer page to a payment waiting for the customer.
func (g *Gateway) decorate(p *Payment, base string) {
	switch p.Status {
	case StatusRequiresAction:
		p.NextAction = &NextAction{Type: "redirect", URL: base + "/challenge/" + p.ID}
	case StatusPending:
		p.NextAction = &NextAction{Type: "redirect", URL: base + "/pay/" + p.ID}
	}
	if p.Method == MethodKonbini {
		p.Slip = apiSlip(p.ID)
	}
}

// checkPayment validates a create body.
func (g *Gateway) checkPayment(ctx context.Context, tx *sql.Tx, in PaymentInput) (Card, FieldErrors, error) {
	errs := FieldErrors{}
	if in.Amount <= 0 {
		errs["amount"] = []string{"positive"}
	}
	if !currencyRe.MatchString(in.Currency) {
		errs["currency"] = []string{CodeFormat}
	}
	if !validMethod(in.Method) {
		errs["method"] = []string{CodeFormat}
	}
	if len(in.Reference) > 200 {
		errs["reference"] = []string{CodeLength}
	}
	if len(in.Description) > 500 {
		errs["description"] = []string{CodeLength}
	}
	if in.ReturnURL != "" {
		if u, err := url.Parse(in.ReturnURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs["returnUrl"] = []string{CodeFormat}
		}
	}
	var card Card
	if in.Method == MethodCard {
		if in.Token == "" {
			errs["token"] = []string{CodeRequired}
		} else {
			err := tx.QueryRowContext(ctx, `SELECT brand, last4, expiration, holder_name, behaviour FROM gw_tokens WHERE token = $1`,
				in.Token).Scan(&card.Brand, &card.Last4, &card.ExpirationDate, &card.HolderName, &card.Behaviour)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				errs["token"] = []string{"unknown"}
			case err != nil:
				return Card{}, nil, fmt.Errorf("gateway: read token: %w", err)
			}
		}
	}
	if len(errs) > 0 {
		return Card{}, errs, nil
	}
	return card, nil, nil
}

// createPayment records a new payment in status created.
func (g *Gateway) createPayment(ctx context.Context, tx *sql.Tx, in PaymentInput) (*Payment, error) {
	card, ferrs, err := g.checkPayment(ctx, tx, in)
	if err != nil {
		return nil, err
	}
	if ferrs != nil {
		return nil, ferrs
	}
	now := g.nowMs()
	id := "pay_" + randomHex(12)
	token := ""
	if in.Method == MethodCard {
		token = in.Token
		// A saved card that has expired since it was tokenised is declined
		// as the issuer would.
		if expired(card.ExpirationDate, g.now()) {
			card.Behaviour = ExpiredCard
		}
	}
	// RETURNING hands back the row as stored: no second read.
	p, err := scanPayment(tx.QueryRowContext(ctx, `INSERT INTO gw_payments (`+paymentCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '', 0, NULL, $13, $13) RETURNING `+paymentCols,
		id, StatusCreated, in.Amount, in.Currency, in.Method, in.Reference, in.Description, in.ReturnURL,
		token, card.Brand, card.Last4, string(card.Behaviour), now))
	if err != nil {
		return nil, fmt.Errorf("gateway: create payment: %w", err)
	}
	if g.opt.WarnEachPayment {
		g.log.Warn("SANDBOX GATEWAY: a payment on a public site is paid by test cards, no money moves",
			"payment", id, "amount", in.Amount, "currency", in.Currency, "method", in.Method, "reference", in.Reference)
	}
	return p, nil
}

// transition moves payment id from one of the statuses in from to to,
// setting the failure code and the deadline of a customer step, and queues
// the event of the new status. It returns ErrState when the payment is in
// another status.
func (g *Gateway) transition(ctx context.Context, tx *sql.Tx, id string, from []string, to, failure string) (*Payment, error) {
	p, err := g.getPayment(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return g.move(ctx, tx, p, from, to, failure)
}

// move is transition for a payment p already read in tx.
func (g *Gateway) move(ctx context.Context, tx *sql.Tx, p *Payment, from []string, to, failure string) (*Payment, error) {
	if !slices.Contains(from, p.Status) {
		return nil, ErrState
	}
	now := g.nowMs()
	var expires any
	if to == StatusPending || to == StatusRequiresAction {
		expires = now + g.expireAfter(p.Method).Milliseconds()
	}
	// The status in the WHERE makes the move atomic against a concurrent
	// one that read the same row (PostgreSQL re-checks it after the lock);
	// RETURNING hands back the moved row, with no second read.
	moved, err := scanPayment(tx.QueryRowContext(ctx, `UPDATE gw_payments SET status = $1, failure_code = $2, expires_at = $3, updated_at = $4
		WHERE id = $5 AND status = $6 RETURNING `+paymentCols, to, failure, expires, now, p.ID, p.Status))
	if errors.Is(err, ErrNotFound) {
		return nil, ErrState
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: update payment: %w", err)
	}
	if typ := eventType(to); typ != "" {
		if err := g.queueEvent(ctx, tx, typ, moved); err != nil {
			return nil, err
		}
	}
	return moved, nil
}

// authorizeOutcome is where an authorise call takes a payment.
func authorizeOutcome(p *Payment) (status, failure string) {
	if p.Method != MethodCard {
		return StatusPending, ""
	}
	switch p.behaviour {
	case Decline:
		return StatusFailed, FailDeclined
	case InsufficientFunds:
		return StatusFailed, FailInsufficientFunds
	case ExpiredCard:
		return StatusFailed, FailExpiredCard
	case Challenge:
		return StatusRequiresAction, ""
	}
	return StatusAuthorized, ""
}

// Capture modes of the authorise call.
const (
	// CaptureManual (the default): an authorised payment waits for a
	// capture call.
	CaptureManual = "manual"
	// CaptureAutomatic: a card authorised without a customer step is
	// captured in the same call (Stripe's capture_method "automatic"); one
	// that needs the challenge stays manual: it is authorised by the
	// customer's approval and captured by a capture call.
	CaptureAutomatic = "automatic"
)

func (g *Gateway) authorize(ctx context.Context, tx *sql.Tx, id string, capture string) (*Payment, error) {
	p, err := g.getPayment(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	status, failure := authorizeOutcome(p)
	if status == StatusAuthorized && capture == CaptureAutomatic {
		status = StatusCaptured
	}
	return g.move(ctx, tx, p, []string{StatusCreated}, status, failure)
}

func (g *Gateway) capture(ctx context.Context, tx *sql.Tx, id string) (*Payment, error) {
	return g.transition(ctx, tx, id, []string{StatusAuthorized}, StatusCaptured, "")
}

func (g *Gateway) refund(ctx context.Context, tx *sql.Tx, id string, amount int64) (*Payment, error) {
	if amount <= 0 {
		return nil, FieldErrors{"amount": {"positive"}}
	}
	p, err := g.getPayment(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if p.Status != StatusCaptured && p.Status != StatusRefunded {
		return nil, ErrState
	}
	if p.RefundedAmount+amount > p.Amount {
		return nil, ErrRefundTooLarge
	}
	p, err = scanPayment(tx.QueryRowContext(ctx, `UPDATE gw_payments SET status = $1, refunded_amount = refunded_amount + $2, updated_at = $3
		WHERE id = $4 AND refunded_amount = $5 RETURNING `+paymentCols, StatusRefunded, amount, g.nowMs(), id, p.RefundedAmount))
	if errors.Is(err, ErrNotFound) {
		return nil, ErrState
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: refund: %w", err)
	}
	return p, g.queueEvent(ctx, tx, EventRefunded, p)
}

// Idempotent call results.
type result struct {
	status int
	body   []byte
	// replayed: the answer of an earlier call with the same key.
	replayed bool
	payment  *Payment
}

// idempotent runs fn once per key: the key is claimed in the transaction
// that moves the money, together with the answer, so a repeat (even a
// concurrent one, which waits for the first to commit) gets the same
// answer and a repeat with another request hash gets ErrIdempotency.
// Errors of fn roll everything back, key included.
func (g *Gateway) idempotent(ctx context.Context, key, hash, base string, status int, fn func(*sql.Tx) (*Payment, error)) (*result, error) {
	return g.once(ctx, key, hash, status, func(tx *sql.Tx) (any, *Payment, error) {
		p, err := fn(tx)
		if err != nil {
			return nil, nil, err
		}
		g.decorate(p, base)
		return p, p, nil
	})
}

// once runs fn once per idempotency key and keeps its answer (the JSON of
// its first result) with the key, in fn's transaction.
func (g *Gateway) once(ctx context.Context, key, hash string, status int, fn func(*sql.Tx) (any, *Payment, error)) (*result, error) {
	var out *result
	err := g.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO gw_idempotency (idem_key, request_hash, status_code, response, created_at)
			VALUES ($1, $2, 0, '', $3) ON CONFLICT (idem_key) DO NOTHING`, key, hash, g.nowMs())
		if err != nil {
			return fmt.Errorf("gateway: claim idempotency key: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var (
				h    string
				code int
				body string
			)
			if err := tx.QueryRowContext(ctx, `SELECT request_hash, status_code, response FROM gw_idempotency WHERE idem_key = $1`,
				key).Scan(&h, &code, &body); err != nil {
				return fmt.Errorf("gateway: read idempotency key: %w", err)
			}
			if h != hash {
				return ErrIdempotency
			}
			out = &result{status: code, body: []byte(body), replayed: true}
			return nil
		}
		v, p, err := fn(tx)
		if err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("gateway: encode: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE gw_idempotency SET status_code = $1, response = $2 WHERE idem_key = $3`,
			status, string(b), key); err != nil {
			return fmt.Errorf("gateway: store answer: %w", err)
		}
		out = &result{status: status, body: b, payment: p}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreatePayment, Authorize, Capture and Refund are the server calls, each
// under an idempotency key and the hash of its request.

func (g *Gateway) createCall(ctx context.Context, key, hash, base string, in PaymentInput) (*result, error) {
	in.Currency = strings.ToUpper(strings.TrimSpace(in.Currency))
	return g.idempotent(ctx, key, hash, base, 200, func(tx *sql.Tx) (*Payment, error) { return g.createPayment(ctx, tx, in) })
}

func (g *Gateway) authorizeCall(ctx context.Context, key, hash, base, id, capture string) (*result, error) {
	if capture != "" && capture != CaptureManual && capture != CaptureAutomatic {
		return nil, FieldErrors{"capture": {CodeFormat}}
	}
	return g.idempotent(ctx, key, hash, base, 200, func(tx *sql.Tx) (*Payment, error) { return g.authorize(ctx, tx, id, capture) })
}

func (g *Gateway) captureCall(ctx context.Context, key, hash, base, id string) (*result, error) {
	return g.idempotent(ctx, key, hash, base, 200, func(tx *sql.Tx) (*Payment, error) { return g.capture(ctx, tx, id) })
}

func (g *Gateway) refundCall(ctx context.Context, key, hash, base, id string, amount int64) (*result, error) {
	return g.idempotent(ctx, key, hash, base, 200, func(tx *sql.Tx) (*Payment, error) { return g.refund(ctx, tx, id, amount) })
}

// cancel ends a payment still waiting for its customer (created,
// pending or requires_action) as failed with FailCanceled. A payment the
// customer has paid meanwhile is ErrState: the caller reads it.
func (g *Gateway) cancel(ctx context.Context, tx *sql.Tx, id string) (*Payment, error) {
	return g.transition(ctx, tx, id, []string{StatusCreated, StatusPending, StatusRequiresAction}, StatusFailed, FailCanceled)
}

func (g *Gateway) cancelCall(ctx context.Context, key, hash, base, id string) (*result, error) {
	return g.idempotent(ctx, key, hash, base, 200, func(tx *sql.Tx) (*Payment, error) { return g.cancel(ctx, tx, id) })
}

// CustomerStep finishes the customer's step on a gateway page: approve or
// fail a challenge, pay or cancel a QR / konbini payment.
func (g *Gateway) CustomerStep(ctx context.Context, id string, approve bool) (*Payment, error) {
	var p *Payment
	err := g.tx(ctx, func(tx *sql.Tx) error {
		cur, err := g.getPayment(ctx, tx, id)
		if err != nil {
			return err
		}
		switch {
		case cur.Status == StatusRequiresAction && approve:
			p, err = g.transition(ctx, tx, id, []string{StatusRequiresAction}, StatusAuthorized, "")
		case cur.Status == StatusRequiresAction:
			p, err = g.transition(ctx, tx, id, []string{StatusRequiresAction}, StatusFailed, FailAuthentication)
		case cur.Status == StatusPending && approve:
			p, err = g.transition(ctx, tx, id, []string{StatusPending}, StatusCaptured, "")
		case cur.Status == StatusPending:
			p, err = g.transition(ctx, tx, id, []string{StatusPending}, StatusFailed, FailPayment)
		default:
			return ErrState
		}
		return err
	})
	return p, err
}

// Settle and Fail are the operator's hand on an asynchronous payment
// (pending or requires_action).
func (g *Gateway) Settle(ctx context.Context, id string) (*Payment, error) {
	return g.CustomerStep(ctx, id, true)
}

// Fail fails a payment waiting for its customer step.
func (g *Gateway) Fail(ctx context.Context, id string) (*Payment, error) {
	return g.CustomerStep(ctx, id, false)
}
