package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/notify"
)

// NotifyStore implements notify.Store.
type NotifyStore struct{ db *DB }

// NewNotifyStore returns the notification settings store.
func NewNotifyStore(db *DB) *NotifyStore { return &NotifyStore{db: db} }

var _ notify.Store = (*NotifyStore)(nil)

// mailLangOf is the SQL of a member's mail language: the one chosen in
// the notification settings, else the account's. alias names the members
// table in the query. Every store that reads whom to mail uses it, so
// every mail to a member speaks the same language.
func mailLangOf(alias string) string {
	return `COALESCE((SELECT ns.mail_lang FROM notification_settings ns WHERE ns.member_id = ` + alias + `.id), ` + alias + `.lang)`
}

// chosenMailLangOf is the SQL of the mail language a member chose, ”
// when none; alias names the members table in the query.
func chosenMailLangOf(alias string) string {
	return `COALESCE((SELECT ns.mail_lang FROM notification_settings ns WHERE ns.member_id = ` + alias + `.id), '')`
}

func (s *NotifyStore) Settings(ctx context.Context, memberID string) (notify.Stored, error) {
	var (
		st          notify.Stored
		saved       sql.NullString
		flight, pts sql.NullBool
		mailLang    sql.NullString
	)
	err := s.db.QueryRowContext(ctx, `SELECT m.lang, n.member_id, n.flight_changes, n.points_reminders, n.mail_lang
		FROM members m LEFT JOIN notification_settings n ON n.member_id = m.id
		WHERE m.id = $1 AND m.deleted_at IS NULL`, memberID).
		Scan(&st.AccountLang, &saved, &flight, &pts, &mailLang)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return st, notify.ErrNotFound
	}
	if err != nil {
		return st, fmt.Errorf("notification settings: %w", err)
	}
	st.Saved, st.FlightChanges, st.PointsReminders, st.MailLang = saved.Valid, flight.Bool, pts.Bool, mailLang.String
	return st, nil
}

func (s *NotifyStore) Save(ctx context.Context, memberID string, flightChanges, pointsReminders bool, mailLang string, now time.Time) error {
	lang := sql.NullString{String: mailLang, Valid: mailLang != ""}
	res, err := s.db.ExecContext(ctx, `INSERT INTO notification_settings (member_id, flight_changes, points_reminders, mail_lang, updated_at)
		SELECT id, $2, $3, $4, $5 FROM members WHERE id = $1 AND deleted_at IS NULL
		ON CONFLICT (member_id) DO UPDATE SET flight_changes = excluded.flight_changes,
		  points_reminders = excluded.points_reminders, mail_lang = excluded.mail_lang, updated_at = excluded.updated_at`,
		memberID, flightChanges, pointsReminders, lang, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("save notification settings: %w", Translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notify.ErrNotFound
	}
	return nil
}

func (s *NotifyStore) SwitchOff(ctx context.Context, memberID string, k notify.Kind, now time.Time) error {
	var q string
	switch k {
	case notify.FlightChanges:
		q = `INSERT INTO notification_settings (member_id, flight_changes, points_reminders, updated_at)
			SELECT id, FALSE, TRUE, $2 FROM members WHERE id = $1 AND deleted_at IS NULL
			ON CONFLICT (member_id) DO UPDATE SET flight_changes = FALSE, updated_at = excluded.updated_at`
	case notify.PointsReminders:
		q = `INSERT INTO notification_settings (member_id, flight_changes, points_reminders, updated_at)
			SELECT id, TRUE, FALSE, $2 FROM members WHERE id = $1 AND deleted_at IS NULL
			ON CONFLICT (member_id) DO UPDATE SET points_reminders = FALSE, updated_at = excluded.updated_at`
	default:
		return fmt.Errorf("switch off %q: not an optional kind", k)
	}
	res, err := s.db.ExecContext(ctx, q, memberID, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("switch off %s: %w", k, Translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notify.ErrNotFound
	}
	return nil
}
