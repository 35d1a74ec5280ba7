package demo

import (
	"time"

	"members/internal/points"
	"members/internal/store"
)

// Demo vouchers and exchange codes. Every demo voucher has the PIN
// DemoVoucherPin; every demo exchange code the password DemoCodePassword.
// (Their argon2id hashes are fixed here so seeding stays fast.)
const (
	DemoVoucherPin   = "24681357"
	DemoCodePassword = "PEACH2026"
	demoPinHash      = "$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE"
	demoCodeHash     = "$argon2id$v=19$m=19456,t=2,p=1$R4vg+DvRWvYdIm+iQCFLFg$STE7UVnxnW/woGqknIv2/baY5EtlNPLVayQoUYRjSi0"

	DemoVoucherThisMonth = "7100000000000001" // member 1, JPY 3,000, expires at the end of this month
	DemoVoucherNextMonth = "7100000000000002" // member 1, KRW 50,000, expires next month
	DemoVoucherExpiredTW = "7100000000000003" // member 1, TWD 1,000, expired last month: reissuable
	DemoVoucherExpiredCN = "7100000000000004" // member 1, CNY 200, expired: reissuable
	DemoVoucherMarket    = "7100000000000005" // member 1, JPY 5,000, market rule KIX-ICN / ICN-KIX
	DemoVoucherTravel    = "7100000000000006" // member 1, SGD 50.00, travel-date rule
	DemoVoucherFare      = "7100000000000007" // member 1, HKD 500, fare-class rule
	DemoVoucherTHB       = "7100000000000008" // member 1, THB 2,000
	DemoVoucherCNY       = "7100000000000009" // member 1, CNY 300
	DemoVoucherUsed      = "7100000000000010" // member 1, JPY, fully spent
	DemoVoucherMember2   = "7200000000000001" // member 2, KRW 30,000

	DemoCodeOther  = "DEMOCODE2026" // JPY 3,000 exchange code
	DemoCodeOther2 = "DEMOCODE2027" // JPY 1,000 exchange code (kept unused for trying)
	DemoCodeAna    = "DEMOANA20260" // partner miles: JPY 5,000
)

// seedPoints gives the demo members vouchers in several currencies: one
// expiring this month, one next month, expired reissuable ones (TWD, CNY),
// one of each rule type, a spent one; and a few exchange codes.
func seedPoints(s *store.Seed, now time.Time) error {
	jst := now.In(points.JST)
	day := func(t time.Time) string { return t.Format(points.DateLayout) }
	first := time.Date(jst.Year(), jst.Month(), 1, 0, 0, 0, 0, points.JST)
	endThis := first.AddDate(0, 1, -1)
	endNext := first.AddDate(0, 2, -1)
	yearAgo := jst.AddDate(-1, 0, 0)
	v := func(member, number, cur string, amount, balance int64, eff, exp time.Time, rules ...points.Rule) points.Voucher {
		return points.Voucher{
			MemberID: member, Number: number, CurrentCode: number, Currency: cur, IssuedAmount: amount, Balance: balance,
			EffectiveDate: day(eff), ExpireDate: day(exp), TravelEffectiveDate: day(eff), TravelExpireDate: day(exp.AddDate(0, points.TravelExtraMonths, 0)),
			PinHash: demoPinHash, StatusCode: points.StatusActive, Rules: rules, Source: points.SourceDemo, IssuedName: "HANAKO YAMADA",
		}
	}
	vouchers := []points.Voucher{
		v(Member1, DemoVoucherThisMonth, "JPY", 3000, 3000, endThis.AddDate(-1, 0, 1), endThis),
		v(Member1, DemoVoucherNextMonth, "KRW", 50000, 50000, endNext.AddDate(-1, 0, 1), endNext),
		v(Member1, DemoVoucherExpiredTW, "TWD", 1000, 1000, first.AddDate(-1, -1, 0), first.AddDate(0, 0, -5)),
		v(Member1, DemoVoucherExpiredCN, "CNY", 200, 200, first.AddDate(-1, -2, 0), first.AddDate(0, -1, -3)),
		v(Member1, DemoVoucherMarket, "JPY", 5000, 5000, yearAgo.AddDate(0, 3, 0), jst.AddDate(0, 3, 0),
			points.Rule{Type: points.RuleMarket, MarketOriginDestinations: []string{"KIX-ICN", "ICN-KIX"}}),
		v(Member1, DemoVoucherTravel, "SGD", 5000, 5000, yearAgo.AddDate(0, 5, 0), jst.AddDate(0, 5, 0),
			points.Rule{Type: points.RuleTravelDate, TravelDates: []points.DateRange{
				{FromDate: day(jst.AddDate(0, 1, 0)), ToDate: day(jst.AddDate(0, 2, 0))},
				{FromDate: day(jst.AddDate(0, 4, 0)), ToDate: day(jst.AddDate(0, 5, 0))}}}),
		v(Member1, DemoVoucherFare, "HKD", 500, 500, yearAgo.AddDate(0, 7, 0), jst.AddDate(0, 7, 0),
			points.Rule{Type: points.RuleFareClass, FareClassCodes: []string{"simplePeach", "valuePeach"}}),
		v(Member1, DemoVoucherTHB, "THB", 2000, 2000, yearAgo.AddDate(0, 9, 0), jst.AddDate(0, 9, 0)),
		v(Member1, DemoVoucherCNY, "CNY", 300, 300, yearAgo.AddDate(0, 10, 0), jst.AddDate(0, 10, 0)),
		v(Member1, DemoVoucherUsed, "JPY", 1000, 1000, yearAgo.AddDate(0, 6, 0), jst.AddDate(0, 6, 0)),
		v(Member2, DemoVoucherMember2, "KRW", 30000, 30000, yearAgo.AddDate(0, 4, 0), jst.AddDate(0, 4, 0)),
	}
	for _, vo := range vouchers {
		if err := s.Voucher(vo, now); err != nil {
			return err
		}
	}
	// The spent voucher goes to zero through the ledger like any spend.
	if err := s.Spend(Member1, DemoVoucherUsed, 1000, "booking:"+DemoPNRFuture, now); err != nil {
		return err
	}
	for _, c := range []points.ExchangeCode{
		{Code: DemoCodeOther, Currency: "JPY", Amount: 3000},
		{Code: DemoCodeOther2, Currency: "JPY", Amount: 1000},
		{Code: DemoCodeAna, Currency: "JPY", Amount: 5000, Ana: true},
	} {
		c.PasswordHash, c.CreatedAt = demoCodeHash, now
		if err := s.PointCode(c); err != nil {
			return err
		}
	}
	return nil
}
