package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"members/internal/coupon"
	"members/internal/payment"
)

// CouponStore implements coupon.Store.
type CouponStore struct{ db *DB }

// NewCouponStore returns the coupon pass store.
func NewCouponStore(db *DB) *CouponStore { return &CouponStore{db: db} }

var _ coupon.Store = (*CouponStore)(nil)

func couponErr(op string, err error) error {
	err = Translate(err)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%s: %w", op, coupon.ErrNotFound)
	case errors.Is(err, ErrConflict):
		return fmt.Errorf("%s: %w", op, coupon.ErrConflict)
	}
	return fmt.Errorf("%s: %w", op, err)
}

func (s *CouponStore) Products(ctx context.Context) ([]coupon.Product, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.name, p.description, p.international, pe.id, pe.description, pe.board_begin, pe.board_end,
		pe.book_begin, pe.book_end, pe.currency, pe.lite_days, pe.lite_uses, pe.lite_price, pe.standard_days, pe.standard_uses, pe.standard_price
		FROM coupon_products p JOIN coupon_periods pe ON pe.product_id = p.id
		ORDER BY p.position, p.id, pe.board_begin, pe.id`)
	if err != nil {
		return nil, couponErr("coupon products", err)
	}
	defer rows.Close()
	out := []coupon.Product{}
	for rows.Next() {
		var (
			p    coupon.Product
			pe   coupon.Period
			intl int
		)
		if err := rows.Scan(&p.ID, &p.Name, &p.Description, &intl, &pe.ID, &pe.Description, &pe.AvailablePeriodToBoard.Begin, &pe.AvailablePeriodToBoard.End,
			&pe.AvailablePeriodToBook.Begin, &pe.AvailablePeriodToBook.End, &pe.Plan.Lite.CurrencyCode,
			&pe.Plan.Lite.AvailableDaysAfterFirstUse, &pe.Plan.Lite.AvailableNumberOfUse, &pe.Plan.Lite.PricePerPerson,
			&pe.Plan.Standard.AvailableDaysAfterFirstUse, &pe.Plan.Standard.AvailableNumberOfUse, &pe.Plan.Standard.PricePerPerson); err != nil {
			return nil, couponErr("coupon products", err)
		}
		pe.Plan.Standard.CurrencyCode = pe.Plan.Lite.CurrencyCode
		p.International = intl != 0
		if n := len(out); n > 0 && out[n-1].ID == p.ID {
			out[n-1].Periods = append(out[n-1].Periods, pe)
			continue
		}
		p.Periods = []coupon.Period{pe}
		out = append(out, p)
	}
	return out, couponErr("coupon products", rows.Err())
}

func (s *CouponStore) SavePrepared(ctx context.Context, p coupon.Prepared) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO coupon_prepared (member_id, request_id, body, created_at) VALUES ($1,$2,$3,$4)
		ON CONFLICT (member_id, request_id) DO UPDATE SET body = excluded.body, created_at = excluded.created_at`,
		p.MemberID, p.RequestID, string(p.Body), p.CreatedAt.UnixMilli())
	return couponErr("save prepared coupon", err)
}

func (s *CouponStore) Prepared(ctx context.Context, memberID, requestID string) (coupon.Prepared, error) {
	var (
		p    = coupon.Prepared{MemberID: memberID, RequestID: requestID}
		body string
		at   int64
	)
	err := s.db.QueryRowContext(ctx, `SELECT body, created_at FROM coupon_prepared WHERE member_id = $1 AND request_id = $2`, memberID, requestID).Scan(&body, &at)
	if err != nil {
		return coupon.Prepared{}, couponErr("prepared coupon", err)
	}
	p.Body, p.CreatedAt = []byte(body), time.UnixMilli(at).UTC()
	return p, nil
}

const couponCols = `id, member_id, product_id, period_id, name, description, board_begin, board_end, book_begin, book_end, fare_type, currency,
	price_per_person, purchased_price, items, days_after_first_use, number_of_use, number_of_used,
	purchaser_lastname, purchaser_firstname, purchaser_birthday, purchaser_gender, COALESCE(payment_process_id, ''),
	purchased_at, refund_state, refunded_at`

func (s *CouponStore) coupons(ctx context.Context, where string, args ...any) ([]coupon.Coupon, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+couponCols+` FROM coupons WHERE `+where, args...)
	if err != nil {
		return nil, couponErr("coupons", err)
	}
	out := []coupon.Coupon{}
	for rows.Next() {
		var (
			c        coupon.Coupon
			at       int64
			state    string
			refunded sql.NullInt64
		)
		if err := rows.Scan(&c.ID, &c.MemberID, &c.ProductID, &c.PeriodID, &c.Name, &c.Description,
			&c.AvailablePeriodToBoard.Begin, &c.AvailablePeriodToBoard.End, &c.AvailablePeriodToBook.Begin, &c.AvailablePeriodToBook.End,
			&c.FareType, &c.CurrencyCode, &c.PricePerPerson, &c.PurchasedPrice, &c.Items, &c.AvailableDaysAfterFirstUse,
			&c.AvailableNumberOfUse, &c.NumberOfUsed, &c.Purchaser.Lastname, &c.Purchaser.Firstname, &c.Purchaser.Birthday,
			&c.Purchaser.Gender, &c.PaymentProcessID, &at, &state, &refunded); err != nil {
			_ = rows.Close()
			return nil, couponErr("coupons", err)
		}
		c.PurchasedAt = time.UnixMilli(at).UTC()
		// A coupon being refunded is disabled for the member already.
		c.Disabled = state != ""
		if refunded.Valid {
			t := time.UnixMilli(refunded.Int64).UTC()
			c.RefundedAt = &t
		}
		out = append(out, c)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return nil, couponErr("coupons", err)
	}
	for i := range out {
		ps, err := s.passengers(ctx, out[i].ID)
		if err != nil {
			return nil, err
		}
		out[i].Passengers = ps
	}
	return out, nil
}

func (s *CouponStore) passengers(ctx context.Context, couponID string) ([]coupon.Passenger, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT passenger_type, lastname, firstname, gender, date_of_birth, nationality_code, passport_no,
		date_of_entry, inbound_transport_method, inbound_flight_no FROM coupon_passengers WHERE coupon_id = $1 ORDER BY position`, couponID)
	if err != nil {
		return nil, couponErr("coupon passengers", err)
	}
	defer rows.Close()
	out := []coupon.Passenger{}
	for rows.Next() {
		var p coupon.Passenger
		if err := rows.Scan(&p.PassengerType, &p.Lastname, &p.Firstname, &p.Gender, &p.DateOfBirth, &p.NationalityCode, &p.PassportNo,
			&p.DateOfEntry, &p.InboundTransportMethod, &p.InboundFlightNo); err != nil {
			return nil, couponErr("coupon passengers", err)
		}
		out = append(out, p)
	}
	return out, couponErr("coupon passengers", rows.Err())
}

func (s *CouponStore) Coupons(ctx context.Context, memberID string) ([]coupon.Coupon, error) {
	return s.coupons(ctx, `member_id = $1 ORDER BY purchased_at DESC, id`, memberID)
}

func (s *CouponStore) Coupon(ctx context.Context, memberID, id string) (coupon.Coupon, error) {
	cs, err := s.coupons(ctx, `member_id = $1 AND id = $2`, memberID, id)
	if err != nil {
		return coupon.Coupon{}, err
	}
	if len(cs) == 0 {
		return coupon.Coupon{}, fmt.Errorf("coupon %s: %w", id, coupon.ErrNotFound)
	}
	return cs[0], nil
}

// InsertCoupon adds a coupon and its passengers with ex (the settlement
// transaction, or the demo transaction).
func InsertCoupon(ctx context.Context, ex execer, c coupon.Coupon, refundState string) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO coupons (id, member_id, product_id, period_id, name, description, board_begin, board_end,
		book_begin, book_end, fare_type, currency, price_per_person, purchased_price, items, days_after_first_use, number_of_use, number_of_used,
		purchaser_lastname, purchaser_firstname, purchaser_birthday, purchaser_gender, payment_process_id, purchased_at, refund_state)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25)`,
		c.ID, c.MemberID, c.ProductID, c.PeriodID, c.Name, c.Description, c.AvailablePeriodToBoard.Begin, c.AvailablePeriodToBoard.End,
		c.AvailablePeriodToBook.Begin, c.AvailablePeriodToBook.End, c.FareType, c.CurrencyCode, c.PricePerPerson, c.PurchasedPrice, c.Items,
		c.AvailableDaysAfterFirstUse, c.AvailableNumberOfUse, c.NumberOfUsed, c.Purchaser.Lastname, c.Purchaser.Firstname, c.Purchaser.Birthday,
		c.Purchaser.Gender, nullString(c.PaymentProcessID), c.PurchasedAt.UnixMilli(), refundState)
	if err != nil {
		return couponErr("insert coupon", err)
	}
	for i, p := range c.Passengers {
		_, err := ex.ExecContext(ctx, `INSERT INTO coupon_passengers (coupon_id, position, passenger_type, lastname, firstname, gender,
			date_of_birth, nationality_code, passport_no, date_of_entry, inbound_transport_method, inbound_flight_no)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`, c.ID, i+2, p.PassengerType, p.Lastname, p.Firstname, p.Gender,
			p.DateOfBirth, p.NationalityCode, p.PassportNo, p.DateOfEntry, p.InboundTransportMethod, p.InboundFlightNo)
		if err != nil {
			return couponErr("insert coupon passenger", err)
		}
	}
	return nil
}

func (s *CouponStore) InsertCoupon(ctx context.Context, uow payment.Tx, c coupon.Coupon) error {
	tx, err := grantTx(uow)
	if err != nil {
		return couponErr("insert coupon", err)
	}
	return InsertCoupon(ctx, tx, c, "")
}

func (s *CouponStore) setRefundState(ctx context.Context, op, memberID, id, from, to string, extra string, args ...any) error {
	res, err := s.db.ExecContext(ctx, `UPDATE coupons SET refund_state = $1`+extra+` WHERE member_id = $2 AND id = $3 AND refund_state = $4`,
		append([]any{to, memberID, id, from}, args...)...)
	if err != nil {
		return couponErr(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return couponErr(op, err)
	}
	if n != 1 {
		return fmt.Errorf("%s: %w", op, coupon.ErrConflict)
	}
	return nil
}

func (s *CouponStore) ClaimRefund(ctx context.Context, memberID, id string) error {
	return s.setRefundState(ctx, "claim refund", memberID, id, "", "pending", "")
}

func (s *CouponStore) ReleaseRefund(ctx context.Context, memberID, id string) error {
	return s.setRefundState(ctx, "release refund", memberID, id, "pending", "", "")
}

// EndByRefund disables the coupon in the transaction that records its
// refund as made (uow, from the payment store's CompleteRefund).
func (s *CouponStore) EndByRefund(ctx context.Context, uow payment.Tx, memberID, processID string, amount int64, at time.Time) (bool, error) {
	tx, err := grantTx(uow)
	if err != nil {
		return false, couponErr("end by refund", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE coupons SET refund_state = 'done', refund_amount = $1, refunded_at = $2
		WHERE member_id = $3 AND payment_process_id = $4 AND refund_state <> 'done'`, amount, at.UnixMilli(), memberID, processID)
	if err != nil {
		return false, couponErr("end by refund", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, couponErr("end by refund", err)
	}
	return n == 1, nil
}

func (s *CouponStore) CompleteRefund(ctx context.Context, memberID, id string, amount int64, at time.Time) error {
	return s.setRefundState(ctx, "complete refund", memberID, id, "pending", "done", `, refund_amount = $5, refunded_at = $6`, amount, at.UnixMilli())
}
