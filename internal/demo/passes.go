package demo

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"members/internal/coupon"
	"members/internal/pass"
	"members/internal/store"
)

// Demo pass data. Exchange codes take the password DemoExchangePassword.
const (
	DemoPlanAll           = "gp-all"
	DemoPlanWeekday       = "gp-weekday"
	DemoPeriodCurrent     = "gp-all-current" // member 1 holds it
	DemoPeriodNext        = "gp-all-next"    // on sale, in the lottery
	DemoPeriodWeekday     = "gp-weekday-next"
	DemoExchangePassword  = "pass1234"
	DemoCouponKansai      = "cp-kansai"
	DemoCouponOkinawa     = "cp-okinawa"
	DemoCouponPeriodWin   = "cp-kansai-winter"
	DemoCouponPeriodSpr   = "cp-kansai-spring"
	DemoCouponPeriodOka   = "cp-okinawa-summer"
	demoPassCodeMember1   = "GPDEMO00001"
	demoCouponIDMember1   = "c0000000000000000000000000000001"
	demoCouponIDRefunded1 = "c0000000000000000000000000000002"
)

// DemoExchangeCodes can each be exchanged once for a pass (the first
// three for the next all-route period, the last two for the weekday plan).
var DemoExchangeCodes = []string{"GPX-DEMO-0001", "GPX-DEMO-0002", "GPX-DEMO-0003", "GPX-WKDY-0001", "GPX-WKDY-0002"}

// seedPasses adds the unlimited pass plans and periods (relative to now),
// exchange codes, a pass member 1 holds, a lottery entry of member 2, the
// coupon pass products, and member 1's coupons (one in use, one refunded).
// The pass pages stay hidden until an operator opens them
// (`members admin gogo-pass --public --purchasable`, `admin coupon-ticket --public`).
func seedPasses(ctx context.Context, tx *sql.Tx, now time.Time) error {
	day := func(d int) string { return now.In(pass.JST).AddDate(0, 0, d).Format(pass.DateLayout) }
	exec := func(q string, args ...any) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("demo passes: %w", err)
		}
		return nil
	}
	for i, p := range [][3]string{
		{DemoPlanAll, "pass.plan.all.name", "pass.plan.all.name_alt"},
		{DemoPlanWeekday, "pass.plan.weekday.name", "pass.plan.weekday.name_alt"},
	} {
		if err := exec(`INSERT INTO gogo_pass_plans (id, name, name_alt, position) VALUES ($1,$2,$3,$4)`, p[0], p[1], p[2], i); err != nil {
			return err
		}
	}
	periods := []struct {
		id, plan                             string
		boardFrom, boardTo, bookFrom, bookTo int
		happy, happlus                       int64
		quota                                int
	}{
		{DemoPeriodCurrent, DemoPlanAll, -10, 80, -40, 60, 49800, 69800, 0},
		{DemoPeriodNext, DemoPlanAll, 81, 171, 20, 150, 54800, 74800, 50},
		{DemoPeriodWeekday, DemoPlanWeekday, 30, 120, 0, 100, 29800, 39800, 30},
	}
	for _, p := range periods {
		if err := exec(`INSERT INTO gogo_pass_periods (id, plan_id, board_begin, board_end, book_begin, book_end, currency, price_happy, price_happlus, lottery_quota)
			VALUES ($1,$2,$3,$4,$5,$6,'JPY',$7,$8,$9)`, p.id, p.plan, day(p.boardFrom), day(p.boardTo), day(p.bookFrom), day(p.bookTo), p.happy, p.happlus, p.quota); err != nil {
			return err
		}
	}
	for i, c := range DemoExchangeCodes {
		plan, period, fare := DemoPlanAll, DemoPeriodNext, pass.FareHapplus
		if i >= 3 {
			plan, period, fare = DemoPlanWeekday, DemoPeriodWeekday, pass.FareHappy
		}
		if err := exec(`INSERT INTO gogo_pass_exchange_codes (id, code, password_hash, plan_id, period_id, fare_type) VALUES ($1,$2,$3,$4,$5,$6)`,
			store.NewID(), c, pass.HashPassword(DemoExchangePassword), plan, period, fare); err != nil {
			return err
		}
	}
	if err := exec(`INSERT INTO gogo_passes (id, code, member_id, plan_id, period_id, fare_type, currency, purchased_price, source, purchased_at)
		VALUES ($1,$2,$3,$4,$5,'happy','JPY',49800,'purchase',$6)`, store.NewID(), demoPassCodeMember1, Member1, DemoPlanAll, DemoPeriodCurrent,
		now.AddDate(0, 0, -35).UnixMilli()); err != nil {
		return err
	}
	if err := exec(`INSERT INTO gogo_pass_entries (id, member_id, plan_id, period_id, fare_type, lang, created_at) VALUES ($1,$2,$3,$4,'happlus','kr',$5)`,
		store.NewID(), Member2, DemoPlanAll, DemoPeriodNext, now.AddDate(0, 0, -2).UnixMilli()); err != nil {
		return err
	}
	return seedCoupons(ctx, tx, now, day, exec)
}

func seedCoupons(ctx context.Context, tx *sql.Tx, now time.Time, day func(int) string, exec func(string, ...any) error) error {
	// Kansai is sold to visitors arriving from abroad (passport and entry
	// details asked), Okinawa is a domestic trip (not asked).
	for i, p := range []struct {
		id, name, description string
		international         int
	}{
		{DemoCouponKansai, "coupon.product.kansai.name", "coupon.product.kansai.description", 1},
		{DemoCouponOkinawa, "coupon.product.okinawa.name", "coupon.product.okinawa.description", 0},
	} {
		if err := exec(`INSERT INTO coupon_products (id, name, description, position, international) VALUES ($1,$2,$3,$4,$5)`,
			p.id, p.name, p.description, i, p.international); err != nil {
			return err
		}
	}
	type plan struct {
		days, uses int
		price      int64
	}
	periods := []struct {
		id, product, desc                    string
		boardFrom, boardTo, bookFrom, bookTo int
		lite, standard                       plan
	}{
		{DemoCouponPeriodWin, DemoCouponKansai, "coupon.period.winter.description", 14, 104, 0, 95, plan{7, 4, 19800}, plan{14, 8, 32800}},
		{DemoCouponPeriodSpr, DemoCouponKansai, "coupon.period.spring.description", 105, 195, 30, 185, plan{7, 4, 21800}, plan{14, 8, 34800}},
		{DemoCouponPeriodOka, DemoCouponOkinawa, "coupon.period.summer.description", 20, 110, 0, 100, plan{5, 3, 15800}, plan{10, 6, 24800}},
	}
	for _, p := range periods {
		if err := exec(`INSERT INTO coupon_periods (id, product_id, description, board_begin, board_end, book_begin, book_end, currency,
			lite_days, lite_uses, lite_price, standard_days, standard_uses, standard_price) VALUES ($1,$2,$3,$4,$5,$6,$7,'JPY',$8,$9,$10,$11,$12,$13)`,
			p.id, p.product, p.desc, day(p.boardFrom), day(p.boardTo), day(p.bookFrom), day(p.bookTo),
			p.lite.days, p.lite.uses, p.lite.price, p.standard.days, p.standard.uses, p.standard.price); err != nil {
			return err
		}
	}
	purchaser := coupon.Purchaser{Lastname: "Yamada", Firstname: "Hanako", Birthday: "1988-04-12", Gender: "female"}
	inUse := coupon.Coupon{
		ID: demoCouponIDMember1, MemberID: Member1, ProductID: DemoCouponKansai, PeriodID: DemoCouponPeriodWin,
		Name: "coupon.product.kansai.name", Description: "coupon.product.kansai.description",
		AvailablePeriodToBoard: pass.Range{Begin: day(14), End: day(104)}, AvailablePeriodToBook: pass.Range{Begin: day(0), End: day(95)},
		FareType: coupon.FareHapplus, CurrencyCode: coupon.Currency, PricePerPerson: 32800, PurchasedPrice: 65600, Items: 2,
		AvailableDaysAfterFirstUse: 14, AvailableNumberOfUse: 8, NumberOfUsed: 2, Purchaser: purchaser,
		PurchasedAt: now.AddDate(0, 0, -6).UTC().Truncate(time.Millisecond),
		Passengers: []coupon.Passenger{{PassengerType: coupon.TypeAdult, Lastname: "Yamada", Firstname: "Taro", Gender: "male", DateOfBirth: "1986-09-03",
			NationalityCode: "JP", PassportNo: "TR7654321", DateOfEntry: day(13), InboundTransportMethod: "air", InboundFlightNo: "MM102"}},
	}
	if err := store.InsertCoupon(ctx, tx, inUse, ""); err != nil {
		return fmt.Errorf("demo coupons: %w", err)
	}
	refunded := inUse
	refunded.ID, refunded.ProductID, refunded.PeriodID = demoCouponIDRefunded1, DemoCouponOkinawa, DemoCouponPeriodOka
	refunded.Name, refunded.Description = "coupon.product.okinawa.name", "coupon.product.okinawa.description"
	refunded.AvailablePeriodToBoard, refunded.AvailablePeriodToBook = pass.Range{Begin: day(20), End: day(110)}, pass.Range{Begin: day(0), End: day(100)}
	refunded.FareType, refunded.PricePerPerson, refunded.PurchasedPrice, refunded.Items = coupon.FareHappy, 15800, 15800, 1
	refunded.AvailableDaysAfterFirstUse, refunded.AvailableNumberOfUse, refunded.NumberOfUsed, refunded.Passengers = 5, 3, 0, nil
	refunded.PurchasedAt = now.AddDate(0, 0, -20).UTC().Truncate(time.Millisecond)
	if err := store.InsertCoupon(ctx, tx, refunded, "done"); err != nil {
		return fmt.Errorf("demo coupons: %w", err)
	}
	_, amount := coupon.Refund(15800, 1)
	return exec(`UPDATE coupons SET refund_amount = $1, refunded_at = $2 WHERE id = $3`, amount, now.AddDate(0, 0, -18).UnixMilli(), demoCouponIDRefunded1)
}
