package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Settings keeps operator settings as JSON values by key.
type Settings struct{ db *DB }

// NewSettings returns the settings store.
func NewSettings(db *DB) *Settings { return &Settings{db: db} }

// Get decodes the value of key into v. It returns ErrNotFound when unset.
func (s *Settings) Get(ctx context.Context, key string, v any) error {
	var raw string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&raw)
	if err = Translate(err); err != nil {
		if errors.Is(err, ErrNotFound) {
			return ErrNotFound
		}
		return fmt.Errorf("get setting %s: %w", key, err)
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return fmt.Errorf("decode setting %s: %w", key, err)
	}
	return nil
}

// Set stores v as the value of key.
func (s *Settings) Set(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode setting %s: %w", key, err)
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
		 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		key, string(b), s.db.NowMillis())
	if err != nil {
		return fmt.Errorf("set setting %s: %w", key, err)
	}
	return nil
}

// SetIfMissing stores v unless key already has a value, then returns the
// stored value into out: every instance ends up with the same value.
func (s *Settings) SetIfMissing(ctx context.Context, key string, v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode setting %s: %w", key, err)
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`,
		key, string(b), s.db.NowMillis())
	if err != nil {
		return fmt.Errorf("init setting %s: %w", key, err)
	}
	return s.Get(ctx, key, out)
}
