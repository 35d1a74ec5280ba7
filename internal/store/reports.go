package store

import (
	"context"
	"errors"
	"fmt"

	"members/internal/platform"
)

// PlatformSettings adapts Settings to platform.SettingsStore.
type PlatformSettings struct{ *Settings }

// Get maps ErrNotFound to platform.ErrUnset.
func (p PlatformSettings) Get(ctx context.Context, key string, v any) error {
	if err := p.Settings.Get(ctx, key, v); err != nil {
		if errors.Is(err, ErrNotFound) {
			return platform.ErrUnset
		}
		return err
	}
	return nil
}

// Reports stores exception reports.
type Reports struct{ db *DB }

// NewReports returns the exception report store.
func NewReports(db *DB) *Reports { return &Reports{db: db} }

// InsertReport stores one report.
func (r *Reports) InsertReport(ctx context.Context, rep platform.ExceptionReport) error {
	_, err := r.db.ExecContext(ctx,
		`INSERT INTO exception_reports (id, received_at, name, message, stack, path, client_addr)
		 VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		NewID(), rep.ReceivedAt.UnixMilli(), rep.Name, rep.Message, rep.Stack, rep.Path, rep.ClientAddr)
	if err != nil {
		return fmt.Errorf("insert report: %w", err)
	}
	return nil
}

// CountReports returns how many reports are stored (operators, tests).
func (r *Reports) CountReports(ctx context.Context) (int, error) {
	var n int
	if err := r.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM exception_reports`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count reports: %w", err)
	}
	return n, nil
}
