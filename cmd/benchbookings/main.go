// Command benchbookings measures the booking search of one member over a
// large reservations table (`make bench`): it seeds N reservations (default
// 1,000,000) over M members on SQLite and on PostgreSQL (schema
// bench_bookings), runs the booking management page's search for random
// members through the booking service and the real store, and writes p50,
// p95, requests per second, the Go heap and the query plan to the
// "Booking search" section of BENCHMARKS.md (between <!-- bench:bookings -->
// markers). The table is measured at N/10 and N rows to show that latency
// and memory do not grow with it.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/store"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchbookings:", err)
		os.Exit(1)
	}
}

type measure struct {
	engine    string
	rows      int
	requests  int
	elapsed   time.Duration
	p50, p95  time.Duration
	heapAfter uint64
	plan      string
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchbookings", flag.ContinueOnError)
	n := fs.Int("reservations", 1_000_000, "reservations in the table")
	members := fs.Int("members", 20_000, "members they belong to")
	reqs := fs.Int("n", 4000, "searches per measurement")
	conc := fs.Int("c", 8, "concurrent searches")
	pg := fs.String("pg", envOr("MEMBERS_TEST_PG", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"), "PostgreSQL server (empty: skip)")
	out := fs.String("out", "BENCHMARKS.md", "report file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "benchbookings")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	dsns := map[string]string{"sqlite": "sqlite:" + filepath.Join(dir, "bench.db")}
	engines := []string{"sqlite"}
	if *pg != "" {
		if err := resetSchema(*pg); err != nil {
			fmt.Fprintln(os.Stderr, "benchbookings: PostgreSQL skipped:", err)
		} else {
			sep := "?"
			if strings.Contains(*pg, "?") {
				sep = "&"
			}
			dsns["postgres"] = *pg + sep + "search_path=bench_bookings"
			engines = append(engines, "postgres")
		}
	}
	var results []measure
	for _, e := range engines {
		rs, err := bench(ctx, e, dsns[e], *n, *members, *reqs, *conc)
		if err != nil {
			return fmt.Errorf("%s: %w", e, err)
		}
		results = append(results, rs...)
	}
	return write(*out, results, *n, *members, *conc)
}

func bench(ctx context.Context, engine, dsn string, n, members, reqs, conc int) ([]measure, error) {
	open := func() (*app.App, error) {
		return app.Open(ctx, app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	var out []measure
	done := 0
	now := time.Now()
	for _, size := range []int{n / 10, n} {
		// Members grow with the table: each keeps about the same number of
		// bookings, so only the table size changes between measurements.
		stepMembers := max(1, members*size/n)
		if err := seed(ctx, open, engine, stepMembers, done, size, now); err != nil {
			return nil, err
		}
		done = size
		// A fresh pool for the measurement: the seeding's large batches
		// leave big connection buffers behind that are not the search's.
		m, err := measureFresh(ctx, open, stepMembers, reqs, conc, now)
		if err != nil {
			return nil, err
		}
		m.engine, m.rows = engine, size
		out = append(out, m)
	}
	return out, nil
}

// seed adds reservations up to size with a pool of its own.
func seed(ctx context.Context, open func() (*app.App, error), engine string, members, done, size int, now time.Time) error {
	a, err := open()
	if err != nil {
		return err
	}
	defer a.Close()
	start := time.Now()
	if err := demo.SeedBench(ctx, a.DB, "!", members, done, size, now, nil); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "benchbookings: %s seeded %d reservations in %s\n", engine, size, time.Since(start).Round(time.Second))
	if a.DB.Engine == store.Postgres {
		if _, err := a.DB.ExecContext(ctx, "ANALYZE"); err != nil {
			return err
		}
	}
	return nil
}

// measureFresh measures the search and shows its plan on a new pool.
func measureFresh(ctx context.Context, open func() (*app.App, error), members, reqs, conc int, now time.Time) (measure, error) {
	a, err := open()
	if err != nil {
		return measure{}, err
	}
	defer a.Close()
	svc := booking.NewService(store.NewBookingStore(a.DB), nil, nil, a.Catalog, nil, a.Counters, a.DB.Now)
	m, err := measureSearch(ctx, svc, members, reqs, conc, now)
	if err != nil {
		return measure{}, err
	}
	m.plan, err = explain(ctx, a.DB, now)
	return m, err
}

// input is the booking management page's search with its defaults widened
// to two years of bookings, every status, ascending, 10 a page.
func input(now time.Time) booking.SearchInput {
	today := booking.TodayJST(now)
	return booking.SearchInput{
		Form: booking.FormSearch, BookingDateFrom: today.AddDate(-2, 0, 0).Format(booking.DateLayout),
		BookingDateTo: today.Format(booking.DateLayout), Status: booking.SearchAll, Order: booking.OrderAsc, PerPage: 10,
	}
}

func measureSearch(ctx context.Context, svc *booking.Service, members, reqs, conc int, now time.Time) (measure, error) {
	lat := make([]time.Duration, reqs)
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	next := make(chan int)
	start := time.Now()
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, 7))
			for i := range next {
				t0 := time.Now()
				_, err := svc.Search(ctx, demo.BenchMemberID(rng.IntN(members)), i18n.EN, input(now))
				lat[i] = time.Since(t0)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
			}
		}(uint64(w))
	}
	for i := 0; i < reqs; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	if firstErr != nil {
		return measure{}, firstErr
	}
	slices.Sort(lat)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return measure{requests: reqs, elapsed: elapsed, p50: lat[reqs/2], p95: lat[reqs*95/100], heapAfter: ms.HeapAlloc}, nil
}

func explain(ctx context.Context, db *store.DB, now time.Time) (string, error) {
	q, _, errs := booking.ParseSearch(demo.BenchMemberID(1), input(now), now)
	if !errs.Empty() {
		return "", fmt.Errorf("search input: %v", errs)
	}
	query, args := store.SearchSQL(q)
	prefix := "EXPLAIN "
	if db.Engine == store.SQLite {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := db.QueryContext(ctx, prefix+query, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		lines = append(lines, fmt.Sprint(vals[len(vals)-1]))
	}
	return strings.Join(lines, "\n"), rows.Err()
}

func resetSchema(url string) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec("DROP SCHEMA IF EXISTS bench_bookings CASCADE"); err != nil {
		return err
	}
	_, err = db.Exec("CREATE SCHEMA bench_bookings")
	return err
}

func write(path string, rs []measure, n, members, conc int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- bench:bookings -->\n## Booking search\n\n")
	fmt.Fprintf(&b, "`go run ./cmd/benchbookings` (part of `make bench`), %s, %s/%s, %d CPUs, measured %s. "+
		"The booking management search (two years of booking dates, all statuses, first page of 10, ascending) for a random member, "+
		"%d concurrent searches through the booking service and the real store; %d reservations over %d members "+
		"(seeded with `members seed-bench`), measured at a tenth of the table and at the full table.\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().Format("2006-01-02"), conc, n, members)
	b.WriteString("| engine | reservations | searches | req/s | p50 | p95 | Go heap after |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | %d | %d | %.0f | %s | %s | %.1f MiB |\n", r.engine, r.rows, r.requests,
			float64(r.requests)/r.elapsed.Seconds(), r.p50.Round(time.Microsecond), r.p95.Round(time.Microsecond), float64(r.heapAfter)/(1<<20))
	}
	b.WriteString("\nTarget: p95 under 20 ms on both engines, memory flat as the table grows. Query plans of the page query at the full table:\n")
	for _, r := range rs {
		if r.rows != n {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n\n```\n%s\n```\n", r.engine, r.plan)
	}
	b.WriteString("<!-- /bench:bookings -->")
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	section := regexp.MustCompile(`(?s)<!-- bench:bookings -->.*<!-- /bench:bookings -->`)
	text := string(old)
	if section.MatchString(text) {
		text = section.ReplaceAllLiteralString(text, b.String())
	} else {
		if text == "" {
			text = "# Benchmarks\n"
		}
		text = strings.TrimRight(text, "\n") + "\n\n" + b.String() + "\n"
	}
	fmt.Print(b.String() + "\n")
	return os.WriteFile(path, []byte(text), 0o644)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
