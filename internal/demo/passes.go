package demo

import (
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
func seedPasses(s *store.Seed, now time.Time) error {
	day := func(d int) string { return now.In(pass.JST).AddDate(0, 0, d).Format(pass.DateLayout) }
	span := func(from, to int) pass.Range { return pass.Range{Begin: day(from), End: day(to)} }
	period := func(id string, boardFrom, boardTo, bookFrom, bookTo int, happy, happlus int64, quota int) pass.Period {
		return pass.Period{ID: id, AvailablePeriodToBoard: span(boardFrom, boardTo), AvailablePeriodToBook: span(bookFrom, bookTo),
			CurrencyCode: "JPY", Price: pass.Price{Happy: happy, Happlus: happlus}, LotteryQuota: quota}
	}
	plans := []pass.Plan{
		{ID: DemoPlanAll, Name: "pass.plan.all.name", NameAlt: "pass.plan.all.name_alt", Periods: []pass.Period{
			period(DemoPeriodCurrent, -10, 80, -40, 60, 49800, 69800, 0),
			period(DemoPeriodNext, 81, 171, 20, 150, 54800, 74800, 50),
		}},
		{ID: DemoPlanWeekday, Name: "pass.plan.weekday.name", NameAlt: "pass.plan.weekday.name_alt", Periods: []pass.Period{
			period(DemoPeriodWeekday, 30, 120, 0, 100, 29800, 39800, 30),
		}},
	}
	for i, p := range plans {
		if err := s.PassPlan(p, i); err != nil {
			return fmt.Errorf("demo passes: %w", err)
		}
	}
	for i, c := range DemoExchangeCodes {
		plan, period, fare := DemoPlanAll, DemoPeriodNext, pass.FareHapplus
		if i >= 3 {
			plan, period, fare = DemoPlanWeekday, DemoPeriodWeekday, pass.FareHappy
		}
		if err := s.PassExchangeCode(pass.ExchangeCode{ID: store.NewID(), Code: c, PasswordHash: pass.HashPassword(DemoExchangePassword),
			PlanID: plan, PeriodID: period, FareType: fare}); err != nil {
			return fmt.Errorf("demo passes: %w", err)
		}
	}
	if err := s.Pass(pass.Pass{ID: store.NewID(), Code: demoPassCodeMember1, MemberID: Member1, PlanID: DemoPlanAll, PeriodID: DemoPeriodCurrent,
		FareType: pass.FareHappy, CurrencyCode: "JPY", PurchasedPrice: 49800, Source: pass.SourcePurchase,
		PurchasedAt: now.AddDate(0, 0, -35)}); err != nil {
		return fmt.Errorf("demo passes: %w", err)
	}
	if err := s.PassEntry(pass.Entry{ID: store.NewID(), MemberID: Member2, PlanID: DemoPlanAll, PeriodID: DemoPeriodNext,
		FareType: pass.FareHapplus, Lang: "kr", CreatedAt: now.AddDate(0, 0, -2)}); err != nil {
		return fmt.Errorf("demo passes: %w", err)
	}
	return seedCoupons(s, now, span)
}

func seedCoupons(s *store.Seed, now time.Time, span func(from, to int) pass.Range) error {
	// Kansai is sold to visitors arriving from abroad (passport and entry
	// details asked), Okinawa is a domestic trip (not asked).
	plan := func(days, uses int, price int64) coupon.Plan {
		return coupon.Plan{AvailableDaysAfterFirstUse: days, AvailableNumberOfUse: uses, CurrencyCode: coupon.Currency, PricePerPerson: price}
	}
	period := func(id, desc string, boardFrom, boardTo, bookFrom, bookTo int, lite, standard coupon.Plan) coupon.Period {
		return coupon.Period{ID: id, Description: desc, AvailablePeriodToBoard: span(boardFrom, boardTo),
			AvailablePeriodToBook: span(bookFrom, bookTo), Plan: coupon.Plans{Lite: lite, Standard: standard}}
	}
	products := []coupon.Product{
		{ID: DemoCouponKansai, Name: "coupon.product.kansai.name", Description: "coupon.product.kansai.description", International: true,
			Periods: []coupon.Period{
				period(DemoCouponPeriodWin, "coupon.period.winter.description", 14, 104, 0, 95, plan(7, 4, 19800), plan(14, 8, 32800)),
				period(DemoCouponPeriodSpr, "coupon.period.spring.description", 105, 195, 30, 185, plan(7, 4, 21800), plan(14, 8, 34800)),
			}},
		{ID: DemoCouponOkinawa, Name: "coupon.product.okinawa.name", Description: "coupon.product.okinawa.description",
			Periods: []coupon.Period{
				period(DemoCouponPeriodOka, "coupon.period.summer.description", 20, 110, 0, 100, plan(5, 3, 15800), plan(10, 6, 24800)),
			}},
	}
	for i, p := range products {
		if err := s.CouponProduct(p, i); err != nil {
			return fmt.Errorf("demo coupons: %w", err)
		}
	}
	purchaser := coupon.Purchaser{Lastname: "Yamada", Firstname: "Hanako", Birthday: "1988-04-12", Gender: "female"}
	inUse := coupon.Coupon{
		ID: demoCouponIDMember1, MemberID: Member1, ProductID: DemoCouponKansai, PeriodID: DemoCouponPeriodWin,
		Name: "coupon.product.kansai.name", Description: "coupon.product.kansai.description",
		AvailablePeriodToBoard: span(14, 104), AvailablePeriodToBook: span(0, 95),
		FareType: coupon.FareHapplus, CurrencyCode: coupon.Currency, PricePerPerson: 32800, PurchasedPrice: 65600, Items: 2,
		AvailableDaysAfterFirstUse: 14, AvailableNumberOfUse: 8, NumberOfUsed: 2, Purchaser: purchaser,
		PurchasedAt: now.AddDate(0, 0, -6).UTC().Truncate(time.Millisecond),
		Passengers: []coupon.Passenger{{PassengerType: coupon.TypeAdult, Lastname: "Yamada", Firstname: "Taro", Gender: "male", DateOfBirth: "1986-09-03",
			NationalityCode: "JP", PassportNo: "TR7654321", DateOfEntry: span(13, 13).Begin, InboundTransportMethod: "air", InboundFlightNo: "MM102"}},
	}
	if err := s.Coupon(inUse, 0, time.Time{}); err != nil {
		return fmt.Errorf("demo coupons: %w", err)
	}
	refunded := inUse
	refunded.ID, refunded.ProductID, refunded.PeriodID = demoCouponIDRefunded1, DemoCouponOkinawa, DemoCouponPeriodOka
	refunded.Name, refunded.Description = "coupon.product.okinawa.name", "coupon.product.okinawa.description"
	refunded.AvailablePeriodToBoard, refunded.AvailablePeriodToBook = span(20, 110), span(0, 100)
	refunded.FareType, refunded.PricePerPerson, refunded.PurchasedPrice, refunded.Items = coupon.FareHappy, 15800, 15800, 1
	refunded.AvailableDaysAfterFirstUse, refunded.AvailableNumberOfUse, refunded.NumberOfUsed, refunded.Passengers = 5, 3, 0, nil
	refunded.PurchasedAt = now.AddDate(0, 0, -20).UTC().Truncate(time.Millisecond)
	_, amount := coupon.Refund(15800, 1)
	if err := s.Coupon(refunded, amount, now.AddDate(0, 0, -18)); err != nil {
		return fmt.Errorf("demo coupons: %w", err)
	}
	return nil
}
