// Command benchtyphoon measures a typhoon day (part of `make bench`), the
// day the members need the site most: against the real server (bin/members
// serve, a child process), --flights flights of the next days are cancelled
// through the operations feed (POST /ops/v1/flight-events, signed) while
// the reservation system re-books each of their bookings through the
// bookings feed (PUT /ops/v1/reservations/{pnr}, signed: a newer version
// of the booking on the same flight number the day after), and meanwhile
// --searchers members, logged in, search their bookings as the bookings
// page does (GET /api/reservations), each every --think on average.
//
// It reports the time from the first request until every cancellation and
// every snapshot is applied, and until every flight change mail the
// cancellations owe is written to the outbox by the server's own sender
// (no alert left owed); the search's p50, p95 and p99 over that time; the
// server's peak RSS and CPU. Goals: everything applied and every mail
// queued within 5 minutes, the search's p95 under 50 ms. The figures go to
// the "Typhoon day" section of BENCHMARKS.md.
//
// The database is made for the run through `members import`: --members
// members with member numbers, --flights × --per-flight bookings on the
// flights to cancel (one a member, round the members), and --background
// bookings on other days. SQLite always; PostgreSQL when it answers
// (schema bench_typhoon). A smoke run: benchtyphoon --members 2000
// --background 5000 --flights 20 --per-flight 50 --out "".
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"members/internal/booking"
	"members/internal/demo"
	"members/internal/flightops"
	"members/internal/loadgen"
	"members/internal/store"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchtyphoon:", err)
		os.Exit(1)
	}
}

type options struct {
	bin                                     string
	members, background, flights, perFlight int
	searchers, senders                      int
	think, limit                            time.Duration
	out                                     string
}

const (
	opsSecret   = "bench-ops-secret"
	feedSecret  = "bench-bookings-feed-secret"
	legacyHash  = "$2y$04$Pp/PeqRQa2cG0whfRkiKku.d.0EYnXWeoejxLDR1lWW2oDMLmBwYu"
	flightBase  = 2000 // the flights to cancel are MM2000, MM2001, …
	typhoonDays = 2    // the flights to cancel leave this many days from today
)

// figures are what one engine's run measured.
type figures struct {
	engine                     string
	members, bookings          int
	importMembers, importBooks time.Duration
	cancelled, rebooked        int
	touched                    int // bookings the cancellations found on their flights
	retries                    int64
	started, appliedAt, doneAt time.Time
	applied, mailed            time.Duration // from the first request
	timedOut                   bool
	mails, owed                int
	searches, searchErrors     int
	p50, p95, p99, max         time.Duration
	cancelP50, cancelP95       time.Duration
	snapshotP50, snapshotP95   time.Duration
	rss                        int64
	cpu                        time.Duration
	loadBefore, loadAfter      string
	cancelLatency, snapLatency []time.Duration
	searchLatency              []time.Duration
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchtyphoon", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.bin, "bin", "bin/members", "the server binary")
	fs.IntVar(&o.members, "members", 20000, "members (imported, with member numbers)")
	fs.IntVar(&o.background, "background", 240000, "bookings on other days (imported)")
	fs.IntVar(&o.flights, "flights", 300, "flights cancelled")
	fs.IntVar(&o.perFlight, "per-flight", 200, "bookings on each cancelled flight, each re-booked")
	fs.IntVar(&o.searchers, "searchers", 50, "members searching their bookings meanwhile")
	fs.IntVar(&o.senders, "senders", 8, "the reservation system's snapshots in flight at once")
	fs.DurationVar(&o.think, "think", time.Second, "each searcher's mean pause between two searches (0: none)")
	fs.DurationVar(&o.limit, "limit", 15*time.Minute, "give up after this long")
	pg := loadgen.PostgresFlag(fs)
	fs.StringVar(&o.out, "out", "BENCHMARKS.md", "report file (empty: print only)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "benchtyphoon-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files, err := makeFiles(dir, o)
	if err != nil {
		return err
	}
	var results []figures
	f, err := bench("sqlite", "sqlite:"+filepath.Join(dir, "typhoon.db"), files, o)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	results = append(results, f)
	if *pg != "" {
		if err := loadgen.PingPostgres(*pg); err != nil {
			fmt.Fprintln(os.Stderr, "benchtyphoon: PostgreSQL skipped:", err)
		} else {
			dsn, err := loadgen.FreshSchema(*pg, "bench_typhoon")
			if err != nil {
				return err
			}
			f, err := bench("postgres", dsn, files, o)
			if err != nil {
				return fmt.Errorf("postgres: %w", err)
			}
			results = append(results, f)
			_ = loadgen.ResetSchema(*pg, "bench_typhoon")
		}
	}
	report := write(results, o)
	fmt.Print(report + "\n")
	if o.out == "" {
		return nil
	}
	return loadgen.WriteSection(o.out, "typhoon", report)
}

// The day's data.
type dataFiles struct {
	members, bookings string
	day               time.Time // the typhoon day, 00:00 JST
	rebookings        [][]rebooking
}

type rebooking struct {
	pnr  string
	body []byte
}

var (
	origins      = []string{"KIX", "HND", "NGO", "FUK", "CTS"}
	destinations = []string{"OKA", "ISG", "MMB", "KOJ", "KMI", "NGS", "SDJ", "KIJ"}
)

// typhoonSegment is the segment of booking j of flight k, on day.
func typhoonSegment(k int, day time.Time) map[string]any {
	dep := day.Add(6*time.Hour + time.Duration(k%56)*15*time.Minute)
	return map[string]any{"key": "1", "flight": fmt.Sprintf("MM%d", flightBase+k), "originAirportCode": origins[k%len(origins)],
		"destinationAirportCode": destinations[k%len(destinations)], "departDateTime": dep.Format(time.RFC3339),
		"arrivalDateTime": dep.Add(2 * time.Hour).Format(time.RFC3339), "statusCode": "CONFIRMED", "originTerminal": "1", "destinationTerminal": ""}
}

func snapshot(pnr string, version int, number string, bookedAt time.Time, pax int, segs ...map[string]any) map[string]any {
	s := map[string]any{"version": version, "memberNumber": number, "bookingDate": bookedAt.Format(time.RFC3339),
		"statusCode": "CONFIRMED", "currency": "JPY", "totalAmount": 12800 * pax, "contactEmail": "traveller@example.com", "segments": segs}
	var ps []any
	for p := range pax {
		first := "AOI"
		if p > 0 {
			first = "KEN"
		}
		ps = append(ps, map[string]any{"lastname": "KIMURA", "firstname": first, "passengerType": "ADULT"})
	}
	s["passengers"] = ps
	if pnr != "" {
		s["pnr"] = pnr
	}
	return s
}

func memberNumber(i int) string { return fmt.Sprintf("T%07d", i) }

// makeFiles writes the members and bookings files and the re-bookings.
func makeFiles(dir string, o options) (dataFiles, error) {
	now := time.Now().In(booking.JST)
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, booking.JST).AddDate(0, 0, typhoonDays)
	d := dataFiles{members: filepath.Join(dir, "members.ndjson"), bookings: filepath.Join(dir, "bookings.ndjson"), day: day}
	write := func(path string, lines func(w *bufio.Writer, enc *json.Encoder) error) error {
		f, err := os.Create(path) // #nosec G304 -- the bench's own temporary file
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		if err := lines(w, json.NewEncoder(w)); err != nil {
			_ = f.Close()
			return err
		}
		if err := w.Flush(); err != nil {
			_ = f.Close()
			return err
		}
		return f.Close()
	}
	if err := write(d.members, func(_ *bufio.Writer, enc *json.Encoder) error {
		for i := range o.members {
			if err := enc.Encode(map[string]any{"memberNumber": memberNumber(i), "email": fmt.Sprintf("typhoon%07d@example.com", i),
				"firstname": "Aoi", "lastname": "Kimura", "gender": "female", "birth": "1990-05-06", "tel": "0612345678",
				"addressCountryCode": "JP", "addressPostalCode": "5300001", "addressStateAndCity": "Osaka Kita-ku", "address1": "1-1 Umeda",
				"lang": "jp", "passwordHash": legacyHash}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return d, err
	}
	booked := now.Add(-24 * time.Hour)
	rng := rand.New(rand.NewPCG(1, 2)) // #nosec G404 -- benchmark data
	d.rebookings = make([][]rebooking, o.flights)
	err := write(d.bookings, func(_ *bufio.Writer, enc *json.Encoder) error {
		n := 0
		for k := range o.flights {
			for range o.perFlight {
				pnr, owner, pax := fmt.Sprintf("TY%06d", n), memberNumber(n%o.members), 1+n%3
				if err := enc.Encode(snapshot(pnr, 1, owner, booked, pax, typhoonSegment(k, day))); err != nil {
					return err
				}
				// the re-booking: the same flight number the day after
				next := typhoonSegment(k, day.AddDate(0, 0, 1))
				body, err := json.Marshal(snapshot("", 2, owner, booked, pax, next))
				if err != nil {
					return err
				}
				d.rebookings[k] = append(d.rebookings[k], rebooking{pnr: pnr, body: body})
				n++
			}
		}
		for i := range o.background {
			dep := day.AddDate(0, 0, 10+rng.IntN(300)).Add(time.Duration(6*60+rng.IntN(14*60)) * time.Minute).Truncate(5 * time.Minute)
			org, dst := origins[rng.IntN(len(origins))], destinations[rng.IntN(len(destinations))]
			fn := 100 + rng.IntN(900)
			segs := []map[string]any{{"key": "1", "flight": fmt.Sprintf("MM%d", fn), "originAirportCode": org, "destinationAirportCode": dst,
				"departDateTime": dep.Format(time.RFC3339), "arrivalDateTime": dep.Add(2 * time.Hour).Format(time.RFC3339),
				"statusCode": "CONFIRMED", "originTerminal": "", "destinationTerminal": ""}}
			if i%2 == 0 {
				back := dep.AddDate(0, 0, 2+rng.IntN(7))
				segs = append(segs, map[string]any{"key": "2", "flight": fmt.Sprintf("MM%d", fn+1), "originAirportCode": dst,
					"destinationAirportCode": org, "departDateTime": back.Format(time.RFC3339), "arrivalDateTime": back.Add(2 * time.Hour).Format(time.RFC3339),
					"statusCode": "CONFIRMED", "originTerminal": "", "destinationTerminal": ""})
			}
			if err := enc.Encode(snapshot(fmt.Sprintf("BG%07d", i), 1, memberNumber(i%o.members), booked, 1+rng.IntN(3), segs...)); err != nil {
				return err
			}
		}
		return nil
	})
	return d, err
}

// importFile runs `members import KIND FILE` and returns its time.
func importFile(bin, dsn, kind, path string) (time.Duration, error) {
	start := time.Now()
	cmd := exec.Command(bin, "import", kind, path, "--db", dsn) // #nosec G204 -- the bench's own binary and files
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("import %s: %w\n%s", kind, err, out.String())
	}
	return time.Since(start), nil
}

// cpuTime is a process's user and system CPU time (Linux, 100 ticks/s).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	var u, k int64
	_, _ = fmt.Sscan(f[11], &u)
	_, _ = fmt.Sscan(f[12], &k)
	return time.Duration(u+k) * 10 * time.Millisecond
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func bench(engine, dsn string, files dataFiles, o options) (figures, error) {
	ctx := context.Background()
	f := figures{engine: engine, members: o.members, bookings: o.flights*o.perFlight + o.background}
	var err error
	if f.importMembers, err = importFile(o.bin, dsn, "members", files.members); err != nil {
		return f, err
	}
	if f.importBooks, err = importFile(o.bin, dsn, "bookings", files.bookings); err != nil {
		return f, err
	}
	fmt.Fprintf(os.Stderr, "benchtyphoon: %s: imported %d members in %s, %d bookings in %s\n", engine, o.members,
		f.importMembers.Round(time.Second), f.bookings, f.importBooks.Round(time.Second))

	// the searchers' sessions, made directly in the database
	a, err := loadgen.OpenQuiet(ctx, dsn)
	if err != nil {
		return f, err
	}
	defer a.Close()
	numbers := make([]string, o.searchers)
	for i := range numbers {
		numbers[i] = memberNumber(i)
	}
	ids, err := memberIDs(ctx, a.DB, numbers)
	if err != nil {
		return f, err
	}
	tokens, err := demo.BenchSessions(ctx, a.DB, ids, time.Now())
	if err != nil {
		return f, err
	}

	addr, err := loadgen.FreeAddr()
	if err != nil {
		return f, err
	}
	base := "http://" + addr
	srv := exec.Command(o.bin, "serve", "--addr", addr, "--db", dsn, "--ops-secret", opsSecret, // #nosec G204 -- the bench's own server binary
		"--bookings-feed-secret", feedSecret, "--public-url", base, "--gateway-sandbox")
	var log bytes.Buffer
	srv.Stdout, srv.Stderr = &log, &log
	if err := srv.Start(); err != nil {
		return f, fmt.Errorf("start %s: %w", o.bin, err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	httpc := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
	for deadline := time.Now().Add(60 * time.Second); ; {
		if res, err := httpc.Get(base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			return f, fmt.Errorf("server did not start: %s", log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	q := url.Values{"form": {booking.FormSearch}, "bookingDateFrom": {booking.TodayJST(time.Now()).AddDate(-2, 0, 0).Format(booking.DateLayout)},
		"bookingDateTo": {booking.TodayJST(time.Now()).Format(booking.DateLayout)}, "status": {booking.SearchAll}, "order": {booking.OrderAsc},
		"perPage": {"10"}}
	search := base + "/api/reservations?" + q.Encode()
	if code, err := get(httpc, search, tokens[0]); err != nil || code != http.StatusOK {
		return f, fmt.Errorf("search: status %d, %v", code, err)
	}

	rss := loadgen.WatchRSS(srv.Process.Pid)
	cpu0 := cpuTime(srv.Process.Pid)
	f.loadBefore = loadavg()
	f.started = time.Now()
	stop := make(chan struct{})
	var searchMu sync.Mutex
	var searchWG sync.WaitGroup
	for i := range o.searchers {
		searchWG.Add(1)
		go func(token string, seed uint64) {
			defer searchWG.Done()
			rng := rand.New(rand.NewPCG(seed, 7)) // #nosec G404 -- the pauses of a benchmark
			for {
				t0 := time.Now()
				code, err := get(httpc, search, token)
				took := time.Since(t0)
				searchMu.Lock()
				f.searchLatency = append(f.searchLatency, took)
				if err != nil || code != http.StatusOK {
					f.searchErrors++
				}
				searchMu.Unlock()
				var pause time.Duration
				if o.think > 0 {
					pause = time.Duration((0.5 + rng.Float64()) * float64(o.think))
				}
				select {
				case <-stop:
					return
				case <-time.After(pause):
				}
			}
		}(tokens[i], uint64(i)) // #nosec G115 -- a small index
	}

	// The operations system cancels the flights one after another; the
	// reservation system re-books each flight's bookings once its
	// cancellation is in.
	work := make(chan rebooking, o.perFlight)
	var opsErr, feedErr error
	var opsMu sync.Mutex
	var retries atomic.Int64
	var opsWG sync.WaitGroup
	opsWG.Add(1)
	go func() {
		defer opsWG.Done()
		defer close(work)
		run := time.Now().UnixNano()
		for k := range o.flights {
			body, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("typhoon-%d-%d", run, k), "flight": fmt.Sprintf("MM%d", flightBase+k),
				"date": files.day.Format(booking.DateLayout), "kind": flightops.KindCancellation, "occurredAt": time.Now().UTC().Format(time.RFC3339)})
			t0 := time.Now()
			res, err := send(httpc, http.MethodPost, base+"/ops/v1/flight-events", opsSecret, body, &retries)
			if err != nil {
				opsMu.Lock()
				opsErr = fmt.Errorf("cancel flight %d: %w", k, err)
				opsMu.Unlock()
				return
			}
			opsMu.Lock()
			f.cancelLatency = append(f.cancelLatency, time.Since(t0))
			f.cancelled++
			if n, ok := res["bookings"].(float64); ok {
				f.touched += int(n)
			}
			opsMu.Unlock()
			for _, r := range files.rebookings[k] {
				work <- r
			}
		}
	}()
	var feedWG sync.WaitGroup
	for range o.senders {
		feedWG.Add(1)
		go func() {
			defer feedWG.Done()
			for r := range work {
				t0 := time.Now()
				res, err := send(httpc, http.MethodPut, base+"/ops/v1/reservations/"+r.pnr, feedSecret, r.body, &retries)
				if err == nil && res["outcome"] != booking.FeedApplied {
					err = fmt.Errorf("outcome %v", res["outcome"])
				}
				opsMu.Lock()
				if err != nil && feedErr == nil {
					feedErr = fmt.Errorf("re-book %s: %w", r.pnr, err)
				}
				if err == nil {
					f.rebooked++
					f.snapLatency = append(f.snapLatency, time.Since(t0))
				}
				opsMu.Unlock()
			}
		}()
	}
	opsWG.Wait()
	feedWG.Wait()
	f.appliedAt = time.Now()
	f.applied = f.appliedAt.Sub(f.started)
	if opsErr != nil || feedErr != nil {
		close(stop)
		searchWG.Wait()
		return f, errors.Join(opsErr, feedErr, fmt.Errorf("server log:\n%s", tail(log.String(), 40)))
	}
	fmt.Fprintf(os.Stderr, "benchtyphoon: %s: %d flights cancelled, %d bookings re-booked in %s\n", engine, f.cancelled, f.rebooked,
		f.applied.Round(time.Millisecond))

	// every mail the cancellations owe, written by the server's sender
	for {
		if err := a.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM flight_alerts WHERE sequence > sent_sequence`).Scan(&f.owed); err != nil {
			return f, err
		}
		if f.owed == 0 {
			break
		}
		if time.Since(f.started) > o.limit {
			f.timedOut = true
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	f.doneAt = time.Now()
	f.mailed = f.doneAt.Sub(f.started)
	close(stop)
	searchWG.Wait()
	f.cpu = cpuTime(srv.Process.Pid) - cpu0
	f.rss = rss.Stop()
	f.loadAfter = loadavg()
	f.retries = retries.Load()
	if err := a.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE kind = 'flight_change'`).Scan(&f.mails); err != nil {
		return f, err
	}
	f.searches = len(f.searchLatency)
	f.p50, f.p95, f.p99, f.max = pct(f.searchLatency, 50), pct(f.searchLatency, 95), pct(f.searchLatency, 99), pct(f.searchLatency, 100)
	f.cancelP50, f.cancelP95 = pct(f.cancelLatency, 50), pct(f.cancelLatency, 95)
	f.snapshotP50, f.snapshotP95 = pct(f.snapLatency, 50), pct(f.snapLatency, 95)
	fmt.Fprintf(os.Stderr, "benchtyphoon: %s: every mail queued at %s (%d mails), search p95 %s over %d searches\n", engine,
		f.mailed.Round(time.Millisecond), f.mails, f.p95, f.searches)
	return f, nil
}

func memberIDs(ctx context.Context, db *store.DB, numbers []string) ([]string, error) {
	out := make([]string, 0, len(numbers))
	for _, n := range numbers {
		var id string
		if err := db.QueryRowContext(ctx, `SELECT id FROM members WHERE member_number = $1`, n).Scan(&id); err != nil {
			return nil, fmt.Errorf("member %s: %w", n, err)
		}
		out = append(out, id)
	}
	return out, nil
}

func get(c *http.Client, u, token string) (int, error) {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.AddCookie(&http.Cookie{Name: "members_session", Value: token})
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, nil
}

// send is one signed call of a feed, sent again (as the airline's systems
// do) while the answer is 5xx: the server asks for it (503 with
// Retry-After) or failed it whole (500: nothing stored).
func send(c *http.Client, method, u, secret string, body []byte, retries *atomic.Int64) (map[string]any, error) {
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequest(method, u, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(flightops.SignatureHeader, flightops.Sign([]byte(secret), time.Now(), body))
		res, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode >= 500 && attempt < 10 {
			retries.Add(1)
			time.Sleep(time.Duration(50*(attempt+1)) * time.Millisecond)
			continue
		}
		var out map[string]any
		_ = json.Unmarshal(b, &out)
		if res.StatusCode != http.StatusOK {
			return out, fmt.Errorf("status %d: %s", res.StatusCode, b)
		}
		return out, nil
	}
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-lines):], "\n")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}

func write(results []figures, o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Typhoon day\n\n")
	fmt.Fprintf(&b, "`go run ./cmd/benchtyphoon` (part of `make bench`), %s, %s/%s, %d CPUs, measured %s. The real server (`bin/members serve`, "+
		"a child process, no SMTP: the mails stay in the outbox, its own flight change sender running) on a database imported for the run with "+
		"`members import`: %d members and %d bookings, %d of them on %d flights leaving %d days from today (%d a flight). From the first "+
		"request on, the operations system cancels those flights one after another (POST /ops/v1/flight-events, signed, one at a time), "+
		"and once a flight's cancellation is in, the reservation system re-books each of its bookings onto the same flight number the day after "+
		"(PUT /ops/v1/reservations/{pnr}, signed, version 2; %d at a time); a 5xx is sent again, as those systems do. Meanwhile %d members, "+
		"each with a session, search their bookings as the bookings page does (GET /api/reservations, first page of 10), each every %s on "+
		"average (0.5–1.5×). \"Applied\" is when the last cancellation and snapshot were answered 200; \"every mail queued\" when no flight change "+
		"mail was owed any more (the server's sender wrote it to the outbox, or found the member no longer on the flight: then none is due); the "+
		"search's percentiles are over every search from the first request to that moment.\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 MST"),
		o.members, o.flights*o.perFlight+o.background, o.flights*o.perFlight, o.flights, typhoonDays, o.perFlight, o.senders, o.searchers, o.think)
	b.WriteString("| engine | load average before → after | import (members, bookings) | cancelled | re-booked | retried (5xx) | all applied | every mail queued | mails | searches | search p50 | p95 | p99 | max | errors | cancellation p50 / p95 | snapshot p50 / p95 | server CPU | server peak RSS |\n" +
		"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|\n")
	for _, f := range results {
		mailed := f.mailed.Round(100 * time.Millisecond).String()
		if f.timedOut {
			mailed = fmt.Sprintf("not within %s (%d owed)", o.limit, f.owed)
		}
		fmt.Fprintf(&b, "| %s | %s → %s | %s, %s | %d | %d | %d | %s | %s | %d | %d | %s | %s | %s | %s | %d | %s / %s | %s / %s | %s | %d MiB |\n",
			f.engine, f.loadBefore, f.loadAfter, f.importMembers.Round(100*time.Millisecond), f.importBooks.Round(100*time.Millisecond),
			f.cancelled, f.rebooked, f.retries, f.applied.Round(100*time.Millisecond), mailed, f.mails, f.searches, ms(f.p50), ms(f.p95), ms(f.p99),
			ms(f.max), f.searchErrors, ms(f.cancelP50), ms(f.cancelP95), ms(f.snapshotP50), ms(f.snapshotP95), f.cpu.Round(100*time.Millisecond),
			f.rss>>20)
	}
	b.WriteString("\nGoals: everything applied and every mail queued within 5 minutes; the search's p95 under 50 ms.")
	for _, f := range results {
		fmt.Fprintf(&b, " %s: %s in time, %s for the p95.", f.engine, verdict(!f.timedOut && f.mailed <= 5*time.Minute), verdict(f.p95 < 50*time.Millisecond))
	}
	b.WriteString("\n")
	return b.String()
}
