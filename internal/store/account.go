package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/account"
)

// AccountStore implements account.Store.
type AccountStore struct{ db *DB }

// NewAccountStore returns the account store.
func NewAccountStore(db *DB) *AccountStore { return &AccountStore{db: db} }

var _ account.Store = (*AccountStore)(nil)

const memberCols = `id, email, firstname, lastname, gender, birth, tel, address_country_code, address_postal_code,
	address_state_and_city, address1, passport_no, passport_nationality_code, passport_issue_country_code,
	passport_expiration_date, optin1, auto_login_is_active, auto_login_notice_mail, is_employee,
	online_shop_account_status, lang,
	(SELECT ns.mail_lang FROM notification_settings ns WHERE ns.member_id = members.id)`

func scanMember(row *sql.Row) (account.Member, error) {
	var (
		m        account.Member
		mailLang sql.NullString
	)
	err := row.Scan(&m.ID, &m.Email, &m.Firstname, &m.Lastname, &m.Gender, &m.Birth, &m.Tel, &m.AddressCountryCode,
		&m.AddressPostalCode, &m.AddressStateAndCity, &m.Address1, &m.PassportNo, &m.PassportNationalityCode,
		&m.PassportIssueCountryCode, &m.PassportExpirationDate, &m.Optin1, &m.AutoLoginIsActive,
		&m.AutoLoginNoticeMail, &m.IsEmployee, &m.OnlineShopAccountStatus, &m.Lang, &mailLang)
	m.MailLang = mailLang.String
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return m, account.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("member: %w", err)
	}
	return m, nil
}

func (s *AccountStore) Member(ctx context.Context, id string) (account.Member, error) {
	return scanMember(s.db.QueryRowContext(ctx, `SELECT `+memberCols+` FROM members WHERE id = $1`, id))
}

func (s *AccountStore) MemberByEmail(ctx context.Context, email string) (account.Member, error) {
	return scanMember(s.db.QueryRowContext(ctx, `SELECT `+memberCols+` FROM members WHERE email_key = $1`, EmailKey(email)))
}

func (s *AccountStore) UpdateMember(ctx context.Context, m account.Member, now time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE members SET email = $1, email_key = $2, firstname = $3, lastname = $4,
		gender = $5, birth = $6, tel = $7, address_country_code = $8, address_postal_code = $9,
		address_state_and_city = $10, address1 = $11, passport_no = $12, passport_nationality_code = $13,
		passport_issue_country_code = $14, passport_expiration_date = $15, optin1 = $16,
		auto_login_notice_mail = $17, lang = $18, updated_at = $19 WHERE id = $20`,
		m.Email, EmailKey(m.Email), m.Firstname, m.Lastname, m.Gender, m.Birth, m.Tel, m.AddressCountryCode,
		m.AddressPostalCode, m.AddressStateAndCity, m.Address1, m.PassportNo, m.PassportNationalityCode,
		m.PassportIssueCountryCode, m.PassportExpirationDate, m.Optin1, m.AutoLoginNoticeMail, m.Lang,
		now.UnixMilli(), m.ID)
	if err = Translate(err); errors.Is(err, ErrConflict) {
		return account.ErrEmailTaken
	}
	if err != nil {
		return fmt.Errorf("update member: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNotFound
	}
	return nil
}

func (s *AccountStore) PasswordHash(ctx context.Context, memberID string) (string, error) {
	var h string
	err := s.db.QueryRowContext(ctx, `SELECT password_hash FROM members WHERE id = $1`, memberID).Scan(&h)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return "", account.ErrNotFound
	}
	return h, err
}

func (s *AccountStore) SetPasswordHash(ctx context.Context, memberID, hash string, now time.Time) error {
	return setPasswordHash(ctx, s.db.DB, memberID, hash, now)
}

// SetOnlineShopStatus records the member's online-shop link.
func (s *AccountStore) SetOnlineShopStatus(ctx context.Context, memberID, status string, now time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE members SET online_shop_account_status = $1, updated_at = $2 WHERE id = $3`,
		status, now.UnixMilli(), memberID)
	if err != nil {
		return fmt.Errorf("set online shop status: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNotFound
	}
	return nil
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func setPasswordHash(ctx context.Context, db execer, memberID, hash string, now time.Time) error {
	res, err := db.ExecContext(ctx, `UPDATE members SET password_hash = $1, updated_at = $2 WHERE id = $3`,
		hash, now.UnixMilli(), memberID)
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNotFound
	}
	return nil
}

const passengerCols = `id, passenger_type, firstname, lastname, gender, birth, tel, email, passport_no,
	passport_nationality_code, passport_issue_country_code, passport_expiration_date`

func scanPassenger(sc interface{ Scan(...any) error }) (account.Passenger, error) {
	var p account.Passenger
	err := sc.Scan(&p.ID, &p.PassengerType, &p.Firstname, &p.Lastname, &p.Gender, &p.Birth, &p.Tel, &p.Email,
		&p.PassportNo, &p.PassportNationalityCode, &p.PassportIssueCountryCode, &p.PassportExpirationDate)
	return p, err
}

func (s *AccountStore) Passengers(ctx context.Context, memberID string) ([]account.Passenger, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+passengerCols+` FROM passengers WHERE member_id = $1
		ORDER BY created_at, id`, memberID)
	if err != nil {
		return nil, fmt.Errorf("passengers: %w", err)
	}
	defer rows.Close()
	out := []account.Passenger{}
	for rows.Next() {
		p, err := scanPassenger(rows)
		if err != nil {
			return nil, fmt.Errorf("passengers: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func (s *AccountStore) Passenger(ctx context.Context, memberID, id string) (account.Passenger, error) {
	p, err := scanPassenger(s.db.QueryRowContext(ctx, `SELECT `+passengerCols+` FROM passengers
		WHERE id = $1 AND member_id = $2`, id, memberID))
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return p, account.ErrNotFound
	}
	return p, err
}

func (s *AccountStore) AddPassenger(ctx context.Context, memberID string, p account.Passenger, max int, now time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		// Lock the member row so two concurrent adds cannot pass the cap
		// (SQLite transactions here are IMMEDIATE, i.e. already exclusive).
		if s.db.Engine == Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM members WHERE id = $1 FOR UPDATE`, memberID); err != nil {
				return fmt.Errorf("lock member: %w", err)
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM passengers WHERE member_id = $1`, memberID).Scan(&n); err != nil {
			return fmt.Errorf("count passengers: %w", err)
		}
		if n >= max {
			return account.ErrTooManyPassengers
		}
		return insertPassenger(ctx, tx, memberID, p, now)
	})
}

func insertPassenger(ctx context.Context, ex execer, memberID string, p account.Passenger, now time.Time) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO passengers (`+passengerCols+`, member_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
		p.ID, p.PassengerType, p.Firstname, p.Lastname, p.Gender, p.Birth, p.Tel, p.Email, p.PassportNo,
		p.PassportNationalityCode, p.PassportIssueCountryCode, p.PassportExpirationDate, memberID, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert passenger: %w", Translate(err))
	}
	return nil
}

func (s *AccountStore) UpdatePassenger(ctx context.Context, memberID string, p account.Passenger, now time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE passengers SET passenger_type = $1, firstname = $2, lastname = $3,
		gender = $4, birth = $5, tel = $6, email = $7, passport_no = $8, passport_nationality_code = $9,
		passport_issue_country_code = $10, passport_expiration_date = $11, updated_at = $12
		WHERE id = $13 AND member_id = $14`,
		p.PassengerType, p.Firstname, p.Lastname, p.Gender, p.Birth, p.Tel, p.Email, p.PassportNo,
		p.PassportNationalityCode, p.PassportIssueCountryCode, p.PassportExpirationDate, now.UnixMilli(), p.ID, memberID)
	if err != nil {
		return fmt.Errorf("update passenger: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNotFound
	}
	return nil
}

func (s *AccountStore) DeletePassenger(ctx context.Context, memberID, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM passengers WHERE id = $1 AND member_id = $2`, id, memberID)
	if err != nil {
		return fmt.Errorf("delete passenger: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNotFound
	}
	return nil
}

func (s *AccountStore) CreateReset(ctx context.Context, memberID, tokenHash string, now, expires time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		// A new link replaces the older ones; stale rows go too.
		if _, err := tx.ExecContext(ctx, `DELETE FROM password_resets WHERE member_id = $1 OR expires_at < $2`,
			memberID, now.Add(-24*time.Hour).UnixMilli()); err != nil {
			return fmt.Errorf("drop old resets: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, member_id, created_at, expires_at)
			VALUES ($1, $2, $3, $4)`, tokenHash, memberID, now.UnixMilli(), expires.UnixMilli()); err != nil {
			return fmt.Errorf("insert reset: %w", Translate(err))
		}
		return nil
	})
}

func (s *AccountStore) ResetMember(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT member_id FROM password_resets
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`, tokenHash, now.UnixMilli()).Scan(&id)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return "", account.ErrNotFound
	}
	return id, err
}

func (s *AccountStore) ConsumeReset(ctx context.Context, tokenHash string, now time.Time, passwordHash string) (string, error) {
	var memberID string
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE password_resets SET used_at = $1
			WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING member_id`,
			now.UnixMilli(), tokenHash).Scan(&memberID)
		if err = Translate(err); errors.Is(err, ErrNotFound) {
			return account.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("consume reset: %w", err)
		}
		return setPasswordHash(ctx, tx, memberID, passwordHash, now)
	})
	return memberID, err
}
