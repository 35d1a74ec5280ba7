package gateway

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Token is the stored card behind a token, as the server sees it.
type Token struct {
	Token          string `json:"token"`
	Gateway        string `json:"gateway"`
	Brand          string `json:"brand"`
	Last4          string `json:"last4"`
	ExpirationDate string `json:"expirationDate"`
	HolderName     string `json:"holderName"`
}

// Tokenize checks a card and stores what may be kept of it: brand, last
// four digits, expiry, holder and the test behaviour. The number and the
// CVV go no further than this function.
func (g *Gateway) Tokenize(ctx context.Context, in CardInput) (*Token, error) {
	card, errs := CheckCard(in, g.now())
	if errs != nil {
		return nil, FieldErrors(errs)
	}
	t := &Token{Token: "tok_" + randomHex(16), Gateway: Name, Brand: card.Brand, Last4: card.Last4,
		ExpirationDate: card.ExpirationDate, HolderName: card.HolderName}
	if _, err := g.db.ExecContext(ctx, `INSERT INTO gw_tokens (token, brand, last4, expiration, holder_name, behaviour, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, t.Token, t.Brand, t.Last4, t.ExpirationDate, t.HolderName,
		string(card.Behaviour), g.nowMs()); err != nil {
		return nil, fmt.Errorf("gateway: store token: %w", err)
	}
	return t, nil
}

// GetToken returns a token's card view.
func (g *Gateway) GetToken(ctx context.Context, token string) (*Token, error) {
	t := &Token{Token: token, Gateway: Name}
	err := g.db.QueryRowContext(ctx, `SELECT brand, last4, expiration, holder_name FROM gw_tokens WHERE token = $1`, token).
		Scan(&t.Brand, &t.Last4, &t.ExpirationDate, &t.HolderName)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: read token: %w", err)
	}
	return t, nil
}

// DeleteToken forgets a token; payments made with it keep their brand and
// last four digits.
func (g *Gateway) DeleteToken(ctx context.Context, token string) error {
	res, err := g.db.ExecContext(ctx, `DELETE FROM gw_tokens WHERE token = $1`, token)
	if err != nil {
		return fmt.Errorf("gateway: delete token: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Verification outcomes of a zero-amount authorisation.
const (
	VerifySucceeded = "succeeded"
	VerifyFailed    = "failed"
)

// Verification is the answer of a zero-amount authorisation of a token:
// the issuer's word on the card before it is saved (Stripe: a SetupIntent;
// KOMOJU: a customer's card check). No money moves and no payment is made.
type Verification struct {
	Token       string `json:"token"`
	Status      string `json:"status"`
	FailureCode string `json:"failureCode,omitempty"`
}

// verifyOutcome is what the test card's issuer says to a zero-amount
// authorisation: a declined card and an expired one (by its behaviour, or
// a month that has passed since tokenisation) are refused; a card short of
// funds passes, as no funds are asked for; a challenge card passes (the
// sandbox asks no 3-D Secure for a card check).
func verifyOutcome(b Behaviour, exp string, now time.Time) (string, string) {
	switch {
	case b == Decline:
		return VerifyFailed, FailDeclined
	case b == ExpiredCard || expired(exp, now):
		return VerifyFailed, FailExpiredCard
	}
	return VerifySucceeded, ""
}

// verifyCall runs one zero-amount authorisation under its idempotency key.
func (g *Gateway) verifyCall(ctx context.Context, key, hash, token string) (*result, error) {
	return g.once(ctx, key, hash, 200, func(tx *sql.Tx) (any, *Payment, error) {
		var b, exp string
		err := tx.QueryRowContext(ctx, `SELECT behaviour, expiration FROM gw_tokens WHERE token = $1`, token).Scan(&b, &exp)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil, ErrNotFound
		}
		if err != nil {
			return nil, nil, fmt.Errorf("gateway: verify token: %w", err)
		}
		v := &Verification{Token: token}
		v.Status, v.FailureCode = verifyOutcome(Behaviour(b), exp, g.now())
		return v, nil, nil
	})
}
