package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/account"
)

// ProvisionStore keeps the members the booking site provisions, keyed by
// its member number (members.member_number).
type ProvisionStore struct{ db *DB }

// NewProvisionStore returns the store.
func NewProvisionStore(db *DB) *ProvisionStore { return &ProvisionStore{db: db} }

var _ account.ProvisionStore = (*ProvisionStore)(nil)

// Provisioned returns the live member of a member number
// (account.ErrNotFound when none).
func (s *ProvisionStore) Provisioned(ctx context.Context, number string) (account.ProvisionedMember, error) {
	return provisioned(ctx, s.db.DB, number)
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func provisioned(ctx context.Context, q queryRower, number string) (account.ProvisionedMember, error) {
	var (
		p        account.ProvisionedMember
		deact    sql.NullInt64
		mailLang sql.NullString
	)
	m := &p.Member
	err := q.QueryRowContext(ctx, `SELECT `+memberCols+`, password_hash, deactivated_at FROM members
		WHERE member_number = $1 AND deleted_at IS NULL`, number).Scan(&m.ID, &m.Email, &m.Firstname, &m.Lastname, &m.Gender, &m.Birth, &m.Tel, &m.AddressCountryCode,
		&m.AddressPostalCode, &m.AddressStateAndCity, &m.Address1, &m.PassportNo, &m.PassportNationalityCode,
		&m.PassportIssueCountryCode, &m.PassportExpirationDate, &m.Optin1, &m.AutoLoginIsActive,
		&m.AutoLoginNoticeMail, &m.IsEmployee, &m.OnlineShopAccountStatus, &m.Lang, &mailLang, &p.PasswordHash, &deact)
	m.MailLang = mailLang.String
	p.Deactivated = deact.Valid
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return p, account.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("provisioned member: %w", err)
	}
	return p, nil
}

// SaveProvisioned creates the member of number (m.ID is the new id) or
// updates the booking site's fields of the existing one, in one
// transaction. passwordHash is stored only on creation. An address another
// member holds, in any case, is account.ErrEmailTaken; a creation that met
// a parallel one of the same number is account.ErrProvisionRace (retry).
func (s *ProvisionStore) SaveProvisioned(ctx context.Context, number string, m account.Member, passwordHash string, create bool, now time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		return saveProvisioned(ctx, tx, account.ProvisionWrite{Number: number, Member: m, PasswordHash: passwordHash, Create: create}, now.UnixMilli())
	})
}

// saveProvisioned is SaveProvisioned's work in tx (and a batch's, one
// member at a time, when its multi-row insert met a clash).
func saveProvisioned(ctx context.Context, tx *sql.Tx, w account.ProvisionWrite, at int64) error {
	m := w.Member
	var other string
	err := Translate(tx.QueryRowContext(ctx, `SELECT id FROM members WHERE email_key = $1 AND id <> $2`,
		EmailKey(m.Email), m.ID).Scan(&other))
	switch {
	case err == nil:
		return account.ErrEmailTaken
	case !errors.Is(err, ErrNotFound):
		return fmt.Errorf("provision e-mail: %w", err)
	}
	if w.Create {
		_, err = tx.ExecContext(ctx, `INSERT INTO members (`+memberInsertCols+`)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22)`, memberInsertRow(w, at)...)
		if err = Translate(err); errors.Is(err, ErrConflict) {
			return account.ErrProvisionRace
		}
		if err != nil {
			return fmt.Errorf("provision member: %w", err)
		}
		return nil
	}
	_, err = tx.ExecContext(ctx, memberUpdateSQL, memberUpdateArgs(w, at)...)
	if err = Translate(err); errors.Is(err, ErrConflict) {
		return account.ErrEmailTaken
	}
	if err != nil {
		return fmt.Errorf("provision update: %w", err)
	}
	return nil
}

// SetDeactivated deactivates (ending every session in the same
// transaction) or reactivates the member of number; account.ErrNotFound
// when none.
func (s *ProvisionStore) SetDeactivated(ctx context.Context, number string, deactivated bool, now time.Time) (string, error) {
	var id string
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var at any
		if deactivated {
			at = now.UnixMilli()
		}
		err := Translate(tx.QueryRowContext(ctx, `UPDATE members SET deactivated_at = $1, updated_at = $2
			WHERE member_number = $3 AND deleted_at IS NULL RETURNING id`, at, now.UnixMilli(), number).Scan(&id))
		if errors.Is(err, ErrNotFound) {
			return account.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("deactivate member: %w", err)
		}
		if deactivated {
			if err := oidcMemberSignedOut(ctx, tx, now.UnixMilli(), id); err != nil {
				return fmt.Errorf("deactivate member: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE member_id = $1`, id); err != nil {
				return fmt.Errorf("deactivate member sessions: %w", err)
			}
			if err := removePushes(ctx, tx, pushOfMember, id); err != nil {
				return err
			}
		}
		return nil
	})
	return id, err
}

// LiveReset reports whether the member has a usable password link.
func (s *ProvisionStore) LiveReset(ctx context.Context, memberID string, now time.Time) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM password_resets WHERE member_id = $1 AND used_at IS NULL AND expires_at > $2`,
		memberID, now.UnixMilli()).Scan(&n); err != nil {
		return false, fmt.Errorf("live reset: %w", err)
	}
	return n > 0, nil
}
