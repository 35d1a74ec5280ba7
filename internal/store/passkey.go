package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"

	"members/internal/passkey"
)

// PasskeyStore implements passkey.Store.
type PasskeyStore struct{ db *DB }

// NewPasskeyStore returns the passkeys' store.
func NewPasskeyStore(db *DB) *PasskeyStore { return &PasskeyStore{db: db} }

var _ passkey.Store = (*PasskeyStore)(nil)

func credentialKey(id []byte) string { return base64.RawURLEncoding.EncodeToString(id) }

const passkeyCols = `id, member_id, name, credential, created_at, last_used_at` // #nosec G101 -- a column list, not a credential

func scanPasskey(sc interface{ Scan(...any) error }) (passkey.Passkey, error) {
	var p passkey.Passkey
	var cred string
	var created int64
	var used sql.NullInt64
	if err := sc.Scan(&p.ID, &p.MemberID, &p.Name, &cred, &created, &used); err != nil {
		return p, err
	}
	if err := json.Unmarshal([]byte(cred), &p.Credential); err != nil {
		return p, fmt.Errorf("passkey credential: %w", err)
	}
	p.CreatedAt = time.UnixMilli(created).UTC()
	if used.Valid {
		t := time.UnixMilli(used.Int64).UTC()
		p.LastUsedAt = &t
	}
	return p, nil
}

func (s *PasskeyStore) List(ctx context.Context, memberID string) ([]passkey.Passkey, error) {
	rs, err := s.db.QueryContext(ctx, `SELECT `+passkeyCols+` FROM passkeys WHERE member_id = $1 ORDER BY created_at, id`, memberID)
	if err != nil {
		return nil, fmt.Errorf("passkeys: %w", err)
	}
	defer rs.Close()
	out := []passkey.Passkey{}
	for rs.Next() {
		p, err := scanPasskey(rs)
		if err != nil {
			return nil, fmt.Errorf("passkeys: %w", err)
		}
		out = append(out, p)
	}
	return out, rs.Err()
}

func (s *PasskeyStore) ByCredentialID(ctx context.Context, credentialID []byte) (passkey.Passkey, error) {
	p, err := scanPasskey(s.db.QueryRowContext(ctx,
		`SELECT `+passkeyCols+` FROM passkeys WHERE credential_id = $1`, credentialKey(credentialID)))
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return p, passkey.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("passkey by credential: %w", err)
	}
	return p, nil
}

func (s *PasskeyStore) Add(ctx context.Context, p passkey.Passkey) error {
	cred, err := json.Marshal(p.Credential)
	if err != nil {
		return fmt.Errorf("passkey credential: %w", err)
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO passkeys (id, member_id, credential_id, credential, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		p.ID, p.MemberID, credentialKey(p.Credential.ID), string(cred), p.Name, p.CreatedAt.UnixMilli())
	if err = Translate(err); errors.Is(err, ErrConflict) {
		return passkey.ErrDuplicate
	}
	if err != nil {
		return fmt.Errorf("add passkey: %w", err)
	}
	return nil
}

func (s *PasskeyStore) one(r sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, Translate(err))
	}
	if n, err := r.RowsAffected(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	} else if n == 0 {
		return passkey.ErrNotFound
	}
	return nil
}

func (s *PasskeyStore) Rename(ctx context.Context, memberID, id, name string) error {
	r, err := s.db.ExecContext(ctx, `UPDATE passkeys SET name = $1 WHERE id = $2 AND member_id = $3`, name, id, memberID)
	return s.one(r, err, "rename passkey")
}

func (s *PasskeyStore) Delete(ctx context.Context, memberID, id string) error {
	r, err := s.db.ExecContext(ctx, `DELETE FROM passkeys WHERE id = $1 AND member_id = $2`, id, memberID)
	return s.one(r, err, "delete passkey")
}

func (s *PasskeyStore) Used(ctx context.Context, id string, c webauthn.Credential, at time.Time) error {
	cred, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("passkey credential: %w", err)
	}
	r, err := s.db.ExecContext(ctx, `UPDATE passkeys SET credential = $1, last_used_at = $2 WHERE id = $3`, string(cred), at.UnixMilli(), id)
	return s.one(r, err, "passkey used")
}

func (s *PasskeyStore) SaveChallenge(ctx context.Context, c passkey.Challenge, now time.Time) error {
	sess, err := json.Marshal(c.Session)
	if err != nil {
		return fmt.Errorf("challenge session: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM webauthn_challenges WHERE expires_at <= $1`, now.UnixMilli()); err != nil {
		return fmt.Errorf("purge challenges: %w", err)
	}
	var member any
	if c.MemberID != "" {
		member = c.MemberID
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO webauthn_challenges (id, member_id, purpose, session, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		c.ID, member, c.Purpose, string(sess), c.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("save challenge: %w", Translate(err))
	}
	return nil
}

// TakeChallenge deletes the row and returns it in one statement: of two
// finishes of the same ceremony (two instances, a replay), one gets it.
func (s *PasskeyStore) TakeChallenge(ctx context.Context, id string) (passkey.Challenge, error) {
	var c passkey.Challenge
	var member sql.NullString
	var sess string
	var exp int64
	err := s.db.QueryRowContext(ctx,
		`DELETE FROM webauthn_challenges WHERE id = $1 RETURNING id, member_id, purpose, session, expires_at`, id).
		Scan(&c.ID, &member, &c.Purpose, &sess, &exp)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return c, passkey.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("take challenge: %w", err)
	}
	if err := json.Unmarshal([]byte(sess), &c.Session); err != nil {
		return c, fmt.Errorf("challenge session: %w", err)
	}
	c.MemberID = member.String
	c.ExpiresAt = time.UnixMilli(exp).UTC()
	return c, nil
}

func (s *PasskeyStore) Member(ctx context.Context, memberID string) (passkey.Member, error) {
	var m passkey.Member
	var first, last string
	err := s.db.QueryRowContext(ctx,
		`SELECT email, firstname, lastname FROM members WHERE id = $1 AND deleted_at IS NULL`, memberID).Scan(&m.Email, &first, &last)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return m, passkey.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("passkey member: %w", err)
	}
	m.DisplayName = strings.TrimSpace(first + " " + last)
	if m.DisplayName == "" {
		m.DisplayName = m.Email
	}
	return m, nil
}

func (s *PasskeyStore) PasswordHash(ctx context.Context, memberID string) (string, error) {
	var h string
	err := s.db.QueryRowContext(ctx, `SELECT password_hash FROM members WHERE id = $1`, memberID).Scan(&h)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return "", passkey.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("password hash: %w", err)
	}
	return h, nil
}
