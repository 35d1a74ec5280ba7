package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/auth"
)

// AuthStore implements auth.Store.
type AuthStore struct{ db *DB }

// NewAuthStore returns the session and credential store.
func NewAuthStore(db *DB) *AuthStore { return &AuthStore{db: db} }

var _ auth.Store = (*AuthStore)(nil)

// EmailKey is the lookup form of an e-mail address.
func EmailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

func (s *AuthStore) CredentialsByEmail(ctx context.Context, email string) (auth.Credentials, error) {
	var c auth.Credentials
	err := s.db.QueryRowContext(ctx,
		`SELECT id, password_hash FROM members WHERE email_key = $1 AND deleted_at IS NULL AND deactivated_at IS NULL`, EmailKey(email)).
		Scan(&c.MemberID, &c.PasswordHash)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return c, auth.ErrNoMember
	}
	if err != nil {
		return c, fmt.Errorf("credentials: %w", err)
	}
	return c, nil
}

// ReplacePasswordHash swaps an imported hash for the product's own, only
// while the stored one is still oldHash.
func (s *AuthStore) ReplacePasswordHash(ctx context.Context, memberID, oldHash, newHash string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE members SET password_hash = $1 WHERE id = $2 AND password_hash = $3`,
		newHash, memberID, oldHash); err != nil {
		return fmt.Errorf("replace password hash: %w", err)
	}
	return nil
}

func (s *AuthStore) EmailOf(ctx context.Context, memberID string) (string, error) {
	var email string
	err := s.db.QueryRowContext(ctx,
		`SELECT email FROM members WHERE id = $1 AND deleted_at IS NULL`, memberID).Scan(&email)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return "", auth.ErrNoMember
	}
	if err != nil {
		return "", fmt.Errorf("member e-mail: %w", err)
	}
	return email, nil
}

// CreateSession inserts the session only for an existing member that is not
// erased (auth.ErrNoMember otherwise: a sign-on for a deleted account, or a
// sign-in whose credentials were checked just before the erasure committed).
func (s *AuthStore) CreateSession(ctx context.Context, ss auth.Session) error {
	res, err := s.db.ExecContext(ctx,
		`INSERT INTO sessions (id_hash, member_id, log_id, created_at, last_seen_at, client_addr, user_agent)
		 SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS BIGINT), CAST($5 AS BIGINT), CAST($6 AS TEXT), CAST($7 AS TEXT)
		 WHERE EXISTS (SELECT 1 FROM members WHERE id = $2 AND deleted_at IS NULL AND deactivated_at IS NULL)`,
		ss.IDHash, ss.MemberID, ss.LogID, ss.CreatedAt.UnixMilli(), ss.LastSeenAt.UnixMilli(), ss.ClientAddr, ss.UserAgent)
	if err != nil {
		return fmt.Errorf("insert session: %w", Translate(err))
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("insert session: %w", err)
	} else if n == 0 {
		return auth.ErrNoMember
	}
	return nil
}

// sessionByHashSQL is the session lookup of every request: a live session
// of a member not deleted, with the member's bookings version.
const sessionByHashSQL = `SELECT s.id_hash, s.member_id, s.log_id, s.created_at, s.last_seen_at, s.client_addr, s.user_agent, m.bookings_version
	FROM sessions s JOIN members m ON m.id = s.member_id AND m.deleted_at IS NULL AND m.deactivated_at IS NULL WHERE s.id_hash = $1`

func (s *AuthStore) SessionByHash(ctx context.Context, idHash string) (auth.Session, error) {
	var ss auth.Session
	var created, seen int64
	// A primary-key read takes microseconds: not tying it to the request's
	// cancellation spares database/sql a watcher goroutine per call, which
	// cost more than the read itself on every authenticated request.
	// The member's part comes from a covering index (migration 00210);
	// the member's bookings version comes with it, read in the same statement, for
	// the booking search's answer cache (one read less per cached answer).
	err := s.db.queryRowHot(context.WithoutCancel(ctx), sessionByHashSQL, idHash).
		Scan(&ss.IDHash, &ss.MemberID, &ss.LogID, &created, &seen, &ss.ClientAddr, &ss.UserAgent, &ss.BookingsVersion)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return ss, auth.ErrNoSession
	}
	if err != nil {
		return ss, fmt.Errorf("session: %w", err)
	}
	ss.CreatedAt, ss.LastSeenAt = time.UnixMilli(created), time.UnixMilli(seen)
	return ss, nil
}

func (s *AuthStore) TouchSession(ctx context.Context, idHash string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2`, at.UnixMilli(), idHash)
	if err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

// DeleteSession ends a session (a logout) and switches off the flight
// alerts of the device it made or renewed (push_subscriptions).
func (s *AuthStore) DeleteSession(ctx context.Context, idHash string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id_hash = $1`, idHash); err != nil {
			return fmt.Errorf("delete session: %w", err)
		}
		return removePushes(ctx, tx, pushOfSession, idHash)
	})
}

// EndSession is a logout: the session goes, the clients it signed in to
// get a logout token (oidcSessionsEnded), and the flight alerts of the
// device it made or renewed are switched off, in one transaction.
func (s *AuthStore) EndSession(ctx context.Context, idHash string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := oidcSessionsEnded(ctx, tx, s.db.NowMillis(), "", idHash, ""); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id_hash = $1`, idHash); err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		return removePushes(ctx, tx, pushOfSession, idHash)
	})
}

// DeleteMemberSessions ends the sessions (a password change or reset) and
// remembers them as ended on purpose, so their devices erase the trips
// they keep. The sites they signed in to are told: after a reset (every
// session) all of the member's sessions there, else those of the sessions
// that end. Every device's flight alerts are switched off, this one's
// too (it erases its kept trips as well): the member switches them on
// again where wanted.
func (s *AuthStore) DeleteMemberSessions(ctx context.Context, memberID, keepHash string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := s.db.NowMillis()
		if err := rememberEnded(ctx, tx, now, auth.EndedOnPurpose, `member_id = $2 AND id_hash <> $3`, memberID, keepHash); err != nil {
			return err
		}
		var signedOut error
		if keepHash == "" {
			signedOut = oidcMemberSignedOut(ctx, tx, now, memberID)
		} else {
			signedOut = oidcSessionsEnded(ctx, tx, now, memberID, "", keepHash)
		}
		if signedOut != nil {
			return signedOut
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE member_id = $1 AND id_hash <> $2`, memberID, keepHash); err != nil {
			return fmt.Errorf("delete member sessions: %w", err)
		}
		return removePushes(ctx, tx, pushOfMember, memberID)
	})
}

func (s *AuthStore) DeleteStaleSessions(ctx context.Context, idleBefore, createdBefore time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE last_seen_at < $1 OR created_at < $2`,
		idleBefore.UnixMilli(), createdBefore.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("delete stale sessions: %w", err)
	}
	// a session ended before createdBefore would have run out by now anyway
	if _, err := s.db.ExecContext(ctx, `DELETE FROM ended_sessions WHERE ended_at < $1`, createdBefore.UnixMilli()); err != nil {
		return 0, fmt.Errorf("delete old ended sessions: %w", err)
	}
	return res.RowsAffected()
}

// SessionEnding returns why the session of idHash was ended on purpose
// (ended_sessions), "" when it was not.
func (s *AuthStore) SessionEnding(ctx context.Context, idHash string) (string, error) {
	var reason string
	err := s.db.QueryRowContext(ctx, `SELECT reason FROM ended_sessions WHERE id_hash = $1`, idHash).Scan(&reason)
	if errors.Is(Translate(err), ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("ended session: %w", err)
	}
	return reason, nil
}
