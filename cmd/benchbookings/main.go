// Command benchbookings measures the booking search of `make bench` over
// HTTP: it seeds N reservations (default 1,000,000) over M members on
// SQLite (and on PostgreSQL when reachable, schema bench_bookings), gives a
// thousand of those members a session, starts the server as a child process
// of its own (so its memory is the server's alone), and loads GET
// /api/reservations (the booking management page's search) with wrk, a
// separate process, for random members, rounds alternating with a bare Go
// server answering 204 in a process of its own (cmd/benchbare). It writes requests per second, p50,
// p95, the ratio to the bare handler, the server's peak resident memory
// and the query plan to the "Booking search" section of BENCHMARKS.md. The
// table is measured at N/10 and N rows to show that cost does not grow
// with it.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/loadgen"
	"members/internal/store"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchbookings:", err)
		os.Exit(1)
	}
}

type round struct {
	// search: every request as the page sends it (answers the server
	// kept are served while they hold); uncached: each request with a
	// query string of its own, so every one runs the search in full.
	search, uncached, bare loadgen.Result
	rss                    int64
}

func (r round) ratio() float64 { return r.search.RPS() / r.bare.RPS() }

func (r round) uncachedRatio() float64 { return r.uncached.RPS() / r.bare.RPS() }

type measure struct {
	engine string
	rows   int
	rounds []round
	plan   string
	seed   loadgen.Seeded
}

type options struct {
	n, members, sessions, rounds, conns, threads int
	dur                                          time.Duration
	bareURL                                      string // the bare server (cmd/benchbare)
	pg                                           string // the PostgreSQL server ("" none)
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchbookings", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.n, "reservations", 1_000_000, "reservations in the table")
	fs.IntVar(&o.members, "members", 20_000, "members they belong to")
	fs.IntVar(&o.sessions, "sessions", 1000, "members searching (each with a session)")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds of (search, bare)")
	fs.IntVar(&o.conns, "c", 8, "wrk connections")
	fs.IntVar(&o.threads, "t", 1, "wrk threads")
	fs.DurationVar(&o.dur, "d", 5*time.Second, "duration of each wrk run")
	pg := loadgen.PostgresFlag(fs)
	out := fs.String("out", "BENCHMARKS.md", "report file")
	only := fs.String("engines", "sqlite,postgres", "the engines to measure")
	serveDSN := fs.String("serve", "", "internal: serve the app on this database and print its address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *serveDSN != "" {
		return serve(*serveDSN)
	}
	if err := loadgen.Check(); err != nil {
		return err
	}
	ctx := context.Background()
	bare, err := loadgen.StartBare(ctx)
	if err != nil {
		return err
	}
	defer bare.Stop()
	o.bareURL = bare.URL
	var engines []string
	if strings.Contains(*only, "sqlite") {
		engines = append(engines, "sqlite")
	}
	if *pg != "" && strings.Contains(*only, "postgres") {
		if err := loadgen.PingPostgres(*pg); err != nil {
			fmt.Fprintln(os.Stderr, "benchbookings: PostgreSQL skipped:", err)
		} else {
			o.pg = *pg
			engines = append(engines, "postgres")
		}
	}
	conditions := loadgen.Machine()
	var results []measure
	for _, e := range engines {
		rs, err := bench(ctx, e, o)
		if err != nil {
			return fmt.Errorf("%s: %w", e, err)
		}
		results = append(results, rs...)
	}
	return write(*out, results, o, conditions)
}

func bench(ctx context.Context, engine string, o options) ([]measure, error) {
	var out []measure
	var prev *loadgen.Seeded
	log := func(m string) { fmt.Fprintf(os.Stderr, "benchbookings: %s: %s\n", engine, m) }
	for _, size := range []int{o.n / 10, o.n} {
		// Members grow with the table: each keeps about the same number of
		// bookings, so only the table size changes between measurements.
		stepMembers := max(1, o.members*size/o.n)
		// The seeded databases are kept between runs (loadgen.SeededSQLite):
		// only the first run of a seed version pays for seeding.
		var db loadgen.Seeded
		var err error
		if engine == "sqlite" {
			db, err = loadgen.SeededSQLite(ctx, size, stepMembers, prev, log)
		} else {
			db, err = loadgen.SeededPostgres(ctx, o.pg, fmt.Sprintf("bench_bookings_%d", size), size, stepMembers, log)
		}
		if err != nil {
			return nil, err
		}
		prev = &db
		open := func() (*app.App, error) { return loadgen.OpenQuiet(ctx, db.DSN) }
		now := time.Now()
		tokens, plan, err := prepare(ctx, open, stepMembers, o.sessions, now)
		if err != nil {
			return nil, err
		}
		rounds, err := measureHTTP(ctx, db.DSN, tokens, now, o)
		if err != nil {
			return nil, err
		}
		out = append(out, measure{engine: engine, rows: size, rounds: rounds, plan: plan, seed: db})
	}
	return out, nil
}

// prepare gives the searching members sessions and reads the query plan.
func prepare(ctx context.Context, open func() (*app.App, error), members, sessions int, now time.Time) ([]string, string, error) {
	a, err := open()
	if err != nil {
		return nil, "", err
	}
	defer a.Close()
	ids := make([]string, sessions)
	for i := range ids {
		ids[i] = demo.BenchMemberID(i * members / sessions)
	}
	tokens, err := demo.BenchSessions(ctx, a.DB, ids, time.Now())
	if err != nil {
		return nil, "", err
	}
	plan, err := explain(ctx, a.DB, now)
	return tokens, plan, err
}

// measureHTTP starts the server process and loads it.
func measureHTTP(ctx context.Context, dsn string, tokens []string, now time.Time, o options) ([]round, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "-serve", dsn)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }()
	var addr string
	if _, err := fmt.Fscanln(stdout, &addr); err != nil {
		return nil, fmt.Errorf("server did not start: %w", err)
	}
	base := "http://" + addr
	in := input(now)
	q := url.Values{"form": {in.Form}, "bookingDateFrom": {in.BookingDateFrom}, "bookingDateTo": {in.BookingDateTo},
		"status": {in.Status}, "order": {in.Order}, "perPage": {fmt.Sprint(in.PerPage)}}
	search := base + "/api/reservations?" + q.Encode()
	// One request first: a wrong answer fails here with its status.
	req, _ := http.NewRequest(http.MethodGet, search, nil)
	req.AddCookie(&http.Cookie{Name: "members_session", Value: tokens[0]})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("search: status %d", resp.StatusCode)
	}
	var rs []round
	for i := 0; i < o.rounds; i++ {
		var r round
		w := loadgen.WatchRSS(cmd.Process.Pid)
		r.search, err = loadgen.Run(ctx, loadgen.Load{URL: search, Cookies: tokens, Connections: o.conns, Threads: o.threads, Duration: o.dur})
		if err == nil {
			r.uncached, err = loadgen.Run(ctx, loadgen.Load{URL: search, Cookies: tokens, Connections: o.conns, Threads: o.threads, Duration: o.dur, Distinct: true})
		}
		r.rss = w.Stop()
		if err != nil {
			return nil, err
		}
		r.bare, err = loadgen.Run(ctx, loadgen.Load{URL: o.bareURL, Connections: o.conns, Threads: o.threads, Duration: o.dur})
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "benchbookings: round %d: search %.0f req/s p95 %s, uncached %.0f req/s p95 %s, bare %.0f req/s, ratio %.3f (uncached %.3f), RSS %.0f MiB\n",
			i+1, r.search.RPS(), r.search.P95, r.uncached.RPS(), r.uncached.P95, r.bare.RPS(), r.ratio(), r.uncached.RPS()/r.bare.RPS(), float64(r.rss)/(1<<20))
		rs = append(rs, r)
	}
	return rs, nil
}

// serve is the server process: the whole app on dsn.
func serve(dsn string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// BENCH_CPUPROFILE=file profiles the server (a file per table size).
	if p := os.Getenv("BENCH_CPUPROFILE"); p != "" {
		f, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".*")
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// as `members serve` does by default (--go-memory-limit)
	app.SetGoMemoryLimit(app.DefaultGoMemoryLimitMiB)
	a, err := loadgen.OpenQuiet(ctx, dsn)
	if err != nil {
		return err
	}
	defer a.Close()
	base, stopServer, err := loadgen.ServeApp(ctx, a)
	if err != nil {
		return err
	}
	defer stopServer()
	fmt.Println(strings.TrimPrefix(base, "http://"))
	<-ctx.Done()
	return nil
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

func explain(ctx context.Context, db *store.DB, now time.Time) (string, error) {
	q, _, errs := booking.ParseSearch(demo.BenchMemberID(1), input(now), now)
	if !errs.Empty() {
		return "", fmt.Errorf("search input: %v", errs)
	}
	search, searchArgs := store.SearchPageSQL(db.Engine, q)
	page, args := store.SearchSQL(q)
	segs, pax := store.ViewSQL()
	var out []string
	for _, x := range []struct {
		name, query string
		args        []any
	}{{"search (the one statement the server runs)", search, searchArgs},
		{"page", page, args}, {"segments", segs, []any{"x"}}, {"passengers", pax, []any{"x"}}} {
		plan, err := explainOne(ctx, db, x.query, x.args)
		if err != nil {
			return "", err
		}
		out = append(out, "-- "+x.name+"\n"+plan)
	}
	return strings.Join(out, "\n"), nil
}

func explainOne(ctx context.Context, db *store.DB, query string, args []any) (string, error) {
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

func write(path string, ms []measure, o options, conditions string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Booking search\n\n")
	fmt.Fprintf(&b, "`go run ./cmd/benchbookings` (part of `make bench`), %s, %s/%s, %d CPUs, measured %s; %s. "+
		"GET /api/reservations as the booking management page sends it (two years of booking dates, all statuses, first page of 10, ascending) "+
		"for %d members with a session each, picked at random per request, through the whole server (middleware, session lookup, search, views, JSON) "+
		"running as a process of its own; %d reservations over %d members (seeded with `members seed-bench`), measured at a tenth of the table and at the full table. "+
		"The server keeps the answers of recent searches (per instance, 8 MiB) and serves one again only after checking, on that request, the session and "+
		"the member's bookings version in the database and the answer's time limit (docs/speed.md): \"search\" is the page's request as it is, most answers "+
		"coming from that cache once each member has searched; \"uncached\" adds a parameter of random value to each request, so every one runs the search in full. "+
		"Load from wrk (a separate process on the same machine), %d connections, %d threads, %s per run, %d rounds alternating search, uncached and a bare Go server answering 204 in a process of its own (`cmd/benchbare`, the yardstick an outsider would use); "+
		"the search's figures from the round with its median ratio, the uncached search's from the round with its own (the ratios are to that bare server in the same round; cached and uncached side by side). RSS is the server process's peak resident memory during the searches.\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 MST"), conditions,
		o.sessions, o.n, o.members, o.conns, o.threads, o.dur, o.rounds)
	for _, m := range ms {
		if m.seed.Reused {
			fmt.Fprintf(&b, "The %s database of %d reservations was kept from an earlier run (seeded %s, same seed version: `loadgen.SeededSQLite`, `SeededPostgres`).\n",
				m.engine, m.rows, m.seed.SeededAt.UTC().Format("2006-01-02 15:04 MST"))
		} else {
			fmt.Fprintf(&b, "The %s database of %d reservations was seeded by this run in %s.\n", m.engine, m.rows, m.seed.Took.Round(time.Second))
		}
	}
	b.WriteString("\n| engine | reservations | search req/s | p50 | p95 | ratio | uncached req/s | p50 | p95 | ratio | bare req/s | server RSS |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, m := range ms {
		r := loadgen.Median(m.rounds, round.ratio)
		u := loadgen.Median(m.rounds, round.uncachedRatio)
		var peak int64
		for _, x := range m.rounds {
			peak = max(peak, x.rss)
		}
		fmt.Fprintf(&b, "| %s | %d | %.0f | %s | %s | %.3f | %.0f | %s | %s | %.3f | %.0f | %.0f MiB |\n", m.engine, m.rows,
			r.search.RPS(), r.search.P50, r.search.P95, r.ratio(), u.uncached.RPS(), u.uncached.P50, u.uncached.P95, u.uncachedRatio(),
			r.bare.RPS(), float64(peak)/(1<<20))
	}
	b.WriteString("\nTargets at the full table: SQLite ≥ 0.10 for the search and for the uncached search, p95 < 8 ms; PostgreSQL uncached ≥ 0.08, p95 < 8 ms; the same cost at a tenth of the table and at the full table, server RSS < 96 MiB. Query plans of the page query at the full table:\n")
	for _, m := range ms {
		if m.rows != o.n {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n\n```\n%s\n```\n", m.engine, m.plan)
	}
	fmt.Print(b.String() + "\n")
	return loadgen.WriteSection(path, "bookings", b.String())
}
