package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/calendar"
)

// CalendarStore implements calendar.Store.
type CalendarStore struct{ db *DB }

// NewCalendarStore returns the calendar subscription store.
func NewCalendarStore(db *DB) *CalendarStore { return &CalendarStore{db: db} }

var _ calendar.Store = (*CalendarStore)(nil)

func (s *CalendarStore) Feed(ctx context.Context, memberID string) (calendar.Feed, error) {
	var created int64
	var used sql.NullInt64
	err := s.db.QueryRowContext(ctx,
		`SELECT created_at, last_used_at FROM calendar_feeds WHERE member_id = $1`, memberID).Scan(&created, &used)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return calendar.Feed{}, calendar.ErrNoFeed
	}
	if err != nil {
		return calendar.Feed{}, fmt.Errorf("calendar feed: %w", err)
	}
	f := calendar.Feed{CreatedAt: time.UnixMilli(created).UTC()}
	if used.Valid {
		t := time.UnixMilli(used.Int64).UTC()
		f.LastUsedAt = &t
	}
	return f, nil
}

func (s *CalendarStore) SaveFeed(ctx context.Context, memberID, tokenHash string, at time.Time) error {
	// One statement on both engines: the member's row is replaced whole.
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO calendar_feeds (member_id, token_hash, created_at, last_used_at) VALUES ($1, $2, $3, NULL)
		 ON CONFLICT (member_id) DO UPDATE SET token_hash = excluded.token_hash,
		   created_at = excluded.created_at, last_used_at = NULL`,
		memberID, tokenHash, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("save calendar feed: %w", Translate(err))
	}
	return nil
}

func (s *CalendarStore) DeleteFeed(ctx context.Context, memberID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE member_id = $1`, memberID); err != nil {
		return fmt.Errorf("delete calendar feed: %w", err)
	}
	return nil
}

func (s *CalendarStore) UseFeed(ctx context.Context, tokenHash string, at time.Time) (string, error) {
	var memberID string
	err := s.db.QueryRowContext(ctx,
		`UPDATE calendar_feeds SET last_used_at = $1 WHERE token_hash = $2 RETURNING member_id`,
		at.UnixMilli(), tokenHash).Scan(&memberID)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return "", calendar.ErrNoFeed
	}
	if err != nil {
		return "", fmt.Errorf("use calendar feed: %w", err)
	}
	return memberID, nil
}
