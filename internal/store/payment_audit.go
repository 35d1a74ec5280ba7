package store

import (
	"context"
	"fmt"
	"time"

	"members/internal/payment"
)

// RecordDiscrepancy keeps what the engine found wrong with a gateway's word.
func (s *PaymentStore) RecordDiscrepancy(ctx context.Context, d payment.Discrepancy) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO payment_discrepancies (id, process_id, source, event_id, gateway_payment_id, detail, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, d.ID, d.ProcessID, d.Source, d.EventID, d.GatewayPaymentID, d.Detail, d.At.UnixMilli())
	if err != nil {
		return fmt.Errorf("record discrepancy %s: %w", d.ProcessID, err)
	}
	return nil
}

// Discrepancies lists the recorded discrepancies of a process ("" for all),
// oldest first.
func (s *PaymentStore) Discrepancies(ctx context.Context, processID string) ([]payment.Discrepancy, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, process_id, source, event_id, gateway_payment_id, detail, created_at
		FROM payment_discrepancies WHERE $1 = '' OR process_id = $1 ORDER BY created_at, id`, processID)
	if err != nil {
		return nil, fmt.Errorf("discrepancies: %w", err)
	}
	defer rows.Close()
	var out []payment.Discrepancy
	for rows.Next() {
		var d payment.Discrepancy
		var at int64
		if err := rows.Scan(&d.ID, &d.ProcessID, &d.Source, &d.EventID, &d.GatewayPaymentID, &d.Detail, &at); err != nil {
			return nil, fmt.Errorf("discrepancies: %w", err)
		}
		d.At = time.UnixMilli(at).UTC()
		out = append(out, d)
	}
	return out, rows.Err()
}

// ClaimJob leases a payment job (Jobs.ClaimJob).
func (s *PaymentStore) ClaimJob(ctx context.Context, name, owner string, now, until time.Time) (bool, error) {
	return NewJobs(s.db).ClaimJob(ctx, name, owner, now, until)
}

// FinishJob releases owner's lease of a payment job (Jobs.FinishJob).
func (s *PaymentStore) FinishJob(ctx context.Context, name, owner string, now, next time.Time) error {
	return NewJobs(s.db).FinishJob(ctx, name, owner, now, next)
}

// Concluded lists processes that ended with the gateway's money (settled,
// refunded, expired, failed) and changed at or after since, in (updated_at, id)
// order after the cursor after (zero: from the start), up to limit.
func (s *PaymentStore) Concluded(ctx context.Context, since time.Time, after payment.Cursor, limit int) ([]payment.Process, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+processCols+` FROM payment_processes
		WHERE status IN ('settled', 'refunded', 'expired', 'failed') AND updated_at >= $1
		AND (updated_at > $2 OR (updated_at = $2 AND id > $3))
		ORDER BY updated_at, id LIMIT $4`, since.UnixMilli(), after.UpdatedAt.UnixMilli(), after.ID, limit)
	if err != nil {
		return nil, fmt.Errorf("concluded processes: %w", err)
	}
	defer rows.Close()
	var out []payment.Process
	for rows.Next() {
		p, err := scanProcess(rows)
		if err != nil {
			return nil, fmt.Errorf("concluded processes: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
