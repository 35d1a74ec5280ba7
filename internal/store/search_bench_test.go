package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

// BenchmarkBookingSearch runs the booking management page's search (the
// store part) for rotating members over 20,000 reservations on SQLite.
// `make bench` measures the whole request over HTTP (cmd/benchbookings).
func BenchmarkBookingSearch(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	const members = 400
	if err := demo.SeedBench(ctx, db, "!", members, 0, 20_000, now, nil); err != nil {
		b.Fatal(err)
	}
	st := store.NewBookingStore(db)
	today := booking.TodayJST(now)
	in := booking.SearchInput{Form: booking.FormSearch, BookingDateFrom: today.AddDate(-2, 0, 0).Format(booking.DateLayout),
		BookingDateTo: today.Format(booking.DateLayout), Status: booking.SearchAll, PerPage: 10}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q, _, errs := booking.ParseSearch(demo.BenchMemberID(i%members), in, now)
		if !errs.Empty() {
			b.Fatal(errs)
		}
		list, total, err := st.Search(ctx, q)
		if err != nil || total == 0 || len(list) == 0 || len(list[0].Segments) == 0 {
			b.Fatalf("search: %d of %d, %v", len(list), total, err)
		}
	}
}
