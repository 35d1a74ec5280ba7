package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/privacy"
)

// PrivacyStore implements privacy.Store: deletion requests and the erasure
// of a member across the tables of every feature, in one transaction.
type PrivacyStore struct{ db *DB }

// NewPrivacyStore returns the your-data store.
func NewPrivacyStore(db *DB) *PrivacyStore { return &PrivacyStore{db: db} }

var _ privacy.Store = (*PrivacyStore)(nil)

func (s *PrivacyStore) Member(ctx context.Context, memberID string) (privacy.Member, error) {
	var m privacy.Member
	var first, last string
	err := s.db.QueryRowContext(ctx,
		`SELECT email, firstname, lastname, password_hash, `+chosenMailLangOf("members")+` FROM members WHERE id = $1 AND deleted_at IS NULL`, memberID).
		Scan(&m.Email, &first, &last, &m.PasswordHash, &m.MailLang)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return m, privacy.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("privacy member: %w", err)
	}
	m.Given, m.Family = first, last
	return m, nil
}

func (s *PrivacyStore) CreateDeletion(ctx context.Context, memberID, tokenHash string, at, expires time.Time) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO account_deletions (member_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)
		 ON CONFLICT (member_id) DO UPDATE SET token_hash = excluded.token_hash,
		   created_at = excluded.created_at, expires_at = excluded.expires_at`,
		memberID, tokenHash, at.UnixMilli(), expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("create deletion: %w", Translate(err))
	}
	return nil
}

func (s *PrivacyStore) DeletionMember(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx,
		`SELECT member_id FROM account_deletions WHERE token_hash = $1 AND expires_at > $2`, tokenHash, now.UnixMilli()).Scan(&id)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return "", privacy.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("deletion token: %w", err)
	}
	return id, nil
}

// eraseStatements run in order inside the erasure's transaction, each with
// $1 = member id. Rows the airline must keep (payments, passes, vouchers,
// the bookings themselves) stay, without the person's name; the rest goes.
var eraseStatements = []string{
	// Mails sent to the member's address (read before the address goes).
	`DELETE FROM mail_outbox WHERE LOWER(to_addr) = (SELECT email_key FROM members WHERE id = $1)`,
	// The member's devices are told that their sessions were ended on
	// purpose (they erase the trips they keep); the record is kept from
	// the login on, as long as a session's cookie lives (auth.EndedOnPurpose).
	`INSERT INTO ended_sessions (id_hash, ended_at, reason) SELECT id_hash, created_at, 'ended' FROM sessions WHERE member_id = $1 ON CONFLICT (id_hash) DO NOTHING`,
	`DELETE FROM sessions WHERE member_id = $1`,
	// What the member granted other sites goes (their logout tokens were
	// queued first, oidcMemberSignedOut).
	`DELETE FROM oidc_grants WHERE member_id = $1`,
	`DELETE FROM oidc_auth_requests WHERE member_id = $1`,
	`DELETE FROM security_events WHERE member_id = $1`,
	`DELETE FROM passkeys WHERE member_id = $1`,
	// The devices' flight alerts, and the pushes owed to them.
	pushOfMember,
	`DELETE FROM webauthn_challenges WHERE member_id = $1`,
	`DELETE FROM passengers WHERE member_id = $1`,
	`DELETE FROM password_resets WHERE member_id = $1`,
	`DELETE FROM calendar_feeds WHERE member_id = $1`,
	`DELETE FROM notification_settings WHERE member_id = $1`,
	`DELETE FROM account_deletions WHERE member_id = $1`,
	// Cards were deleted at the gateway before the transaction.
	`DELETE FROM saved_cards WHERE member_id = $1`,
	// Bookings belong to the airline's reservation system: the link to the
	// member and the contact address go.
	`UPDATE reservations SET member_id = NULL, contact_email = '' WHERE member_id = $1`,
	// Payments are kept for accounting, without the card holder's name.
	`UPDATE payment_processes SET card_holder = '', card_token = '' WHERE member_id = $1`,
	// Point vouchers are issued vouchers: kept, without the name printed on them.
	`UPDATE point_vouchers SET issued_name = '' WHERE member_id = $1`,
	// Lottery entries and unpaid coupon orders are personal, not records.
	`DELETE FROM gogo_pass_entries WHERE member_id = $1`,
	`DELETE FROM coupon_prepared WHERE member_id = $1`,
	// Issued coupon passes are kept without the purchaser's or travellers' identity.
	`UPDATE coupons SET purchaser_lastname = '', purchaser_firstname = '', purchaser_birthday = '', purchaser_gender = '' WHERE member_id = $1`,
	`UPDATE coupon_passengers SET lastname = '', firstname = '', gender = '', date_of_birth = '', nationality_code = '',
	   passport_no = '', inbound_flight_no = '' WHERE coupon_id IN (SELECT id FROM coupons WHERE member_id = $1)`,
}

func (s *PrivacyStore) Erase(ctx context.Context, memberID string, at time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		var deleted sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT deleted_at FROM members WHERE id = $1`, memberID).Scan(&deleted)
		if err = Translate(err); errors.Is(err, ErrNotFound) || deleted.Valid {
			return privacy.ErrNotFound
		} else if err != nil {
			return fmt.Errorf("erase: %w", err)
		}
		// A payment waiting for the gateway would settle or refund to an
		// account that is gone: the deletion waits for it (checked in the
		// transaction; one that starts after this is refunded at capture).
		var pending int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM payment_processes WHERE member_id = $1 AND status = 'pending'`,
			memberID).Scan(&pending); err != nil {
			return fmt.Errorf("erase: pending payments: %w", err)
		}
		if pending > 0 {
			return privacy.ErrStorePaymentPending
		}
		if err := oidcMemberSignedOut(ctx, tx, at.UnixMilli(), memberID); err != nil {
			return fmt.Errorf("erase: %w", err)
		}
		for _, q := range eraseStatements {
			if _, err := tx.ExecContext(ctx, q, memberID); err != nil {
				return fmt.Errorf("erase: %s: %w", strings.Fields(q)[2], err)
			}
		}
		// The member row stays (payments point at it) with nothing personal
		// in it; the e-mail key becomes a tombstone so the address can
		// register again and can never log in to this row.
		_, err = tx.ExecContext(ctx,
			`UPDATE members SET email = '', email_key = 'deleted:' || id, password_hash = '', firstname = '', lastname = '',
			   gender = '', birth = '', tel = '', address_country_code = '', address_postal_code = '',
			   address_state_and_city = '', address1 = '', passport_no = '', passport_nationality_code = '',
			   passport_issue_country_code = '', passport_expiration_date = '', optin1 = FALSE,
			   auto_login_is_active = FALSE, auto_login_notice_mail = FALSE, member_number = NULL, deleted_at = $2, updated_at = $2
			 WHERE id = $1`, memberID, at.UnixMilli())
		if err != nil {
			return fmt.Errorf("erase member: %w", err)
		}
		return nil
	})
}
