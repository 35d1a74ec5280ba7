package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"members/internal/account"
	"members/internal/booking"
	"members/internal/coupon"
	"members/internal/pass"
	"members/internal/payment"
	"members/internal/points"
)

// Seed writes demo and benchmark data in one transaction through the
// store's own statements and the domain types, so the demo loader
// (internal/demo) writes no SQL of its own and a schema change is made
// here once. Plans, periods and coupon products have no operator flow
// yet: the demo is where they come from.
type Seed struct {
	ctx context.Context
	tx  *sql.Tx
	db  *DB
}

// Seed runs fn in one transaction; an error from fn rolls it all back.
func (db *DB) Seed(ctx context.Context, fn func(*Seed) error) error {
	return db.Tx(ctx, func(tx *sql.Tx) error { return fn(&Seed{ctx: ctx, tx: tx, db: db}) })
}

// MembersExisting counts the members that have one of ids or whose login
// is one of emails (the demo checks its own are free).
func (db *DB) MembersExisting(ctx context.Context, ids, emails []string) (int, error) {
	var conds []string
	var args []any
	for _, id := range ids {
		args = append(args, id)
		conds = append(conds, fmt.Sprintf("id = $%d", len(args)))
	}
	for _, e := range emails {
		args = append(args, EmailKey(e))
		conds = append(conds, fmt.Sprintf("email_key = $%d", len(args)))
	}
	if len(conds) == 0 {
		return 0, nil
	}
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM members WHERE `+strings.Join(conds, " OR "), args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count members: %w", err)
	}
	return n, nil
}

// Member adds a member with the password hash.
func (s *Seed) Member(m account.Member, passwordHash string, at time.Time) error {
	_, err := s.tx.ExecContext(s.ctx, `INSERT INTO members (id, email, email_key, password_hash, firstname, lastname, gender, birth, tel,
		address_country_code, address_postal_code, address_state_and_city, address1, passport_no,
		passport_nationality_code, passport_issue_country_code, passport_expiration_date, created_at, updated_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$18)`,
		m.ID, m.Email, EmailKey(m.Email), passwordHash, m.Firstname, m.Lastname, m.Gender, m.Birth, m.Tel,
		m.AddressCountryCode, m.AddressPostalCode, m.AddressStateAndCity, m.Address1, m.PassportNo,
		m.PassportNationalityCode, m.PassportIssueCountryCode, m.PassportExpirationDate, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("seed member %s: %w", m.Email, err)
	}
	return nil
}

// Passenger adds a saved passenger of a member.
func (s *Seed) Passenger(memberID string, p account.Passenger, at time.Time) error {
	return insertPassenger(s.ctx, s.tx, memberID, p, at)
}

// Card adds a saved card.
func (s *Seed) Card(c payment.SavedCard) error {
	if err := addCard(s.ctx, s.tx, c); err != nil {
		return fmt.Errorf("seed card: %w", err)
	}
	return nil
}

// Reservations adds bookings with their segments and passengers.
func (s *Seed) Reservations(now time.Time, list []booking.Reservation) error {
	return InsertReservationsOn(s.ctx, s.tx, s.db.Engine, now, list)
}

// Voucher adds a points voucher with its issue entry in the ledger.
func (s *Seed) Voucher(v points.Voucher, at time.Time) error {
	if v.ID == "" {
		v.ID = NewID()
	}
	if err := insertVoucher(s.ctx, s.tx, v, "demo", at.UnixMilli()); err != nil {
		return fmt.Errorf("seed voucher %s: %w", v.Number, err)
	}
	return nil
}

// Spend spends amount of a member's voucher as a booking would.
func (s *Seed) Spend(memberID, number string, amount int64, ref string, at time.Time) error {
	today := at.In(points.JST).Format(points.DateLayout)
	if _, err := spend(s.ctx, s.tx, memberID, number, amount, ref, today, at.UnixMilli()); err != nil {
		return fmt.Errorf("seed spend of %s: %w", number, err)
	}
	return nil
}

// PointCode adds a points exchange code.
func (s *Seed) PointCode(c points.ExchangeCode) error {
	_, err := s.tx.ExecContext(s.ctx, `INSERT INTO point_exchange_codes (id, code, password_hash, currency, amount, ana, created_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7)`, NewID(), c.Code, c.PasswordHash, c.Currency, c.Amount, c.Ana, c.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("seed exchange code: %w", err)
	}
	return nil
}

// PassPlan adds an unlimited-pass plan and its periods, at position in the
// catalogue.
func (s *Seed) PassPlan(p pass.Plan, position int) error {
	if _, err := s.tx.ExecContext(s.ctx, `INSERT INTO gogo_pass_plans (id, name, name_alt, position) VALUES ($1,$2,$3,$4)`,
		p.ID, p.Name, p.NameAlt, position); err != nil {
		return fmt.Errorf("seed pass plan %s: %w", p.ID, err)
	}
	for _, pe := range p.Periods {
		if _, err := s.tx.ExecContext(s.ctx, `INSERT INTO gogo_pass_periods (id, plan_id, board_begin, board_end, book_begin, book_end,
			currency, price_happy, price_happlus, lottery_quota) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
			pe.ID, p.ID, pe.AvailablePeriodToBoard.Begin, pe.AvailablePeriodToBoard.End, pe.AvailablePeriodToBook.Begin,
			pe.AvailablePeriodToBook.End, pe.CurrencyCode, pe.Price.Happy, pe.Price.Happlus, pe.LotteryQuota); err != nil {
			return fmt.Errorf("seed pass period %s: %w", pe.ID, err)
		}
	}
	return nil
}

// PassExchangeCode adds a code that exchanges for a pass.
func (s *Seed) PassExchangeCode(c pass.ExchangeCode) error {
	if err := insertExchangeCode(s.ctx, s.tx, c); err != nil {
		return fmt.Errorf("seed pass exchange code: %w", err)
	}
	return nil
}

// Pass adds a pass a member holds.
func (s *Seed) Pass(p pass.Pass) error {
	if err := insertPass(s.ctx, s.tx, p, ""); err != nil {
		return fmt.Errorf("seed pass: %w", err)
	}
	return nil
}

// PassEntry adds a lottery entry (pending).
func (s *Seed) PassEntry(e pass.Entry) error {
	if err := insertEntry(s.ctx, s.tx, e); err != nil {
		return fmt.Errorf("seed pass entry: %w", err)
	}
	return nil
}

// CouponProduct adds a coupon pass product and its periods, at position in
// the catalogue. Each period's two plans share the period's currency.
func (s *Seed) CouponProduct(p coupon.Product, position int) error {
	international := 0 // an integer column on both engines
	if p.International {
		international = 1
	}
	if _, err := s.tx.ExecContext(s.ctx, `INSERT INTO coupon_products (id, name, description, position, international) VALUES ($1,$2,$3,$4,$5)`,
		p.ID, p.Name, p.Description, position, international); err != nil {
		return fmt.Errorf("seed coupon product %s: %w", p.ID, err)
	}
	for _, pe := range p.Periods {
		lite, std := pe.Plan.Lite, pe.Plan.Standard
		if _, err := s.tx.ExecContext(s.ctx, `INSERT INTO coupon_periods (id, product_id, description, board_begin, board_end, book_begin,
			book_end, currency, lite_days, lite_uses, lite_price, standard_days, standard_uses, standard_price)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)`,
			pe.ID, p.ID, pe.Description, pe.AvailablePeriodToBoard.Begin, pe.AvailablePeriodToBoard.End, pe.AvailablePeriodToBook.Begin,
			pe.AvailablePeriodToBook.End, lite.CurrencyCode, lite.AvailableDaysAfterFirstUse, lite.AvailableNumberOfUse, lite.PricePerPerson,
			std.AvailableDaysAfterFirstUse, std.AvailableNumberOfUse, std.PricePerPerson); err != nil {
			return fmt.Errorf("seed coupon period %s: %w", pe.ID, err)
		}
	}
	return nil
}

// Coupon adds a coupon pass a member holds; refunded (not zero) records a
// refund of that amount at refundedAt.
func (s *Seed) Coupon(c coupon.Coupon, refunded int64, refundedAt time.Time) error {
	state := ""
	if refunded > 0 {
		state = "done"
	}
	if err := InsertCoupon(s.ctx, s.tx, c, state); err != nil {
		return fmt.Errorf("seed coupon: %w", err)
	}
	if refunded > 0 {
		if _, err := s.tx.ExecContext(s.ctx, `UPDATE coupons SET refund_amount = $1, refunded_at = $2 WHERE id = $3`,
			refunded, refundedAt.UnixMilli(), c.ID); err != nil {
			return fmt.Errorf("seed coupon refund: %w", err)
		}
	}
	return nil
}

// CountMembersByIDPrefix counts the members whose id starts with prefix
// (the benchmark members).
func (db *DB) CountMembersByIDPrefix(ctx context.Context, prefix string) (int, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM members WHERE id LIKE $1`, prefix+"%").Scan(&n); err != nil {
		return 0, fmt.Errorf("count members: %w", err)
	}
	return n, nil
}

// CountReservationsByPNRPrefix counts the bookings whose number starts with
// prefix (the benchmark bookings).
func (db *DB) CountReservationsByPNRPrefix(ctx context.Context, prefix string) (int, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM reservations WHERE pnr LIKE $1`, prefix+"%").Scan(&n); err != nil {
		return 0, fmt.Errorf("count reservations: %w", err)
	}
	return n, nil
}

// BenchMember is a benchmark member: a login and a name, no profile.
type BenchMember struct {
	ID, Email, Firstname, Lastname string
}

// InsertBenchMembers adds members in one statement, all with the same
// password hash (a benchmark logs in as any of them).
func (db *DB) InsertBenchMembers(ctx context.Context, passwordHash string, list []BenchMember, at time.Time) error {
	if len(list) == 0 {
		return nil
	}
	var sb strings.Builder
	args := []any{passwordHash, at.UnixMilli()}
	sb.WriteString(`INSERT INTO members (id, email, email_key, password_hash, firstname, lastname, gender, created_at, updated_at) VALUES `)
	for i, m := range list {
		if i > 0 {
			sb.WriteByte(',')
		}
		n := len(args)
		args = append(args, m.ID, m.Email, EmailKey(m.Email), m.Firstname, m.Lastname)
		fmt.Fprintf(&sb, "($%d,$%d,$%d,$1,$%d,$%d,'female',$2,$2)", n+1, n+2, n+3, n+4, n+5)
	}
	if _, err := db.ExecContext(ctx, sb.String(), args...); err != nil {
		return fmt.Errorf("insert bench members: %w", err)
	}
	return nil
}
