package gateway

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// purgeBatch bounds each DELETE (the LIMIT 500 written in its SQL), so the
// purge never holds the write lock for long (SQLite has one writer).
const purgeBatch = 500

// Purge deletes what the gateway no longer needs: idempotency keys older
// than KeepKeys (a repeat of such a call is no longer recognised: clients
// retry within minutes; Stripe keeps keys 24 hours) and events delivered
// more than KeepEvents ago, with their delivery attempts. Events not yet
// acknowledged are kept whatever their age: they are still being sent.
// Safe to run on several instances at once (deletes by condition).
func (g *Gateway) Purge(ctx context.Context) (keys, events int64, err error) {
	now := g.now()
	keyCut := now.Add(-g.opt.KeepKeys).UnixMilli()
	evCut := now.Add(-g.opt.KeepEvents).UnixMilli()
	for {
		res, err := g.db.ExecContext(ctx, `DELETE FROM gw_idempotency WHERE idem_key IN
			(SELECT idem_key FROM gw_idempotency WHERE created_at < $1 LIMIT 500)`, keyCut)
		if err != nil {
			return keys, events, fmt.Errorf("gateway purge keys: %w", err)
		}
		n, _ := res.RowsAffected()
		keys += n
		if n < purgeBatch {
			break
		}
	}
	for {
		var n int64
		err := g.tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `DELETE FROM gw_deliveries WHERE event_id IN
				(SELECT id FROM gw_events WHERE delivered_at IS NOT NULL AND delivered_at < $1 ORDER BY id LIMIT 500)`, evCut); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM gw_events WHERE id IN
				(SELECT id FROM gw_events WHERE delivered_at IS NOT NULL AND delivered_at < $1 ORDER BY id LIMIT 500)`, evCut)
			if err != nil {
				return err
			}
			n, _ = res.RowsAffected()
			return nil
		})
		if err != nil {
			return keys, events, fmt.Errorf("gateway purge events: %w", err)
		}
		events += n
		if n < purgeBatch {
			return keys, events, nil
		}
	}
}

// purgeDue runs Purge when PurgeEvery has passed since the last one.
func (g *Gateway) purgeDue(ctx context.Context, last *time.Time) {
	if now := g.now(); now.Sub(*last) >= g.opt.PurgeEvery {
		*last = now
		if _, _, err := g.Purge(ctx); err != nil && ctx.Err() == nil {
			g.log.Warn("gateway purge", "err", err)
		}
	}
}
