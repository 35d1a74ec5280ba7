package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/pass"
	"members/internal/payment"
)

// PassStore implements pass.Store.
type PassStore struct{ db *DB }

// NewPassStore returns the unlimited pass store.
func NewPassStore(db *DB) *PassStore { return &PassStore{db: db} }

var _ pass.Store = (*PassStore)(nil)

func passErr(op string, err error) error {
	err = Translate(err)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%s: %w", op, pass.ErrNotFound)
	case errors.Is(err, ErrConflict):
		return fmt.Errorf("%s: %w", op, pass.ErrConflict)
	}
	return fmt.Errorf("%s: %w", op, err)
}

func (s *PassStore) Plans(ctx context.Context) ([]pass.Plan, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.name, p.name_alt, pe.id, pe.board_begin, pe.board_end, pe.book_begin, pe.book_end,
		pe.currency, pe.price_happy, pe.price_happlus, pe.lottery_quota
		FROM gogo_pass_plans p JOIN gogo_pass_periods pe ON pe.plan_id = p.id
		ORDER BY p.position, p.id, pe.board_begin, pe.id`)
	if err != nil {
		return nil, passErr("pass plans", err)
	}
	defer rows.Close()
	plans := []pass.Plan{}
	for rows.Next() {
		var (
			p  pass.Plan
			pe pass.Period
		)
		if err := rows.Scan(&p.ID, &p.Name, &p.NameAlt, &pe.ID, &pe.AvailablePeriodToBoard.Begin, &pe.AvailablePeriodToBoard.End,
			&pe.AvailablePeriodToBook.Begin, &pe.AvailablePeriodToBook.End, &pe.CurrencyCode, &pe.Price.Happy, &pe.Price.Happlus, &pe.LotteryQuota); err != nil {
			return nil, passErr("pass plans", err)
		}
		if n := len(plans); n > 0 && plans[n-1].ID == p.ID {
			plans[n-1].Periods = append(plans[n-1].Periods, pe)
			continue
		}
		p.Periods = []pass.Period{pe}
		plans = append(plans, p)
	}
	return plans, passErr("pass plans", rows.Err())
}

// #nosec G101 -- column names of the pass tables, not a credential
const passCols = `g.id, g.code, g.member_id, g.plan_id, g.period_id, p.name, p.name_alt, pe.board_begin, pe.board_end, pe.book_begin, pe.book_end,
	g.fare_type, g.currency, g.purchased_price, g.purchased_at, g.source, COALESCE(g.payment_process_id, '')`

func (s *PassStore) Passes(ctx context.Context, memberID string) ([]pass.Pass, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+passCols+` FROM gogo_passes g
		JOIN gogo_pass_plans p ON p.id = g.plan_id JOIN gogo_pass_periods pe ON pe.id = g.period_id
		WHERE g.member_id = $1 ORDER BY g.purchased_at DESC, g.id`, memberID)
	if err != nil {
		return nil, passErr("passes", err)
	}
	defer rows.Close()
	out := []pass.Pass{}
	for rows.Next() {
		var (
			p  pass.Pass
			at int64
		)
		if err := rows.Scan(&p.ID, &p.Code, &p.MemberID, &p.PlanID, &p.PeriodID, &p.Name, &p.NameAlt,
			&p.AvailablePeriodToBoard.Begin, &p.AvailablePeriodToBoard.End, &p.AvailablePeriodToBook.Begin, &p.AvailablePeriodToBook.End,
			&p.FareType, &p.CurrencyCode, &p.PurchasedPrice, &at, &p.Source, &p.PaymentProcessID); err != nil {
			return nil, passErr("passes", err)
		}
		p.PurchasedAt = time.UnixMilli(at).UTC()
		out = append(out, p)
	}
	return out, passErr("passes", rows.Err())
}

func insertPass(ctx context.Context, ex execer, p pass.Pass, codeID string) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO gogo_passes (id, code, member_id, plan_id, period_id, fare_type, currency,
		purchased_price, source, payment_process_id, exchange_code_id, purchased_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
		p.ID, p.Code, p.MemberID, p.PlanID, p.PeriodID, p.FareType, p.CurrencyCode, p.PurchasedPrice, p.Source,
		nullString(p.PaymentProcessID), nullString(codeID), p.PurchasedAt.UnixMilli())
	return err
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *PassStore) InsertPass(ctx context.Context, uow payment.Tx, p pass.Pass) error {
	tx, err := grantTx(uow)
	if err != nil {
		return passErr("insert pass", err)
	}
	return heldErr("insert pass", insertPass(ctx, tx, p, ""))
}

// heldErr is passErr, with a clash on the one-pass-per-period index as
// pass.ErrHeld (PostgreSQL names the index; SQLite names its columns).
func heldErr(op string, err error) error {
	if t := Translate(err); errors.Is(t, ErrConflict) {
		msg := t.Error()
		if strings.Contains(msg, "gogo_passes_member_period") || strings.Contains(msg, "gogo_passes.member_id, gogo_passes.period_id") {
			return fmt.Errorf("%s: %w", op, pass.ErrHeld)
		}
	}
	return passErr(op, err)
}

func (s *PassStore) HeldPeriods(ctx context.Context, memberID string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT period_id FROM gogo_passes WHERE member_id = $1`, memberID)
	if err != nil {
		return nil, passErr("held periods", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, passErr("held periods", err)
		}
		out = append(out, id)
	}
	return out, passErr("held periods", rows.Err())
}

func (s *PassStore) PendingOrders(ctx context.Context, memberID string) ([]json.RawMessage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT details FROM payment_processes
		WHERE member_id = $1 AND product_type = 'gogo_pass' AND status = 'pending'`, memberID)
	if err != nil {
		return nil, passErr("pending pass orders", err)
	}
	defer rows.Close()
	out := []json.RawMessage{}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, passErr("pending pass orders", err)
		}
		out = append(out, json.RawMessage(d))
	}
	return out, passErr("pending pass orders", rows.Err())
}

const entryCols = `e.id, e.member_id, e.plan_id, e.period_id, p.name, p.name_alt, pe.board_begin, pe.board_end, pe.book_begin, pe.book_end,
	e.fare_type, e.lang, e.result, COALESCE(e.draw_id, ''), e.created_at, d.buy_until`

const entryFrom = ` FROM gogo_pass_entries e JOIN gogo_pass_plans p ON p.id = e.plan_id
	JOIN gogo_pass_periods pe ON pe.id = e.period_id LEFT JOIN gogo_pass_draws d ON d.id = e.draw_id`

func (s *PassStore) entries(ctx context.Context, where string, args ...any) ([]pass.Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+entryCols+entryFrom+` WHERE `+where, args...)
	if err != nil {
		return nil, passErr("pass entries", err)
	}
	defer rows.Close()
	out := []pass.Entry{}
	for rows.Next() {
		var (
			e        pass.Entry
			at       int64
			buyUntil sql.NullInt64
		)
		if err := rows.Scan(&e.ID, &e.MemberID, &e.PlanID, &e.PeriodID, &e.Name, &e.NameAlt,
			&e.AvailablePeriodToBoard.Begin, &e.AvailablePeriodToBoard.End, &e.AvailablePeriodToBook.Begin, &e.AvailablePeriodToBook.End,
			&e.FareType, &e.Lang, &e.Result, &e.DrawID, &at, &buyUntil); err != nil {
			return nil, passErr("pass entries", err)
		}
		e.CreatedAt = time.UnixMilli(at).UTC()
		if buyUntil.Valid && e.Result == pass.ResultWon {
			t := time.UnixMilli(buyUntil.Int64).UTC()
			e.BuyUntil = &t
		}
		out = append(out, e)
	}
	return out, passErr("pass entries", rows.Err())
}

func (s *PassStore) Entries(ctx context.Context, memberID string) ([]pass.Entry, error) {
	return s.entries(ctx, `e.member_id = $1 ORDER BY e.created_at DESC, e.id`, memberID)
}

func (s *PassStore) InsertEntry(ctx context.Context, e pass.Entry) error {
	return passErr("insert entry", insertEntry(ctx, s.db, e))
}

func insertEntry(ctx context.Context, ex execer, e pass.Entry) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO gogo_pass_entries (id, member_id, plan_id, period_id, fare_type, lang, result, created_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`, e.ID, e.MemberID, e.PlanID, e.PeriodID, e.FareType, e.Lang, pass.ResultPending, e.CreatedAt.UnixMilli())
	return err
}

func (s *PassStore) PendingEntries(ctx context.Context) ([]pass.Entry, error) {
	return s.entries(ctx, `e.result = 'pending' ORDER BY e.id`)
}

func (s *PassStore) RecordDraw(ctx context.Context, d pass.Draw, entrants []pass.Entry) error {
	return passErr("record draw", s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO gogo_pass_draws (id, seed, entrants, winners, drawn_at, buy_until) VALUES ($1,$2,$3,$4,$5,$6)`,
			d.ID, d.Seed, d.Entrants, d.Winners, d.DrawnAt.UnixMilli(), d.BuyUntil.UnixMilli()); err != nil {
			return err
		}
		for _, e := range entrants {
			res, err := tx.ExecContext(ctx, `UPDATE gogo_pass_entries SET result = $1, draw_id = $2 WHERE id = $3 AND result = 'pending'`, e.Result, d.ID, e.ID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return fmt.Errorf("entry %s already drawn: %w", e.ID, ErrConflict)
			}
		}
		return nil
	}))
}

func (s *PassStore) LastDraw(ctx context.Context) (pass.Draw, []pass.Entry, error) {
	var (
		d             pass.Draw
		drawn, buyEnd int64
	)
	err := s.db.QueryRowContext(ctx, `SELECT id, seed, entrants, winners, drawn_at, buy_until FROM gogo_pass_draws ORDER BY drawn_at DESC, id DESC LIMIT 1`).
		Scan(&d.ID, &d.Seed, &d.Entrants, &d.Winners, &drawn, &buyEnd)
	if err != nil {
		return pass.Draw{}, nil, passErr("last draw", err)
	}
	d.DrawnAt, d.BuyUntil = time.UnixMilli(drawn).UTC(), time.UnixMilli(buyEnd).UTC()
	es, err := s.entries(ctx, `e.draw_id = $1 ORDER BY e.id`, d.ID)
	return d, es, err
}

func (s *PassStore) ExchangeCode(ctx context.Context, code string) (pass.ExchangeCode, error) {
	var c pass.ExchangeCode
	err := s.db.QueryRowContext(ctx, `SELECT id, code, password_hash, plan_id, period_id, fare_type, COALESCE(redeemed_by, '')
		FROM gogo_pass_exchange_codes WHERE code = $1`, code).
		Scan(&c.ID, &c.Code, &c.PasswordHash, &c.PlanID, &c.PeriodID, &c.FareType, &c.RedeemedBy)
	return c, passErr("exchange code", err)
}

func (s *PassStore) Redeem(ctx context.Context, codeID string, p pass.Pass) error {
	return passErr("redeem code", s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE gogo_pass_exchange_codes SET redeemed_by = $1, redeemed_at = $2 WHERE id = $3 AND redeemed_by IS NULL`,
			p.MemberID, p.PurchasedAt.UnixMilli(), codeID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return ErrConflict
		}
		return heldErr("insert pass", insertPass(ctx, tx, p, codeID))
	}))
}

// InsertExchangeCode adds an exchange code (operator and demo data).
func (s *PassStore) InsertExchangeCode(ctx context.Context, c pass.ExchangeCode) error {
	return passErr("insert exchange code", insertExchangeCode(ctx, s.db, c))
}

func insertExchangeCode(ctx context.Context, ex execer, c pass.ExchangeCode) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO gogo_pass_exchange_codes (id, code, password_hash, plan_id, period_id, fare_type) VALUES ($1,$2,$3,$4,$5,$6)`,
		c.ID, c.Code, c.PasswordHash, c.PlanID, c.PeriodID, c.FareType)
	return err
}
