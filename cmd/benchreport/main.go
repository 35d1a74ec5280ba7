// Command benchreport runs the session benchmark and the Lighthouse runs of
// `make bench` and writes their figures to BENCHMARKS.md.
//
// "Session check" compares GET /api/session with a live session (cookie →
// whole middleware chain → session lookup in SQLite → 204), for 1,000
// members whose sessions wrk rotates, against a bare Go server answering
// 204 in a process of its own (cmd/benchbare), as an outsider would
// measure it. The load comes from wrk, a separate process
// (internal/loadgen), in rounds that alternate the two; the round with the
// median ratio is reported.
//
// "Lighthouse" runs Lighthouse 13 (mobile, simulated throttling) with
// Debian's chromium on eight pages of the same server (login, home,
// bookings, account, points, points sale, the unlimited pass, payment
// methods), the logged-in ones with the demo member's session cookie, and
// reports the median of 3 runs per page (web/scripts/lighthouse.mjs).
// `-session=false` runs only the Lighthouse part.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"members/internal/app"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/loadgen"
	"members/internal/platform"
	"members/internal/store"
)

// revision must be the revision the web app was built with (the Makefile
// passes both the same): with another one, every page would reload itself
// once to pick up the "new release", and Lighthouse would measure that.
var revision = "dev"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

type round struct {
	session, bare loadgen.Result
}

func (r round) ratio() float64 { return r.session.RPS() / r.bare.RPS() }

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	rounds := fs.Int("rounds", 3, "rounds of (session, bare)")
	dur := fs.Duration("d", 5*time.Second, "duration of each wrk run")
	conns := fs.Int("c", 8, "wrk connections")
	threads := fs.Int("t", 1, "wrk threads")
	members := fs.Int("members", 1000, "members whose sessions the session check rotates")
	lighthouse := fs.Bool("lighthouse", true, "run Lighthouse on the eight pages (web/scripts/lighthouse.mjs)")
	lhRuns := fs.Int("lighthouse-runs", 3, "Lighthouse runs per page (median)")
	lhPages := fs.String("lighthouse-pages", "", "only these pages, comma-separated (login,home,bookings,account,points,points-sale,passes,payment-methods); default all")
	lhReports := fs.String("lighthouse-reports", "", "keep each run's Lighthouse JSON report in this folder (traces of long tasks, layout shifts)")
	sessionBench := fs.Bool("session", true, "run the session benchmark")
	out := fs.String("out", "BENCHMARKS.md", "report file")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the server during the session runs")
	serve := fs.Bool("serve", false, "only serve the demo app on 127.0.0.1:8089 (for trying the bench by hand)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sessionBench {
		if err := loadgen.Check(); err != nil {
			return err
		}
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "benchreport")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	a, err := app.Open(ctx, app.Options{
		DSN: "sqlite:" + filepath.Join(dir, "bench.db"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	defer a.Close()
	if err := openPasses(ctx, a); err != nil {
		return err
	}
	h, feats, err := a.Server(ctx, app.Config{Revision: revision, Demo: true})
	if err != nil {
		return err
	}
	defer feats.Close()

	addr := "127.0.0.1:0"
	if *serve {
		addr = "127.0.0.1:8089"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	if *serve {
		fmt.Fprintln(stdout, "serving", base)
		select {}
	}
	cookie, err := login(base)
	if err != nil {
		return err
	}
	conditions := loadgen.Machine()

	if *sessionBench {
		sessions, err := benchSessions(ctx, a, *members)
		if err != nil {
			return err
		}
		bare, err := loadgen.StartBare(ctx)
		if err != nil {
			return err
		}
		defer bare.Stop()
		if *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			if err != nil {
				return err
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer f.Close()
		}
		var rs []round
		for i := 0; i < *rounds; i++ {
			var r round
			for _, m := range []struct {
				res     *loadgen.Result
				path    string
				cookies []string
			}{{&r.session, base + "/api/session", sessions}, {&r.bare, bare.URL, nil}} {
				*m.res, err = loadgen.Run(ctx, loadgen.Load{URL: m.path, Cookies: m.cookies,
					Connections: *conns, Threads: *threads, Duration: *dur})
				if err != nil {
					return err
				}
			}
			fmt.Fprintf(os.Stderr, "benchreport: round %d: session %.0f req/s, bare %.0f req/s, ratio %.2f\n",
				i+1, r.session.RPS(), r.bare.RPS(), r.ratio())
			rs = append(rs, r)
		}
		pprof.StopCPUProfile()
		section := sessionReport(rs, len(sessions), *conns, *threads, *dur, conditions)
		fmt.Fprint(stdout, section)
		if err := loadgen.WriteSection(*out, "session", section); err != nil {
			return err
		}
	}
	if *lighthouse {
		section, err := runLighthouse(ctx, base, cookie, *lhRuns, *lhPages, *lhReports)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, section)
		if err := loadgen.WriteSection(*out, "lighthouse", section); err != nil {
			return err
		}
	}
	return nil
}

// openPasses puts the unlimited pass on sale, as `make run` does for a fresh
// demo, with its maintenance window off, so that its page shows the same
// whatever the hour of the run.
func openPasses(ctx context.Context, a *app.App) error {
	if err := a.Platform.Set(ctx, platform.KeyGogoPass, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}); err != nil {
		return fmt.Errorf("open the unlimited pass: %w", err)
	}
	if err := a.Platform.Set(ctx, platform.KeyGogoPassMaintenance, platform.MaintenanceOff); err != nil {
		return fmt.Errorf("pass maintenance off: %w", err)
	}
	return nil
}

// login logs in as the demo member and returns the session cookie value.
func login(base string) (string, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Get(base + "/api/csrf_token")
	if err != nil {
		return "", err
	}
	var tok struct{ CsrfToken string }
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil {
		return "", fmt.Errorf("csrf token: %w", err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/api/session",
		strings.NewReader(`{"email":"demo@example.com","password":"Demo1234"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Csrf-Token", tok.CsrfToken)
	resp, err = c.Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return "", fmt.Errorf("login: status %d", resp.StatusCode)
	}
	for _, k := range resp.Cookies() {
		if k.Name == "members_session" {
			return k.Value, nil
		}
	}
	return "", errors.New("login: no session cookie")
}

// benchSessions gives n bench members a session each (directly in the
// database) and returns their cookie values.
func benchSessions(ctx context.Context, a *app.App, n int) ([]string, error) {
	now := time.Now()
	if err := demo.SeedBench(ctx, a.DB, "!", n, 0, 0, now, nil); err != nil {
		return nil, err
	}
	st := store.NewAuthStore(a.DB)
	var out []string
	for i := range n {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		tok := hex.EncodeToString(b)
		if err := st.CreateSession(ctx, auth.Session{IDHash: auth.HashToken(tok), MemberID: demo.BenchMemberID(i), LogID: tok[:16],
			CreatedAt: now, LastSeenAt: now, ClientAddr: "127.0.0.1", UserAgent: "wrk"}); err != nil {
			return nil, err
		}
		out = append(out, tok)
	}
	return out, nil
}

func sessionReport(rs []round, members, conns, threads int, dur time.Duration, conditions string) string {
	med := loadgen.Median(rs, round.ratio)
	var b strings.Builder
	fmt.Fprintf(&b, "## Session check\n\n")
	fmt.Fprintf(&b, "`go run ./cmd/benchreport` (part of `make bench`), %s, %s/%s, %d CPUs, SQLite (WAL) with the demo data, "+
		"measured %s; %s. Load from wrk (a separate process on the same machine: client and server share the CPUs), "+
		"%d connections, %d threads, %s per run, %d members' sessions picked at random per request, %d rounds alternating the two servers; the round with the median ratio:\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 MST"),
		conditions, conns, threads, dur, members, len(rs))
	fmt.Fprintf(&b, "| request | requests | req/s | p50 | p95 | p99 |\n|---|---:|---:|---:|---:|---:|\n")
	for _, x := range []struct {
		name string
		r    loadgen.Result
	}{{"GET /api/session (with session)", med.session}, {"bare Go server, own process (204)", med.bare}} {
		fmt.Fprintf(&b, "| %s | %d | %.0f | %s | %s | %s |\n", x.name, x.r.Requests, x.r.RPS(), x.r.P50, x.r.P95, x.r.P99)
	}
	var all []string
	for _, r := range rs {
		all = append(all, fmt.Sprintf("%.2f", r.ratio()))
	}
	fmt.Fprintf(&b, "\nRatio session check / bare server: **%.2f** (target ≥ 0.40; every round: %s). "+
		"The session check runs the whole middleware stack (request log, headers, cross-origin check, JSON mux, "+
		"session lookup by token hash in the database, no in-memory session cache: a logout on any instance ends the session at once); "+
		"the bare server is a separate 10-line Go process (`cmd/benchbare`: `http.Serve` answering 204), the yardstick an outsider would use.\n",
		med.ratio(), strings.Join(all, ", "))
	return b.String()
}

// runLighthouse runs web/scripts/lighthouse.mjs, which prints the section.
func runLighthouse(ctx context.Context, base, cookie string, runs int, pages, reports string) (string, error) {
	args := []string{"scripts/lighthouse.mjs", "--base", base, "--cookie", "members_session=" + cookie, "--runs", fmt.Sprint(runs)}
	if pages != "" {
		args = append(args, "--pages", pages)
	}
	if reports != "" {
		abs, err := filepath.Abs(reports)
		if err != nil {
			return "", err
		}
		args = append(args, "--reports", abs)
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = "web"
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("lighthouse: %w", err)
	}
	return string(out), nil
}
