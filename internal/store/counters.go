package store

import (
	"context"
	"errors"
	"fmt"

	"members/internal/ratelimit"
)

// Counters implements ratelimit.Counters with one upsert per event, atomic
// on both engines.
type Counters struct{ db *DB }

// NewCounters returns the rate counter store.
func NewCounters(db *DB) *Counters { return &Counters{db: db} }

var _ ratelimit.Counters = (*Counters)(nil)

func (c *Counters) Incr(ctx context.Context, key string, windowStart int64) (int, error) {
	var n int
	err := c.db.QueryRowContext(ctx,
		`INSERT INTO rate_counters (key, window_start, count) VALUES ($1, $2, 1)
		 ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
		 RETURNING count`, key, windowStart).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("incr counter: %w", err)
	}
	return n, nil
}

// Reserve is one upsert whose update only happens below the limit: on
// PostgreSQL ON CONFLICT DO UPDATE locks the row and re-checks the WHERE on
// its latest version; SQLite runs one writer at a time. No row back means
// the limit was reached.
func (c *Counters) Reserve(ctx context.Context, key string, windowStart int64, limit int) (bool, error) {
	if limit < 1 {
		return false, nil
	}
	var n int
	err := c.db.QueryRowContext(ctx,
		`INSERT INTO rate_counters (key, window_start, count) VALUES ($1, $2, 1)
		 ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
		 WHERE rate_counters.count < $3
		 RETURNING count`, key, windowStart, limit).Scan(&n)
	if errors.Is(Translate(err), ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reserve counter: %w", err)
	}
	return true, nil
}

func (c *Counters) Release(ctx context.Context, key string, windowStart int64) error {
	if _, err := c.db.ExecContext(ctx,
		`UPDATE rate_counters SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0`,
		key, windowStart); err != nil {
		return fmt.Errorf("release counter: %w", err)
	}
	return nil
}

func (c *Counters) Count(ctx context.Context, key string, windowStart int64) (int, error) {
	var n int
	err := c.db.QueryRowContext(ctx,
		`SELECT count FROM rate_counters WHERE key = $1 AND window_start = $2`, key, windowStart).Scan(&n)
	if errors.Is(Translate(err), ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read counter: %w", err)
	}
	return n, nil
}

func (c *Counters) Reset(ctx context.Context, key string) error {
	if _, err := c.db.ExecContext(ctx, `DELETE FROM rate_counters WHERE key = $1`, key); err != nil {
		return fmt.Errorf("reset counter: %w", err)
	}
	return nil
}

// PurgeBefore deletes windows that started before ms; run periodically.
func (c *Counters) PurgeBefore(ctx context.Context, ms int64) error {
	if _, err := c.db.ExecContext(ctx, `DELETE FROM rate_counters WHERE window_start < $1`, ms); err != nil {
		return fmt.Errorf("purge counters: %w", err)
	}
	return nil
}
