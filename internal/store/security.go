package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/security"
)

// SecurityStore implements security.Store.
type SecurityStore struct{ db *DB }

// NewSecurityStore returns the security centre's store.
func NewSecurityStore(db *DB) *SecurityStore { return &SecurityStore{db: db} }

var _ security.Store = (*SecurityStore)(nil)

func (s *SecurityStore) AddEvent(ctx context.Context, memberID string, e security.Event) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO security_events (id, member_id, kind, at, client_addr, user_agent, device) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		NewID(), memberID, e.Kind, e.At.UnixMilli(), e.ClientAddr, e.UserAgent, e.Device)
	if err != nil {
		return fmt.Errorf("add security event: %w", Translate(err))
	}
	return nil
}

func (s *SecurityStore) Events(ctx context.Context, memberID string, since time.Time, limit int) ([]security.Event, error) {
	rs, err := s.db.QueryContext(ctx,
		`SELECT kind, at, client_addr, user_agent, device FROM security_events
		 WHERE member_id = $1 AND at >= $2 ORDER BY at DESC, id LIMIT $3`, memberID, since.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("security events: %w", err)
	}
	defer rs.Close()
	out := []security.Event{}
	for rs.Next() {
		var e security.Event
		var at int64
		if err := rs.Scan(&e.Kind, &at, &e.ClientAddr, &e.UserAgent, &e.Device); err != nil {
			return nil, fmt.Errorf("security events: %w", err)
		}
		e.At = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	return out, rs.Err()
}

func (s *SecurityStore) HasSignIn(ctx context.Context, memberID, device string, since time.Time) (bool, error) {
	q := `SELECT COUNT(*) FROM security_events WHERE member_id = $1 AND at >= $2 AND kind IN ($3, $4)`
	args := []any{memberID, since.UnixMilli(), security.KindSignIn, security.KindSignInNewDevice}
	if device != "" {
		q += ` AND device = $5`
		args = append(args, device)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return false, fmt.Errorf("sign-in history: %w", err)
	}
	return n > 0, nil
}

func (s *SecurityStore) PurgeEvents(ctx context.Context, before time.Time) (int64, error) {
	r, err := s.db.ExecContext(ctx, `DELETE FROM security_events WHERE at < $1`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("purge security events: %w", err)
	}
	return r.RowsAffected()
}

func (s *SecurityStore) Sessions(ctx context.Context, memberID string) ([]auth.Session, error) {
	rs, err := s.db.QueryContext(ctx,
		`SELECT id_hash, member_id, log_id, created_at, last_seen_at, client_addr, user_agent
		 FROM sessions WHERE member_id = $1 ORDER BY last_seen_at DESC, id_hash`, memberID)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	defer rs.Close()
	out := []auth.Session{}
	for rs.Next() {
		var ss auth.Session
		var created, seen int64
		if err := rs.Scan(&ss.IDHash, &ss.MemberID, &ss.LogID, &created, &seen, &ss.ClientAddr, &ss.UserAgent); err != nil {
			return nil, fmt.Errorf("sessions: %w", err)
		}
		ss.CreatedAt, ss.LastSeenAt = time.UnixMilli(created).UTC(), time.UnixMilli(seen).UTC()
		out = append(out, ss)
	}
	return out, rs.Err()
}

// DeleteSession ends one session of the member and remembers its hash in
// ended_sessions, in one transaction, so the device is told why; the
// device's flight alerts are switched off with it.
func (s *SecurityStore) DeleteSession(ctx context.Context, memberID, idHash string) error {
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := rememberEnded(ctx, tx, s.db.NowMillis(), auth.EndedElsewhere, `member_id = $2 AND id_hash = $3`, memberID, idHash); err != nil {
			return err
		}
		if err := oidcSessionsEnded(ctx, tx, s.db.NowMillis(), memberID, idHash, ""); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE member_id = $1 AND id_hash = $2`, memberID, idHash)
		if err != nil {
			return fmt.Errorf("delete session: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return security.ErrNotFound
		}
		return removePushes(ctx, tx, pushOfMemberSession, memberID, idHash)
	})
	return err
}

// DeleteOtherSessions ends every session of the member but keepHash,
// remembering their hashes as DeleteSession does.
func (s *SecurityStore) DeleteOtherSessions(ctx context.Context, memberID, keepHash string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := rememberEnded(ctx, tx, s.db.NowMillis(), auth.EndedElsewhere, `member_id = $2 AND id_hash <> $3`, memberID, keepHash); err != nil {
			return err
		}
		if err := oidcSessionsEnded(ctx, tx, s.db.NowMillis(), memberID, "", keepHash); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE member_id = $1 AND id_hash <> $2`, memberID, keepHash); err != nil {
			return fmt.Errorf("delete sessions: %w", err)
		}
		// every other device's alerts, whether its session still lived or ran out
		return removePushes(ctx, tx, pushOfOthers, memberID, keepHash)
	})
}

// rememberEnded records the sessions matching where ($2, $3: memberID,
// hash) as ended on purpose at now, for reason (auth.EndedElsewhere,
// auth.EndedOnPurpose).
func rememberEnded(ctx context.Context, tx *sql.Tx, now int64, reason, where, memberID, idHash string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO ended_sessions (id_hash, ended_at, reason) SELECT id_hash, $1, CAST($4 AS TEXT) FROM sessions WHERE `+where+
		` ON CONFLICT (id_hash) DO NOTHING`, now, memberID, idHash, reason) // #nosec G202 -- where is one of the constants of its callers
	if err != nil {
		return fmt.Errorf("remember ended sessions: %w", err)
	}
	return nil
}

func (s *SecurityStore) Contact(ctx context.Context, memberID string) (security.Contact, error) {
	var c security.Contact
	var first, last, lang string
	err := s.db.QueryRowContext(ctx, `SELECT email, firstname, lastname, `+mailLangOf("members")+` FROM members WHERE id = $1 AND deleted_at IS NULL`, memberID).
		Scan(&c.Email, &first, &last, &lang)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return c, security.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("contact: %w", err)
	}
	c.Lang = i18n.Lang(lang)
	if _, ok := i18n.Parse(lang); !ok {
		c.Lang = i18n.Default
	}
	c.Name = i18n.PersonName(c.Lang, first, last)
	return c, nil
}
