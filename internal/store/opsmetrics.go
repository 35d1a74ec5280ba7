package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// OpsSnapshot reads the figures an operator watches (the metrics
// endpoint): open payment processes, the mail outbox, discrepancies.
type OpsSnapshot struct{ db *DB }

// NewOpsSnapshot returns the snapshot reader over db.
func NewOpsSnapshot(db *DB) *OpsSnapshot { return &OpsSnapshot{db: db} }

// Pools are the database/sql pools by name (the metrics of their use).
func (db *DB) Pools() map[string]*sql.DB {
	if db.reads == db.DB {
		return map[string]*sql.DB{"main": db.DB}
	}
	return map[string]*sql.DB{"main": db.DB, "reads": db.reads}
}

// OpenPayments counts the prepared and pending processes (the partial
// index of open processes keeps it small) and returns the last change of
// the oldest pending one.
func (s *OpsSnapshot) OpenPayments(ctx context.Context) (prepared, pending int64, oldestPending time.Time, err error) {
	var oldest sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN status = 'prepared' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END), 0),
		MIN(CASE WHEN status = 'pending' THEN updated_at END)
		FROM payment_processes WHERE status IN ('prepared', 'pending')`).Scan(&prepared, &pending, &oldest)
	if err != nil {
		return 0, 0, time.Time{}, fmt.Errorf("open payments: %w", err)
	}
	if oldest.Valid {
		oldestPending = time.UnixMilli(oldest.Int64)
	}
	return prepared, pending, oldestPending, nil
}

// Outbox counts the mails waiting for an SMTP attempt and those given up.
func (s *OpsSnapshot) Outbox(ctx context.Context) (pending, failed int64, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0)
		FROM mail_outbox WHERE status IN ('pending', 'failed')`).Scan(&pending, &failed)
	if err != nil {
		return 0, 0, fmt.Errorf("outbox: %w", err)
	}
	return pending, failed, nil
}

// Discrepancies counts the recorded discrepancies.
func (s *OpsSnapshot) Discrepancies(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM payment_discrepancies`).Scan(&n); err != nil {
		return 0, fmt.Errorf("discrepancies: %w", err)
	}
	return n, nil
}
