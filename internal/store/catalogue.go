package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"members/internal/catalogue"
	"members/internal/coupon"
	"members/internal/pass"
)

// CatalogueStore implements catalogue.Store: the pass plans and coupon
// products, read and written in one transaction.
type CatalogueStore struct{ db *DB }

// NewCatalogueStore returns the catalogue's store.
func NewCatalogueStore(db *DB) *CatalogueStore { return &CatalogueStore{db: db} }

var _ catalogue.Store = (*CatalogueStore)(nil)

// Update runs fn in one transaction.
func (s *CatalogueStore) Update(ctx context.Context, fn func(context.Context, catalogue.Tx) error) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error { return fn(ctx, catalogueTx{tx}) })
}

type catalogueTx struct{ tx *sql.Tx }

func (t catalogueTx) Live(ctx context.Context) (catalogue.Live, error) {
	live := catalogue.Live{Plans: []pass.Plan{}, Products: []coupon.Product{}}
	rows, err := t.tx.QueryContext(ctx, `SELECT p.id, p.name, p.name_alt, pe.id, pe.board_begin, pe.board_end, pe.book_begin, pe.book_end,
		pe.currency, pe.price_happy, pe.price_happlus, pe.lottery_quota
		FROM gogo_pass_plans p LEFT JOIN gogo_pass_periods pe ON pe.plan_id = p.id
		ORDER BY p.position, p.id, pe.board_begin, pe.id`)
	if err != nil {
		return live, fmt.Errorf("catalogue plans: %w", Translate(err))
	}
	for rows.Next() {
		var (
			p                       pass.Plan
			id, bb, be, kb, ke, cur sql.NullString
			happy, happlus, quota   sql.NullInt64
		)
		if err := rows.Scan(&p.ID, &p.Name, &p.NameAlt, &id, &bb, &be, &kb, &ke, &cur, &happy, &happlus, &quota); err != nil {
			_ = rows.Close()
			return live, fmt.Errorf("catalogue plans: %w", Translate(err))
		}
		if n := len(live.Plans); n == 0 || live.Plans[n-1].ID != p.ID {
			p.Periods = []pass.Period{}
			live.Plans = append(live.Plans, p)
		}
		if id.Valid {
			last := &live.Plans[len(live.Plans)-1]
			last.Periods = append(last.Periods, pass.Period{ID: id.String,
				AvailablePeriodToBoard: pass.Range{Begin: bb.String, End: be.String}, AvailablePeriodToBook: pass.Range{Begin: kb.String, End: ke.String},
				CurrencyCode: cur.String, Price: pass.Price{Happy: happy.Int64, Happlus: happlus.Int64}, LotteryQuota: int(quota.Int64)})
		}
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return live, fmt.Errorf("catalogue plans: %w", Translate(err))
	}
	rows, err = t.tx.QueryContext(ctx, `SELECT p.id, p.name, p.description, p.international, pe.id, pe.description, pe.board_begin, pe.board_end,
		pe.book_begin, pe.book_end, pe.currency, pe.lite_days, pe.lite_uses, pe.lite_price, pe.standard_days, pe.standard_uses, pe.standard_price
		FROM coupon_products p LEFT JOIN coupon_periods pe ON pe.product_id = p.id
		ORDER BY p.position, p.id, pe.board_begin, pe.id`)
	if err != nil {
		return live, fmt.Errorf("catalogue products: %w", Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var (
			p                             coupon.Product
			intl                          int
			id, desc, bb, be, kb, ke, cur sql.NullString
			ld, lu, lp, sd, su, sp        sql.NullInt64
		)
		if err := rows.Scan(&p.ID, &p.Name, &p.Description, &intl, &id, &desc, &bb, &be, &kb, &ke, &cur, &ld, &lu, &lp, &sd, &su, &sp); err != nil {
			return live, fmt.Errorf("catalogue products: %w", Translate(err))
		}
		p.International = intl != 0
		if n := len(live.Products); n == 0 || live.Products[n-1].ID != p.ID {
			p.Periods = []coupon.Period{}
			live.Products = append(live.Products, p)
		}
		if id.Valid {
			last := &live.Products[len(live.Products)-1]
			last.Periods = append(last.Periods, coupon.Period{ID: id.String, Description: desc.String,
				AvailablePeriodToBoard: pass.Range{Begin: bb.String, End: be.String}, AvailablePeriodToBook: pass.Range{Begin: kb.String, End: ke.String},
				Plan: coupon.Plans{
					Lite:     coupon.Plan{AvailableDaysAfterFirstUse: int(ld.Int64), AvailableNumberOfUse: int(lu.Int64), CurrencyCode: cur.String, PricePerPerson: lp.Int64},
					Standard: coupon.Plan{AvailableDaysAfterFirstUse: int(sd.Int64), AvailableNumberOfUse: int(su.Int64), CurrencyCode: cur.String, PricePerPerson: sp.Int64},
				}})
		}
	}
	if err := rows.Err(); err != nil {
		return live, fmt.Errorf("catalogue products: %w", Translate(err))
	}
	return live, nil
}

// Holdings counts, per period, every row that refers to it, and the
// payments not finished (prepared or pending) whose order names it.
func (t catalogueTx) Holdings(ctx context.Context) (catalogue.Holdings, error) {
	h := catalogue.Holdings{Pass: map[string]catalogue.Holding{}, Coupon: map[string]catalogue.Holding{}}
	count := func(q string, into map[string]catalogue.Holding, add func(*catalogue.Holding, int)) error {
		rows, err := t.tx.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("catalogue holdings: %w", Translate(err))
		}
		defer rows.Close()
		for rows.Next() {
			var (
				id string
				n  int
			)
			if err := rows.Scan(&id, &n); err != nil {
				return fmt.Errorf("catalogue holdings: %w", Translate(err))
			}
			x := into[id]
			add(&x, n)
			into[id] = x
		}
		return rows.Err()
	}
	for _, c := range []struct {
		q    string
		into map[string]catalogue.Holding
		add  func(*catalogue.Holding, int)
	}{
		{`SELECT period_id, COUNT(*) FROM gogo_passes GROUP BY period_id`, h.Pass, func(x *catalogue.Holding, n int) { x.Passes += n }},
		{`SELECT period_id, COUNT(*) FROM gogo_pass_entries GROUP BY period_id`, h.Pass, func(x *catalogue.Holding, n int) { x.Entries += n }},
		{`SELECT period_id, COUNT(*) FROM gogo_pass_exchange_codes GROUP BY period_id`, h.Pass, func(x *catalogue.Holding, n int) { x.Codes += n }},
		{`SELECT period_id, COUNT(*) FROM coupons GROUP BY period_id`, h.Coupon, func(x *catalogue.Holding, n int) { x.Coupons += n }},
	} {
		if err := count(c.q, c.into, c.add); err != nil {
			return h, err
		}
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT product_type, details FROM payment_processes
		WHERE status IN ('prepared', 'pending') AND product_type IN ($1, $2)`, pass.ProductType, coupon.ProductType)
	if err != nil {
		return h, fmt.Errorf("catalogue payments: %w", Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var typ, details string
		if err := rows.Scan(&typ, &details); err != nil {
			return h, fmt.Errorf("catalogue payments: %w", Translate(err))
		}
		var d struct {
			PeriodID string `json:"periodId"`
		}
		if json.Unmarshal([]byte(details), &d) != nil || d.PeriodID == "" {
			continue
		}
		into := h.Pass
		if typ == coupon.ProductType {
			into = h.Coupon
		}
		x := into[d.PeriodID]
		x.Payments++
		into[d.PeriodID] = x
	}
	return h, rows.Err()
}

// Write inserts or updates the entries given and deletes the removed
// ones, periods before their plans and products.
func (t catalogueTx) Write(ctx context.Context, w catalogue.Writes) error {
	exec := func(what, q string, args ...any) error {
		if _, err := t.tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("catalogue %s: %w", what, Translate(err))
		}
		return nil
	}
	for _, p := range w.Plans {
		if err := exec("plan "+p.Plan.ID, `INSERT INTO gogo_pass_plans (id, name, name_alt, position) VALUES ($1,$2,$3,$4)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_alt = excluded.name_alt, position = excluded.position`,
			p.Plan.ID, p.Plan.Name, p.Plan.NameAlt, p.Position); err != nil {
			return err
		}
	}
	for _, r := range w.PassPeriods {
		pe := r.Period
		if err := exec("pass period "+pe.ID, `INSERT INTO gogo_pass_periods (id, plan_id, board_begin, board_end, book_begin, book_end,
			currency, price_happy, price_happlus, lottery_quota) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)
			ON CONFLICT (id) DO UPDATE SET plan_id = excluded.plan_id, board_begin = excluded.board_begin, board_end = excluded.board_end,
			book_begin = excluded.book_begin, book_end = excluded.book_end, currency = excluded.currency,
			price_happy = excluded.price_happy, price_happlus = excluded.price_happlus, lottery_quota = excluded.lottery_quota`,
			pe.ID, r.PlanID, pe.AvailablePeriodToBoard.Begin, pe.AvailablePeriodToBoard.End, pe.AvailablePeriodToBook.Begin,
			pe.AvailablePeriodToBook.End, pe.CurrencyCode, pe.Price.Happy, pe.Price.Happlus, pe.LotteryQuota); err != nil {
			return err
		}
	}
	for _, p := range w.Products {
		intl := 0 // an integer column on both engines
		if p.Product.International {
			intl = 1
		}
		if err := exec("coupon product "+p.Product.ID, `INSERT INTO coupon_products (id, name, description, position, international) VALUES ($1,$2,$3,$4,$5)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, position = excluded.position,
			international = excluded.international`,
			p.Product.ID, p.Product.Name, p.Product.Description, p.Position, intl); err != nil {
			return err
		}
	}
	for _, r := range w.CouponPeriods {
		pe, lite, std := r.Period, r.Period.Plan.Lite, r.Period.Plan.Standard
		if err := exec("coupon period "+pe.ID, `INSERT INTO coupon_periods (id, product_id, description, board_begin, board_end, book_begin,
			book_end, currency, lite_days, lite_uses, lite_price, standard_days, standard_uses, standard_price)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)
			ON CONFLICT (id) DO UPDATE SET product_id = excluded.product_id, description = excluded.description,
			board_begin = excluded.board_begin, board_end = excluded.board_end, book_begin = excluded.book_begin, book_end = excluded.book_end,
			currency = excluded.currency, lite_days = excluded.lite_days, lite_uses = excluded.lite_uses, lite_price = excluded.lite_price,
			standard_days = excluded.standard_days, standard_uses = excluded.standard_uses, standard_price = excluded.standard_price`,
			pe.ID, r.ProductID, pe.Description, pe.AvailablePeriodToBoard.Begin, pe.AvailablePeriodToBoard.End, pe.AvailablePeriodToBook.Begin,
			pe.AvailablePeriodToBook.End, lite.CurrencyCode, lite.AvailableDaysAfterFirstUse, lite.AvailableNumberOfUse, lite.PricePerPerson,
			std.AvailableDaysAfterFirstUse, std.AvailableNumberOfUse, std.PricePerPerson); err != nil {
			return err
		}
	}
	for _, id := range w.RemovedPassPeriods {
		if err := exec("remove pass period "+id, `DELETE FROM gogo_pass_periods WHERE id = $1`, id); err != nil {
			return err
		}
	}
	for _, id := range w.RemovedPlans {
		if err := exec("remove plan "+id, `DELETE FROM gogo_pass_plans WHERE id = $1`, id); err != nil {
			return err
		}
	}
	for _, id := range w.RemovedCouponPeriods {
		if err := exec("remove coupon period "+id, `DELETE FROM coupon_periods WHERE id = $1`, id); err != nil {
			return err
		}
	}
	for _, id := range w.RemovedProducts {
		if err := exec("remove coupon product "+id, `DELETE FROM coupon_products WHERE id = $1`, id); err != nil {
			return err
		}
	}
	return nil
}
