package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/account"
)

// EmailChangeStore implements account.EmailChangeStore.
type EmailChangeStore struct{ db *DB }

// NewEmailChangeStore returns the e-mail change store.
func NewEmailChangeStore(db *DB) *EmailChangeStore { return &EmailChangeStore{db: db} }

var _ account.EmailChangeStore = (*EmailChangeStore)(nil)

const emailChangeCols = `id, member_id, old_email, new_email, confirm_hash, undo_hash, created_at, expires_at, undo_until, confirmed_at IS NOT NULL`

func scanEmailChange(row interface{ Scan(...any) error }) (account.EmailChange, error) {
	var c account.EmailChange
	var created, expires, undo int64
	err := row.Scan(&c.ID, &c.MemberID, &c.OldEmail, &c.NewEmail, &c.ConfirmHash, &c.UndoHash, &created, &expires, &undo, &c.Confirmed)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return c, account.ErrNotFound
	}
	if err != nil {
		return c, err
	}
	c.CreatedAt, c.ExpiresAt, c.UndoUntil = time.UnixMilli(created), time.UnixMilli(expires), time.UnixMilli(undo)
	return c, nil
}

func (s *EmailChangeStore) CreateEmailChange(ctx context.Context, c account.EmailChange) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		// A new request replaces the pending one (its confirmation link
		// stops working); confirmed changes stay for their undo link.
		if _, err := tx.ExecContext(ctx, `DELETE FROM email_changes
			WHERE member_id = $1 AND confirmed_at IS NULL AND undone_at IS NULL`, c.MemberID); err != nil {
			return fmt.Errorf("drop pending e-mail change: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO email_changes
			(id, member_id, old_email, new_email, confirm_hash, undo_hash, created_at, expires_at, undo_until)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			c.ID, c.MemberID, c.OldEmail, c.NewEmail, c.ConfirmHash, c.UndoHash,
			c.CreatedAt.UnixMilli(), c.ExpiresAt.UnixMilli(), c.UndoUntil.UnixMilli()); err != nil {
			return fmt.Errorf("insert e-mail change: %w", Translate(err))
		}
		return nil
	})
}

func (s *EmailChangeStore) PendingEmailChange(ctx context.Context, memberID string, now time.Time) (account.EmailChange, error) {
	return scanEmailChange(s.db.QueryRowContext(ctx, `SELECT `+emailChangeCols+` FROM email_changes
		WHERE member_id = $1 AND confirmed_at IS NULL AND undone_at IS NULL AND expires_at > $2
		ORDER BY created_at DESC LIMIT 1`, memberID, now.UnixMilli()))
}

func (s *EmailChangeStore) CancelEmailChange(ctx context.Context, memberID string, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE email_changes SET undone_at = $1
		WHERE member_id = $2 AND confirmed_at IS NULL AND undone_at IS NULL`, now.UnixMilli(), memberID); err != nil {
		return fmt.Errorf("cancel e-mail change: %w", err)
	}
	return nil
}

// setMemberEmail moves the member's address from `from` to `to`; nothing
// (ErrNotFound) when the address is no longer `from`.
func setMemberEmail(ctx context.Context, tx *sql.Tx, memberID, from, to string, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE members SET email = $1, email_key = $2, updated_at = $3
		WHERE id = $4 AND email_key = $5`, to, EmailKey(to), now.UnixMilli(), memberID, EmailKey(from))
	if err = Translate(err); errors.Is(err, ErrConflict) {
		return account.ErrEmailTaken
	}
	if err != nil {
		return fmt.Errorf("set e-mail: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNotFound
	}
	return nil
}

func (s *EmailChangeStore) ConfirmEmailChange(ctx context.Context, confirmHash string, now time.Time) (account.EmailChange, error) {
	var c account.EmailChange
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = scanEmailChange(tx.QueryRowContext(ctx, `UPDATE email_changes SET confirmed_at = $1
			WHERE confirm_hash = $2 AND confirmed_at IS NULL AND undone_at IS NULL AND expires_at > $1
			RETURNING `+emailChangeCols, now.UnixMilli(), confirmHash))
		if err != nil {
			return err
		}
		return setMemberEmail(ctx, tx, c.MemberID, c.OldEmail, c.NewEmail, now)
	})
	return c, err
}

func (s *EmailChangeStore) UndoEmailChange(ctx context.Context, undoHash string, now time.Time) (account.EmailChange, error) {
	var c account.EmailChange
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = scanEmailChange(tx.QueryRowContext(ctx, `UPDATE email_changes SET undone_at = $1
			WHERE undo_hash = $2 AND undone_at IS NULL AND undo_until > $1
			RETURNING `+emailChangeCols, now.UnixMilli(), undoHash))
		if err != nil {
			return err
		}
		if !c.Confirmed {
			return nil
		}
		err = setMemberEmail(ctx, tx, c.MemberID, c.NewEmail, c.OldEmail, now)
		if errors.Is(err, account.ErrNotFound) {
			return nil // the address moved on since; the sessions still end
		}
		return err
	})
	return c, err
}
