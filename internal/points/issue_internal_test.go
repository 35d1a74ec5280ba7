package points

import (
	"testing"
	"time"
)

// An operator's expired voucher ended yesterday on the Japan calendar,
// whatever the UTC date and the month's length. The travel expiry is six
// calendar months after it, normalised as for every voucher (newVoucher).
func TestNewExpiredVoucherEndsYesterdayInJapan(t *testing.T) {
	tests := []struct {
		name                 string
		now                  time.Time
		effective, expire    string
		travelExpire, status string
	}{
		{"Japan is a day ahead of UTC", time.Date(2026, 11, 24, 16, 0, 0, 0, time.UTC), "2025-11-25", "2026-11-24", "2027-05-24", StatusExpired},
		{"same date in both", time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC), "2025-11-24", "2026-11-23", "2027-05-23", StatusExpired},
		{"after a 31-day month", time.Date(2026, 4, 1, 0, 0, 0, 0, JST), "2025-04-01", "2026-03-31", "2026-10-01", StatusExpired},
		{"first of the year", time.Date(2027, 1, 1, 9, 0, 0, 0, JST), "2026-01-01", "2026-12-31", "2027-07-01", StatusExpired},
		{"after a leap day", time.Date(2028, 3, 1, 9, 0, 0, 0, JST), "2027-03-01", "2028-02-29", "2028-08-29", StatusExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newExpiredVoucher("m1", "JPY", 1000, SourceIssue, tt.now)
			if v.EffectiveDate != tt.effective || v.ExpireDate != tt.expire || v.TravelExpireDate != tt.travelExpire {
				t.Errorf("dates = %s..%s (travel %s), want %s..%s (travel %s)",
					v.EffectiveDate, v.ExpireDate, v.TravelExpireDate, tt.effective, tt.expire, tt.travelExpire)
			}
			if got := StatusOf(v, Today(tt.now)); got != tt.status {
				t.Errorf("status today = %s, want %s", got, tt.status)
			}
		})
	}
}
