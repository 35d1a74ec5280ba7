package store

import (
	"context"
	"fmt"
	"time"
)

// Jobs leases the background jobs that one instance runs at a time (the
// gateway reconciliation, the mail retention purge): a row of
// payment_jobs (00120) each, with its lease and its next run.
type Jobs struct{ db *DB }

// NewJobs returns the jobs' leases.
func NewJobs(db *DB) *Jobs { return &Jobs{db: db} }

// ClaimJob leases the job name for owner until until when its lease is
// free and its next run is due. A job seen for the first time is due at
// first (its row is made here).
func (j *Jobs) ClaimJob(ctx context.Context, name, owner string, now, until time.Time) (bool, error) {
	if _, err := j.db.ExecContext(ctx, `INSERT INTO payment_jobs (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, name); err != nil {
		return false, fmt.Errorf("claim job %s: %w", name, err)
	}
	res, err := j.db.ExecContext(ctx, `UPDATE payment_jobs SET lease_owner = $1, lease_until = $2
		WHERE name = $3 AND lease_until < $4 AND next_run_at <= $4`, owner, until.UnixMilli(), name, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("claim job %s: %w", name, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// FinishJob releases owner's lease of the job and sets its next run.
func (j *Jobs) FinishJob(ctx context.Context, name, owner string, now, next time.Time) error {
	if _, err := j.db.ExecContext(ctx, `UPDATE payment_jobs SET lease_owner = '', lease_until = 0, next_run_at = $1, last_run_at = $2
		WHERE name = $3 AND lease_owner = $4`, next.UnixMilli(), now.UnixMilli(), name, owner); err != nil {
		return fmt.Errorf("finish job %s: %w", name, err)
	}
	return nil
}
