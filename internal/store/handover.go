package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"members/internal/booking"
)

// HandoverRedemptions implements booking.Redemptions: a token id can be
// inserted once (the primary key decides between parallel redeemers).
type HandoverRedemptions struct{ db *DB }

// NewHandoverRedemptions returns the store.
func NewHandoverRedemptions(db *DB) *HandoverRedemptions { return &HandoverRedemptions{db: db} }

var _ booking.Redemptions = (*HandoverRedemptions)(nil)

func (s *HandoverRedemptions) Redeem(ctx context.Context, id string, expires, now time.Time) error {
	// Expired ids can never be presented again (Verify refuses them first).
	if _, err := s.db.ExecContext(ctx, `DELETE FROM handover_redemptions WHERE expires_at < $1`, now.UnixMilli()); err != nil {
		return fmt.Errorf("purge redemptions: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO handover_redemptions (token_id, expires_at) VALUES ($1, $2)`,
		id, expires.UnixMilli())
	if err = Translate(err); errors.Is(err, ErrConflict) {
		return booking.ErrReplayed
	}
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	return nil
}
