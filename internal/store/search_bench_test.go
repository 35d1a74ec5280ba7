package store_test

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

// BenchmarkBookingSearch runs the booking management page's search (the
// store part) for rotating members over 20,000 reservations on SQLite.
// `make bench` measures the whole request over HTTP (cmd/benchbookings).
func BenchmarkBookingSearch(b *testing.B) {
	benchBookingSearch(b, "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
}

// BenchmarkBookingSearchPostgres is BenchmarkBookingSearch on PostgreSQL
// (MEMBERS_TEST_PG, or the local test server; skipped when unreachable).
func BenchmarkBookingSearchPostgres(b *testing.B) {
	engines := apitest.Engines(b)
	if len(engines) < 2 {
		b.Skip("PostgreSQL is not reachable")
	}
	benchBookingSearch(b, apitest.DSN(b, store.Postgres))
}

func benchBookingSearch(b *testing.B, dsn string) {
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
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
	if db.Engine == store.Postgres { // the planner's statistics, as autovacuum would gather them
		if _, err := db.ExecContext(ctx, `ANALYZE reservations, reservation_segments, reservation_passengers, members`); err != nil {
			b.Fatal(err)
		}
	}
	st := store.NewBookingStore(db)
	today := booking.TodayJST(now)
	in := booking.SearchInput{Form: booking.FormSearch, BookingDateFrom: today.AddDate(-2, 0, 0).Format(booking.DateLayout),
		BookingDateTo: today.Format(booking.DateLayout), Status: booking.SearchAll, PerPage: 10}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU(b)
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
	// the CPU this process spent per search (the database's too on
	// SQLite, not PostgreSQL's server): less sensitive than ns/op to the
	// other processes of a busy machine
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
