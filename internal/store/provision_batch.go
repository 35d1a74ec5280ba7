package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/account"
)

// The members import's batches (account.Provisioner.ProvisionBatch): the
// batch's members read in one statement, written in one transaction, the
// new ones in multi-row inserts (bulk.go).

var _ account.ProvisionBatchStore = (*ProvisionStore)(nil)

// ProvisionedByNumbers returns the live members of numbers, by number.
func (s *ProvisionStore) ProvisionedByNumbers(ctx context.Context, numbers []string) (map[string]account.ProvisionedMember, error) {
	out := make(map[string]account.ProvisionedMember, len(numbers))
	err := queryIn(ctx, s.db.DB, s.db.Engine, `SELECT member_number, `+memberCols+`, password_hash, deactivated_at FROM members
		WHERE deleted_at IS NULL AND member_number IN `, "", nil, numbers, func(rows *sql.Rows) error {
		var (
			number   string
			p        account.ProvisionedMember
			deact    sql.NullInt64
			mailLang sql.NullString
		)
		m := &p.Member
		if err := rows.Scan(&number, &m.ID, &m.Email, &m.Firstname, &m.Lastname, &m.Gender, &m.Birth, &m.Tel, &m.AddressCountryCode,
			&m.AddressPostalCode, &m.AddressStateAndCity, &m.Address1, &m.PassportNo, &m.PassportNationalityCode,
			&m.PassportIssueCountryCode, &m.PassportExpirationDate, &m.Optin1, &m.AutoLoginIsActive,
			&m.AutoLoginNoticeMail, &m.IsEmployee, &m.OnlineShopAccountStatus, &m.Lang, &mailLang, &p.PasswordHash, &deact); err != nil {
			return err
		}
		m.MailLang = mailLang.String
		p.Deactivated = deact.Valid
		out[number] = p
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("provisioned members: %w", err)
	}
	return out, nil
}

// memberInsertCols are the columns a provisioned member is created with.
const memberInsertCols = `id, member_number, email, email_key, password_hash, firstname, lastname,
	gender, birth, tel, address_country_code, address_postal_code, address_state_and_city, address1, passport_no,
	passport_nationality_code, passport_issue_country_code, passport_expiration_date, optin1, lang, created_at, updated_at`

func memberInsertRow(w account.ProvisionWrite, at int64) []any {
	m := w.Member
	return []any{m.ID, w.Number, m.Email, EmailKey(m.Email), w.PasswordHash, m.Firstname, m.Lastname, m.Gender, m.Birth, m.Tel,
		m.AddressCountryCode, m.AddressPostalCode, m.AddressStateAndCity, m.Address1, m.PassportNo,
		m.PassportNationalityCode, m.PassportIssueCountryCode, m.PassportExpirationDate, m.Optin1, m.Lang, at, at}
}

const memberUpdateSQL = `UPDATE members SET email = $1, email_key = $2, firstname = $3, lastname = $4,
	gender = $5, birth = $6, tel = $7, address_country_code = $8, address_postal_code = $9,
	address_state_and_city = $10, address1 = $11, passport_no = $12, passport_nationality_code = $13,
	passport_issue_country_code = $14, passport_expiration_date = $15, optin1 = $16, lang = $17, updated_at = $18
	WHERE id = $19 AND member_number = $20 AND deleted_at IS NULL`

func memberUpdateArgs(w account.ProvisionWrite, at int64) []any {
	m := w.Member
	return []any{m.Email, EmailKey(m.Email), m.Firstname, m.Lastname, m.Gender, m.Birth, m.Tel, m.AddressCountryCode,
		m.AddressPostalCode, m.AddressStateAndCity, m.Address1, m.PassportNo, m.PassportNationalityCode,
		m.PassportIssueCountryCode, m.PassportExpirationDate, m.Optin1, m.Lang, at, m.ID, w.Number}
}

// SaveProvisionedBatch writes the batch's members in one transaction, in
// order (account.ProvisionBatchStore). The addresses are checked first
// against the database and the batch's earlier writes (an update that
// leaves an address frees it for a later one), so the writes refused for
// an address taken are known before anything is written. The others go in
// one savepoint: the updates one statement each, then the new members in
// multi-row inserts. A clash there (another call wrote one of the
// numbers or addresses meanwhile) rolls the savepoint back and writes
// each member under a savepoint of its own, as SaveProvisioned does.
func (s *ProvisionStore) SaveProvisionedBatch(ctx context.Context, ws []account.ProvisionWrite, now time.Time, dryRun bool,
	beforeCommit func()) ([]error, error) {
	if len(ws) == 0 {
		return nil, nil
	}
	at := now.UnixMilli()
	var out []error
	err := s.db.TxRetry(ctx, func(tx *sql.Tx) error {
		out = make([]error, len(ws))
		// who holds each address the batch writes, and the address each
		// updated member holds now
		var keys, updated []string
		for _, w := range ws {
			keys = append(keys, EmailKey(w.Member.Email))
			if !w.Create {
				updated = append(updated, w.Member.ID)
			}
		}
		owners := map[string]string{}
		if err := queryIn(ctx, tx, s.db.Engine, `SELECT id, email_key FROM members WHERE email_key IN `, "", nil, keys, func(rows *sql.Rows) error {
			var id, key string
			if err := rows.Scan(&id, &key); err != nil {
				return err
			}
			owners[key] = id
			return nil
		}); err != nil {
			return fmt.Errorf("provision e-mails: %w", err)
		}
		held := map[string]string{}
		if err := queryIn(ctx, tx, s.db.Engine, `SELECT id, email_key FROM members WHERE id IN `, "", nil, updated, func(rows *sql.Rows) error {
			var id, key string
			if err := rows.Scan(&id, &key); err != nil {
				return err
			}
			held[id] = key
			return nil
		}); err != nil {
			return fmt.Errorf("provision e-mails: %w", err)
		}
		var take []int
		for j, w := range ws {
			key := EmailKey(w.Member.Email)
			if o, ok := owners[key]; ok && o != w.Member.ID {
				out[j] = account.ErrEmailTaken
				continue
			}
			if old, ok := held[w.Member.ID]; ok && old != key && owners[old] == w.Member.ID {
				delete(owners, old)
			}
			owners[key], held[w.Member.ID] = w.Member.ID, key
			take = append(take, j)
		}
		err := savepoint(ctx, tx, "provision_batch", func() error { return s.writeBatch(ctx, tx, ws, take, at) })
		if errors.Is(err, ErrConflict) {
			for _, j := range take {
				out[j] = savepoint(ctx, tx, "provision_member", func() error { return saveProvisioned(ctx, tx, ws[j], at) })
				if out[j] != nil && !errors.Is(out[j], account.ErrEmailTaken) && !errors.Is(out[j], account.ErrProvisionRace) {
					return out[j]
				}
			}
			err = nil
		}
		if err != nil {
			return err
		}
		if beforeCommit != nil {
			beforeCommit()
		}
		if dryRun {
			return errDryRun
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return nil, fmt.Errorf("provision batch: %w", err)
	}
	return out, nil
}

// writeBatch writes ws[take…]: the updates in order, then the new members
// in multi-row inserts. A clash is ErrConflict.
func (s *ProvisionStore) writeBatch(ctx context.Context, tx *sql.Tx, ws []account.ProvisionWrite, take []int, at int64) error {
	var creates [][]any
	var upd *sql.Stmt
	defer func() {
		if upd != nil {
			_ = upd.Close()
		}
	}()
	for _, j := range take {
		w := ws[j]
		if w.Create {
			creates = append(creates, memberInsertRow(w, at))
			continue
		}
		if upd == nil {
			var err error
			if upd, err = tx.PrepareContext(ctx, memberUpdateSQL); err != nil {
				return fmt.Errorf("provision update: %w", err)
			}
		}
		if _, err := upd.ExecContext(ctx, memberUpdateArgs(w, at)...); err != nil {
			return fmt.Errorf("provision update: %w", Translate(err))
		}
	}
	if err := bulkExec(ctx, tx, s.db.Engine, `INSERT INTO members (`+memberInsertCols+`) VALUES `, "", nil, 22, creates); err != nil {
		return fmt.Errorf("provision members: %w", Translate(err))
	}
	return nil
}

// LiveResets returns which of the members have a usable password link.
func (s *ProvisionStore) LiveResets(ctx context.Context, memberIDs []string, now time.Time) (map[string]bool, error) {
	out := map[string]bool{}
	err := queryIn(ctx, s.db.DB, s.db.Engine, `SELECT DISTINCT member_id FROM password_resets WHERE used_at IS NULL AND expires_at > $1
		AND member_id IN `, "", []any{now.UnixMilli()}, memberIDs, func(rows *sql.Rows) error {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		out[id] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("live resets: %w", err)
	}
	return out, nil
}
