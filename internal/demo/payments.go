package demo

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// seedPayments gives the first demo member an expired saved card (the
// expired-card dialog). The cards that pay are tokenised by the sandbox
// gateway once it runs (app.seedDemoCards): its tokens are its own.
func seedPayments(ctx context.Context, tx *sql.Tx, now time.Time) error {
	exp := now.In(time.FixedZone("JST", 9*3600)).AddDate(0, -2, 0).Format("06/01")
	_, err := tx.ExecContext(ctx, `INSERT INTO saved_cards (gateway, token, member_id, brand, last4, expiration_date,
		holder_name, currency, created_at) VALUES ('ndhk', 'tok_demo_expired_visa', $1, 'visa', '1881', $2, 'TARO PEACH', 'JPY', $3)`,
		Member1, exp, now.Add(-400*24*time.Hour).UnixMilli())
	if err != nil {
		return fmt.Errorf("demo: saved cards: %w", err)
	}
	return nil
}
