package booking

import (
	"testing"
	"time"
)

// The booking search conditions never panic; accepted ones are in range.
func FuzzParseSearch(f *testing.F) {
	f.Add("HNK7Q2", "KIX", "2026-11-01", "2026-12-01", "2026-01-01", "2026-11-20", "all", "desc", 2, 20, "+09:00", "search")
	f.Add("", "", "2026-02-30", "x", "2011-12-31", "2030-01-01", "ACTIVE", "up", -1, 7, "Mars/Base", "")
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, pnr, airport, from, to, bFrom, bTo, status, order string, page, perPage int, zone, form string) {
		in := SearchInput{PNR: pnr, AirportCode: airport, DepartDateFrom: from, DepartDateTo: to,
			BookingDateFrom: bFrom, BookingDateTo: bTo, Status: status, Order: order, Page: page, PerPage: perPage,
			TimeZone: zone, Form: form}
		_, opts, errs := ParseSearch("m1", in, now)
		if errs.Empty() && (opts.Page < 1 || opts.PerPage < 1 || opts.Zone == nil) {
			t.Fatalf("accepted %+v as %+v", in, opts)
		}
	})
}
