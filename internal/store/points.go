package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"members/internal/payment"
	"members/internal/points"
)

// PointStore implements points.Store.
type PointStore struct{ db *DB }

// NewPointStore returns the points store.
func NewPointStore(db *DB) *PointStore { return &PointStore{db: db} }

var _ points.Store = (*PointStore)(nil)

const voucherCols = `v.id, COALESCE(v.member_id, ''), v.number, v.current_code, v.currency, v.issued_amount, v.balance,
	v.effective_date, v.expire_date, v.travel_effective_date, v.travel_expire_date, v.pin_hash, v.status_code,
	v.rules, v.source, v.issued_name, v.payment_amount, v.payment_method, COALESCE(v.payment_process_id, ''),
	COALESCE(v.exchange_code_id, ''), COALESCE(v.reissued_from, ''), v.created_at`

type rowScanner interface{ Scan(...any) error }

func scanVoucher(r rowScanner) (points.Voucher, error) {
	var v points.Voucher
	var rules string
	var created int64
	err := r.Scan(&v.ID, &v.MemberID, &v.Number, &v.CurrentCode, &v.Currency, &v.IssuedAmount, &v.Balance,
		&v.EffectiveDate, &v.ExpireDate, &v.TravelEffectiveDate, &v.TravelExpireDate, &v.PinHash, &v.StatusCode,
		&rules, &v.Source, &v.IssuedName, &v.PaymentAmount, &v.PaymentMethod, &v.PaymentProcessID,
		&v.ExchangeCodeID, &v.ReissuedFrom, &created)
	if err != nil {
		return v, err
	}
	v.CreatedAt = time.UnixMilli(created).UTC()
	if err := json.Unmarshal([]byte(rules), &v.Rules); err != nil {
		return v, fmt.Errorf("voucher %s rules: %w", v.Number, err)
	}
	return v, nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// voucherConflict maps a unique clash on insert: a taken number can be
// retried with another; any other key means the goods exist already.
func voucherConflict(err error, other error) error {
	err = Translate(err)
	if !errors.Is(err, ErrConflict) {
		return err
	}
	if strings.Contains(err.Error(), "number") {
		return points.ErrDuplicate
	}
	return other
}

func insertVoucher(ctx context.Context, x execer, v points.Voucher, ref string, now int64) error {
	if v.ID == "" {
		return errors.New("voucher without id")
	}
	rules, err := json.Marshal(v.Rules)
	if err != nil {
		return err
	}
	if v.Rules == nil {
		rules = []byte("[]")
	}
	_, err = x.ExecContext(ctx, `INSERT INTO point_vouchers (id, member_id, number, current_code, currency, issued_amount, balance,
		effective_date, expire_date, travel_effective_date, travel_expire_date, pin_hash, status_code, rules, source,
		issued_name, payment_amount, payment_method, payment_process_id, exchange_code_id, reissued_from, created_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22)`,
		v.ID, nullable(v.MemberID), v.Number, v.CurrentCode, v.Currency, v.IssuedAmount, v.Balance,
		v.EffectiveDate, v.ExpireDate, v.TravelEffectiveDate, v.TravelExpireDate, v.PinHash, v.StatusCode, string(rules), v.Source,
		v.IssuedName, v.PaymentAmount, v.PaymentMethod, nullable(v.PaymentProcessID), nullable(v.ExchangeCodeID), nullable(v.ReissuedFrom), now)
	if err != nil {
		return err
	}
	return addEntry(ctx, x, v.ID, points.EntryIssue, v.Balance, v.Balance, ref, now)
}

// addEntry appends a ledger entry. Callers hold the voucher's row (they
// changed it in the same transaction), so the next sequence number is theirs.
func addEntry(ctx context.Context, x execer, voucherID, kind string, delta, after int64, ref string, now int64) error {
	_, err := x.ExecContext(ctx, `INSERT INTO point_ledger (id, voucher_id, seq, kind, delta, balance_after, reference, created_at)
		VALUES ($1, $2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM point_ledger WHERE voucher_id = $2), $3, $4, $5, $6, $7)`,
		NewID(), voucherID, kind, delta, after, ref, now)
	if err != nil {
		return fmt.Errorf("ledger entry: %w", err)
	}
	return nil
}

func (s *PointStore) Create(ctx context.Context, uow payment.Tx, v points.Voucher, ref string) error {
	tx, err := TxOf(uow)
	if err != nil {
		return fmt.Errorf("create voucher: %w", err)
	}
	if v.ID == "" {
		v.ID = NewID()
	}
	do := func(tx *sql.Tx) error {
		if err := insertVoucher(ctx, tx, v, ref, s.db.NowMillis()); err != nil {
			return voucherConflict(err, fmt.Errorf("%w: %v", points.ErrDuplicate, err))
		}
		return nil
	}
	if tx != nil {
		return do(tx)
	}
	return s.db.Tx(ctx, do)
}

func searchVoucherWhere(q points.Query) (string, []any) {
	var b strings.Builder
	args := []any{q.MemberID}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	b.WriteString(`v.member_id = $1`)
	if q.Currency != "" {
		b.WriteString(` AND v.currency = ` + arg(q.Currency))
	}
	if q.ExpireBy != "" {
		b.WriteString(` AND v.expire_date <= ` + arg(q.ExpireBy))
	}
	if q.TravelUntil != "" {
		b.WriteString(` AND v.travel_expire_date >= ` + arg(q.TravelUntil))
	}
	if q.HasBalance {
		b.WriteString(` AND v.balance > 0`)
	}
	if q.OnlyActive {
		b.WriteString(` AND v.status_code = 'ACTIVE' AND v.expire_date >= ` + arg(q.Today))
	}
	return b.String(), args
}

func (s *PointStore) Search(ctx context.Context, q points.Query) ([]points.Voucher, int, error) {
	where, args := searchVoucherWhere(q)
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM point_vouchers v WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count vouchers: %w", err)
	}
	if total == 0 || q.Offset >= total {
		return []points.Voucher{}, total, nil
	}
	args = append(args, q.Limit, q.Offset)
	vs, err := s.list(ctx, `SELECT `+voucherCols+` FROM point_vouchers v WHERE `+where+
		` ORDER BY v.expire_date, v.number LIMIT $`+strconv.Itoa(len(args)-1)+` OFFSET $`+strconv.Itoa(len(args)), args...)
	return vs, total, err
}

func (s *PointStore) list(ctx context.Context, query string, args ...any) ([]points.Voucher, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list vouchers: %w", err)
	}
	defer rows.Close()
	out := []points.Voucher{}
	for rows.Next() {
		v, err := scanVoucher(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s *PointStore) Wallet(ctx context.Context, memberID string) ([]points.Voucher, error) {
	return s.list(ctx, `SELECT `+voucherCols+` FROM point_vouchers v
		WHERE v.member_id = $1 AND v.status_code = 'ACTIVE' AND v.balance > 0 ORDER BY v.expire_date, v.number`, memberID)
}

func (s *PointStore) ByNumber(ctx context.Context, number string) (points.Voucher, error) {
	v, err := scanVoucher(s.db.QueryRowContext(ctx, `SELECT `+voucherCols+` FROM point_vouchers v WHERE v.number = $1`, number))
	if errors.Is(Translate(err), ErrNotFound) {
		return v, points.ErrNotFound
	}
	return v, err
}

func (s *PointStore) Ledger(ctx context.Context, voucherID string) ([]points.Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, delta, balance_after, reference, created_at
		FROM point_ledger WHERE voucher_id = $1 ORDER BY seq`, voucherID)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	defer rows.Close()
	out := []points.Entry{}
	for rows.Next() {
		var e points.Entry
		var at int64
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Delta, &e.BalanceAfter, &e.Reference, &at); err != nil {
			return nil, err
		}
		e.CreatedAt = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

func (s *PointStore) Spend(ctx context.Context, memberID, number string, amount int64, ref, today string) (points.Voucher, error) {
	var v points.Voucher
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		id, err := spend(ctx, tx, memberID, number, amount, ref, today, s.db.NowMillis())
		if err != nil {
			return err
		}
		v, err = scanVoucher(tx.QueryRowContext(ctx, `SELECT `+voucherCols+` FROM point_vouchers v WHERE v.id = $1`, id))
		return err
	})
	return v, err
}

// spend takes amount off the member's voucher and writes its ledger entry
// in tx; it returns the voucher's id.
func spend(ctx context.Context, tx *sql.Tx, memberID, number string, amount int64, ref, today string, now int64) (string, error) {
	var id string
	var bal int64
	// The guard and the change are one statement: two concurrent spends
	// cannot both pass the balance check.
	err := tx.QueryRowContext(ctx, `UPDATE point_vouchers SET balance = balance - $1
		WHERE number = $2 AND member_id = $3 AND status_code = 'ACTIVE' AND balance >= $1
		  AND effective_date <= $4 AND expire_date >= $4
		RETURNING id, balance`, amount, number, memberID, today).Scan(&id, &bal)
	if errors.Is(Translate(err), ErrNotFound) {
		var owner sql.NullString
		if e := tx.QueryRowContext(ctx, `SELECT member_id FROM point_vouchers WHERE number = $1`, number).Scan(&owner); e != nil || owner.String != memberID {
			return "", points.ErrNotFound
		}
		return "", points.ErrInsufficient
	}
	if err != nil {
		return "", fmt.Errorf("spend: %w", err)
	}
	return id, addEntry(ctx, tx, id, points.EntrySpend, -amount, bal, ref, now)
}

func (s *PointStore) Reissue(ctx context.Context, old points.Voucher, nv points.Voucher) error {
	if nv.ID == "" {
		nv.ID = NewID()
	}
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := s.db.NowMillis()
		res, err := tx.ExecContext(ctx, `UPDATE point_vouchers SET balance = 0, status_code = 'REISSUED', current_code = $1
			WHERE id = $2 AND status_code = 'ACTIVE' AND balance = $3`, nv.Number, old.ID, old.Balance)
		if err != nil {
			return fmt.Errorf("reissue: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return points.ErrAlreadyReissued
		}
		if err := addEntry(ctx, tx, old.ID, points.EntryReissueOut, -old.Balance, 0, "reissue:"+nv.Number, now); err != nil {
			return err
		}
		if err := insertVoucher(ctx, tx, nv, "reissue:"+old.Number, now); err != nil {
			return voucherConflict(err, points.ErrAlreadyReissued)
		}
		return nil
	})
}

func (s *PointStore) AddCodes(ctx context.Context, codes []points.ExchangeCode) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, c := range codes {
			_, err := tx.ExecContext(ctx, `INSERT INTO point_exchange_codes (id, code, password_hash, currency, amount, ana, created_at)
				VALUES ($1,$2,$3,$4,$5,$6,$7)`, NewID(), c.Code, c.PasswordHash, c.Currency, c.Amount, c.Ana, c.CreatedAt.UnixMilli())
			if errors.Is(Translate(err), ErrConflict) {
				return points.ErrDuplicate
			}
			if err != nil {
				return fmt.Errorf("add code: %w", err)
			}
		}
		return nil
	})
}

func (s *PointStore) CodeByCode(ctx context.Context, code string) (points.ExchangeCode, error) {
	var c points.ExchangeCode
	var used sql.NullInt64
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT id, code, password_hash, currency, amount, ana, used_at, created_at
		FROM point_exchange_codes WHERE code = $1`, code).Scan(&c.ID, &c.Code, &c.PasswordHash, &c.Currency, &c.Amount, &c.Ana, &used, &created)
	if errors.Is(Translate(err), ErrNotFound) {
		return c, points.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("exchange code: %w", err)
	}
	if used.Valid {
		t := time.UnixMilli(used.Int64).UTC()
		c.UsedAt = &t
	}
	c.CreatedAt = time.UnixMilli(created).UTC()
	return c, nil
}

func (s *PointStore) Redeem(ctx context.Context, codeID, memberID string, v points.Voucher) error {
	if v.ID == "" {
		v.ID = NewID()
	}
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := s.db.NowMillis()
		// Only one transaction can flip used_at from NULL.
		res, err := tx.ExecContext(ctx, `UPDATE point_exchange_codes SET used_at = $1, used_by = $2 WHERE id = $3 AND used_at IS NULL`,
			now, memberID, codeID)
		if err != nil {
			return fmt.Errorf("redeem: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return points.ErrCodeUsed
		}
		if err := insertVoucher(ctx, tx, v, "exchange", now); err != nil {
			return voucherConflict(err, points.ErrCodeUsed)
		}
		return nil
	})
}

func (s *PointStore) MemberByEmail(ctx context.Context, email string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT id FROM members WHERE email_key = $1`, EmailKey(email)).Scan(&id)
	if errors.Is(Translate(err), ErrNotFound) {
		return "", points.ErrNotFound
	}
	return id, err
}

func (s *PointStore) Contact(ctx context.Context, memberID string) (points.Contact, error) {
	var c points.Contact
	err := s.db.QueryRowContext(ctx, `SELECT email, firstname, lastname, `+mailLangOf("members")+`, `+chosenMailLangOf("members")+` FROM members WHERE id = $1`, memberID).
		Scan(&c.Email, &c.Firstname, &c.Lastname, &c.Lang, &c.MailLang)
	c.MemberID = memberID
	if errors.Is(Translate(err), ErrNotFound) {
		return c, points.ErrNotFound
	}
	return c, err
}

func (s *PointStore) ReminderTargets(ctx context.Context, from, to string) ([]points.ReminderTarget, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+voucherCols+`, m.email, m.firstname, m.lastname, `+mailLangOf("m")+`
		FROM point_vouchers v JOIN members m ON m.id = v.member_id
		WHERE v.status_code = 'ACTIVE' AND v.balance > 0 AND v.expire_date >= $1 AND v.expire_date <= $2
		ORDER BY v.expire_date, v.number`, from, to)
	if err != nil {
		return nil, fmt.Errorf("reminder targets: %w", err)
	}
	defer rows.Close()
	out := []points.ReminderTarget{}
	for rows.Next() {
		var t points.ReminderTarget
		var rules string
		var created int64
		v := &t.Voucher
		if err := rows.Scan(&v.ID, &v.MemberID, &v.Number, &v.CurrentCode, &v.Currency, &v.IssuedAmount, &v.Balance,
			&v.EffectiveDate, &v.ExpireDate, &v.TravelEffectiveDate, &v.TravelExpireDate, &v.PinHash, &v.StatusCode,
			&rules, &v.Source, &v.IssuedName, &v.PaymentAmount, &v.PaymentMethod, &v.PaymentProcessID,
			&v.ExchangeCodeID, &v.ReissuedFrom, &created, &t.Contact.Email, &t.Contact.Firstname, &t.Contact.Lastname, &t.Contact.Lang); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(rules), &v.Rules)
		v.CreatedAt = time.UnixMilli(created).UTC()
		t.Contact.MemberID = v.MemberID
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *PointStore) ClaimReminder(ctx context.Context, voucherID string, days int, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO point_reminders (voucher_id, threshold_days, sent_at) VALUES ($1, $2, $3)
		ON CONFLICT (voucher_id, threshold_days) DO NOTHING`, voucherID, days, at.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("claim reminder: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
