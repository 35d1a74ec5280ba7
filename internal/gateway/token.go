package gateway

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
