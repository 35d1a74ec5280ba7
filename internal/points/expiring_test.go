package points

import "testing"

// TestExpiringIn: the one count of "expiring in a month" the summary, the
// expiring panel and the timeline share. Today is 20 November 2026 (Japan
// date): a voucher that expired on the 10th is not "expiring this month".
func TestExpiringIn(t *testing.T) {
	const today = "2026-11-20"
	v := func(expire string, balance int64, status string) Voucher {
		return Voucher{Currency: "JPY", EffectiveDate: "2026-01-01", ExpireDate: expire, Balance: balance, StatusCode: status}
	}
	for _, tc := range []struct {
		name    string
		voucher Voucher
		month   string
		want    int64
	}{
		{"expires later this month", v("2026-11-30", 3000, StatusActive), "2026-11", 3000},
		{"expires today: still usable", v("2026-11-20", 1000, StatusActive), "2026-11", 1000},
		{"expired earlier this month", v("2026-11-10", 5000, StatusActive), "2026-11", 0},
		{"expires next month", v("2026-12-05", 2000, StatusActive), "2026-12", 2000},
		{"next month, asked for this month", v("2026-12-05", 2000, StatusActive), "2026-11", 0},
		{"used up", v("2026-11-30", 0, StatusActive), "2026-11", 0},
		{"cancelled", v("2026-11-30", 4000, "CANCELLED"), "2026-11", 0},
		{"reissued", v("2026-11-30", 4000, StatusReissued), "2026-11", 0},
	} {
		if got := ExpiringIn(tc.voucher, tc.month, today); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
