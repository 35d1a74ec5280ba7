// Command benchflights measures the flight events feed (part of `make
// bench`): on a database of reservations (seeded with `members
// seed-bench`'s data when it has fewer than --reservations), it applies
// --events delay events to distinct flights through the feed's service, as
// the endpoint does after checking the signature, and reports events
// applied per second; then it runs the mail sender until every owed mail
// is in the outbox and reports how long that took and how many mails were
// queued. The sender runs as a second instance on the same database with
// its clock past the coalescing window, so the time measured is the
// sender's own.
//
// Meanwhile the whole server of the first instance answers GET
// /api/session for bench members with a session each, loaded by wrk (a
// separate process) in back-to-back windows from before the first event
// until the last mail is queued; the report gives the median p50 and the
// worst p99 of those windows. The figures go to the "Flight events"
// section of BENCHMARKS.md.
//
// The full run (1,000 events on the 1,000,000-reservation database) is for
// a machine of its own; a smoke run: benchflights --reservations 5000
// --events 50 --out "".
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/flightops"
	"members/internal/loadgen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchflights:", err)
		os.Exit(1)
	}
}

type options struct {
	dsn                                string
	n, events, sessions, conns, thread int
	window                             time.Duration
	out                                string
}

// figures are what one run measured.
type figures struct {
	engine                       string
	reservations, events, booked int
	mails                        int
	apply, send                  time.Duration
	seeded                       string
	session                      sessionLoad
	conditions                   string
}

// sessionLoad is the session check measured in windows during the run.
type sessionLoad struct {
	windows  int
	requests int
	p50, p99 time.Duration // median p50, worst p99 of the windows
	elapsed  time.Duration
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchflights", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.dsn, "db", "", "database (sqlite:PATH or postgres://…); empty: a new SQLite file in a temporary folder")
	fs.IntVar(&o.n, "reservations", 1_000_000, "reservations the database should hold (seeded when fewer)")
	fs.IntVar(&o.events, "events", 1000, "delay events to apply, one per flight")
	fs.IntVar(&o.sessions, "sessions", 1000, "bench members whose sessions the session check rotates")
	fs.IntVar(&o.conns, "c", 2, "wrk connections of the session check")
	fs.IntVar(&o.thread, "t", 1, "wrk threads of the session check")
	fs.DurationVar(&o.window, "window", 2*time.Second, "length of each wrk window of the session check")
	fs.StringVar(&o.out, "out", "BENCHMARKS.md", "report file (empty: print only)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := loadgen.Check(); err != nil {
		return err
	}
	ctx := context.Background()
	if o.dsn == "" {
		dir, err := os.MkdirTemp("", "benchflights-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		// The seeded database is kept between runs (and shared with
		// cmd/benchbookings: loadgen.SeededSQLite); the events change it,
		// so they run on a copy.
		seeded, err := loadgen.SeededSQLite(ctx, o.n, max(1, o.n/50), nil, func(m string) { fmt.Fprintln(os.Stderr, "benchflights:", m) })
		if err != nil {
			return err
		}
		path := filepath.Join(dir, "bench.db")
		if err := loadgen.CopySQLite(strings.TrimPrefix(seeded.DSN, "sqlite:"), path); err != nil {
			return err
		}
		o.dsn = "sqlite:" + path
	}
	f, err := bench(ctx, o)
	if err != nil {
		return err
	}
	report := f.report(o)
	fmt.Print(report + "\n")
	if o.out == "" {
		return nil
	}
	return loadgen.WriteSection(o.out, "flights", report)
}

func bench(ctx context.Context, o options) (figures, error) {
	conditions := loadgen.Machine()
	a, err := loadgen.OpenQuiet(ctx, o.dsn)
	if err != nil {
		return figures{}, err
	}
	defer a.Close()
	f := figures{engine: string(a.DB.Engine), reservations: o.n, conditions: conditions}
	members, err := seed(ctx, a, o.n, &f)
	if err != nil {
		return figures{}, err
	}
	flights, err := futureFlights(ctx, a, o.events)
	if err != nil {
		return figures{}, err
	}
	ids := make([]string, o.sessions)
	for i := range ids {
		ids[i] = demo.BenchMemberID(i * members / o.sessions)
	}
	tokens, err := demo.BenchSessions(ctx, a.DB, ids, time.Now())
	if err != nil {
		return figures{}, err
	}
	base, stopServer, err := loadgen.ServeApp(ctx, a)
	if err != nil {
		return figures{}, err
	}
	defer stopServer()
	if err := checkSession(base, tokens[0]); err != nil {
		return figures{}, err
	}

	// The sender: a second instance whose clock is past the coalescing window.
	sender, err := loadgen.OpenQuiet(ctx, o.dsn)
	if err != nil {
		return figures{}, err
	}
	defer sender.Close()
	sender.DB.Now = func() time.Time { return time.Now().Add(flightops.CoalesceWindow + time.Minute) }
	alerts, err := sender.FlightAlerts(app.Config{})
	if err != nil {
		return figures{}, err
	}

	load := startSessionLoad(ctx, loadgen.Load{URL: base + "/api/session", Cookies: tokens,
		Connections: o.conns, Threads: o.thread, Duration: o.window})
	time.Sleep(200 * time.Millisecond) // wrk connected before the first event
	applyErr := applyEvents(ctx, a, flights, &f)
	var sendErr error
	if applyErr == nil {
		sendErr = sendAll(ctx, alerts, sender, &f)
	}
	f.session, err = load.stop()
	if applyErr != nil {
		return figures{}, applyErr
	}
	if sendErr != nil {
		return figures{}, sendErr
	}
	return f, err
}

// seed fills the database up to n reservations and returns how many bench
// members hold them.
func seed(ctx context.Context, a *app.App, n int, f *figures) (int, error) {
	members := max(1, n/50)
	var have int
	if err := a.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM reservations WHERE pnr LIKE 'B%'`).Scan(&have); err != nil {
		return 0, fmt.Errorf("count reservations: %w", err)
	}
	if have >= n {
		f.seeded = fmt.Sprintf("the database held %d reservations already", have)
		f.reservations = have
		return members, nil
	}
	hash, err := a.Auth.Hasher().Hash(demo.Password)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := demo.SeedBench(ctx, a.DB, hash, members, have, n, a.DB.Now(), func(int) {}); err != nil {
		return 0, fmt.Errorf("seed: %w", err)
	}
	took := time.Since(start).Round(time.Second)
	f.seeded = fmt.Sprintf("seeded %d reservations in %s", n-have, took)
	fmt.Fprintf(os.Stderr, "benchflights: %s\n", f.seeded)
	return members, nil
}

type flight struct{ flight, date, origin string }

// futureFlights returns up to n distinct future flights (flight, local
// date), read through the (flight, departure) index.
func futureFlights(ctx context.Context, a *app.App, n int) ([]flight, error) {
	rows, err := a.DB.QueryContext(ctx, `SELECT flight, origin_airport_code, depart_at FROM reservation_segments
		WHERE depart_at > $1 ORDER BY flight, depart_at`, a.DB.Now().Add(time.Hour).UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("future flights: %w", err)
	}
	defer rows.Close()
	var out []flight
	seen := map[string]bool{}
	for rows.Next() && len(out) < n {
		var f flight
		var dep int64
		if err := rows.Scan(&f.flight, &f.origin, &dep); err != nil {
			return nil, fmt.Errorf("future flights: %w", err)
		}
		f.date = time.UnixMilli(dep).In(booking.AirportZone(f.origin)).Format(booking.DateLayout)
		if !seen[f.flight+f.date] {
			seen[f.flight+f.date] = true
			out = append(out, f)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("future flights: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no future flights in the database")
	}
	return out, nil
}

// checkSession fails early when the session check does not accept a
// bench member's session.
func checkSession(base, token string) error {
	req, err := http.NewRequest(http.MethodGet, base+"/api/session", nil)
	if err != nil {
		return err
	}
	req.AddCookie(&http.Cookie{Name: "members_session", Value: token})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("session check: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("session check: status %d", resp.StatusCode)
	}
	return nil
}

func applyEvents(ctx context.Context, a *app.App, flights []flight, f *figures) error {
	svc := a.FlightOps()
	run := time.Now().UnixNano()
	start := time.Now()
	for i, fl := range flights {
		dep, err := time.ParseInLocation(booking.DateLayout+" 15:04", fl.date+" 23:00", booking.AirportZone(fl.origin))
		if err != nil {
			return err
		}
		res, err := svc.Apply(ctx, flightops.Event{ID: fmt.Sprintf("bench-%d-%d", run, i), Flight: fl.flight, Date: fl.date,
			Kind: flightops.KindDelay, OccurredAt: time.Now().UTC(), Departure: &dep}, flightops.SourceFeed)
		if err != nil {
			return fmt.Errorf("event %d (%s %s): %w", i, fl.flight, fl.date, err)
		}
		f.booked += res.Bookings
	}
	f.apply = time.Since(start)
	f.events = len(flights)
	fmt.Fprintf(os.Stderr, "benchflights: applied %d events (%d bookings touched) in %s: %.0f events/s\n",
		f.events, f.booked, f.apply.Round(time.Millisecond), f.eventsPerSecond())
	return nil
}

// sendAll runs the sender until no mail is owed.
func sendAll(ctx context.Context, alerts *flightops.Alerts, sender *app.App, f *figures) error {
	start := time.Now()
	for {
		sent, err := alerts.SendDue(ctx)
		if err != nil {
			return fmt.Errorf("send: %w", err)
		}
		f.mails += sent
		var left int
		if err := sender.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM flight_alerts WHERE sequence > sent_sequence`).Scan(&left); err != nil {
			return fmt.Errorf("owed mails: %w", err)
		}
		if left == 0 {
			break
		}
		if time.Since(start) > 10*time.Minute {
			return fmt.Errorf("%d mails still owed after 10 minutes", left)
		}
	}
	f.send = time.Since(start)
	fmt.Fprintf(os.Stderr, "benchflights: queued %d mails in %s\n", f.mails, f.send.Round(time.Millisecond))
	return nil
}

// sessionRun runs wrk windows back to back until stopped.
type sessionRun struct {
	quit chan struct{}
	done chan struct{}
	res  []loadgen.Result
	err  error
}

func startSessionLoad(ctx context.Context, l loadgen.Load) *sessionRun {
	s := &sessionRun{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			select {
			case <-s.quit:
				return
			default:
			}
			r, err := loadgen.Run(ctx, l)
			if err != nil {
				s.err = err
				return
			}
			s.res = append(s.res, r)
		}
	}()
	return s
}

// stop waits for the running window to end and sums the windows up.
func (s *sessionRun) stop() (sessionLoad, error) {
	close(s.quit)
	<-s.done
	if s.err != nil {
		return sessionLoad{}, fmt.Errorf("session check: %w", s.err)
	}
	if len(s.res) == 0 {
		return sessionLoad{}, fmt.Errorf("session check: no window measured")
	}
	out := sessionLoad{windows: len(s.res)}
	var p50s []time.Duration
	for _, r := range s.res {
		out.requests += r.Requests
		out.elapsed += r.Elapsed
		out.p99 = max(out.p99, r.P99)
		p50s = append(p50s, r.P50)
	}
	slices.Sort(p50s)
	out.p50 = p50s[len(p50s)/2]
	return out, nil
}

func (f figures) eventsPerSecond() float64 { return float64(f.events) / f.apply.Seconds() }

func (f figures) report(o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Flight events\n\n")
	fmt.Fprintf(&b, "`go run ./cmd/benchflights` (part of `make bench`), %s, %s/%s, %d CPUs, measured %s; %s. "+
		"%d delay events, each for a flight (flight, local date) of its own, applied one after another through the feed's service as the endpoint "+
		"does after checking the signature, on %s with %d reservations (%s). Then the mail sender, a second instance on the same database with its "+
		"clock past the coalescing window, runs until no mail is owed; the time is from its start to the last mail in the outbox. "+
		"Meanwhile the first instance's whole server answers GET /api/session for %d bench members, a session each picked at random per request, "+
		"loaded by wrk (a separate process on the same machine) with %d connections, %d thread, in %d back-to-back windows of %s from before the first "+
		"event until the last mail (the last window may run past it; %d requests in %s); p50 is the median of the windows', p99 the worst window's.\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 MST"), f.conditions,
		f.events, f.engine, f.reservations, f.seeded, o.sessions, o.conns, o.thread, f.session.windows, o.window,
		f.session.requests, f.session.elapsed.Round(time.Millisecond))
	b.WriteString("| engine | reservations | events | bookings touched | events/s | mails queued | time until every mail queued | session check p50 | p99 |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %s | %d | %d | %d | %.0f | %d | %s | %s | %s |\n", f.engine, f.reservations, f.events, f.booked, f.eventsPerSecond(),
		f.mails, f.send.Round(time.Millisecond), f.session.p50, f.session.p99)
	fmt.Fprintf(&b, "\nTargets (SQLite, 1,000 events on 1,000,000 reservations): ≥ 200 events/s, every mail queued within 60 s of its event, "+
		"session check p99 < 50 ms meanwhile. This run: %s events/s, %s mails, %s p99. "+
		"A flight's bookings are found through the (flight, depart_at) index of reservation_segments, never a scan "+
		"(`TestFlightSegmentsUseIndex` in internal/store checks the query plan on both engines).\n",
		verdict(f.eventsPerSecond() >= 200), verdict(f.send <= time.Minute), verdict(f.session.p99 < 50*time.Millisecond))
	return b.String()
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}
