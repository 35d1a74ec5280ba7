// Command benchreport runs the benchmarks of `make bench` and writes their
// figures to BENCHMARKS.md. Its section, "Session check", compares the
// requests per second of GET /api/session with a live session (cookie →
// session lookup in SQLite → 204) against a bare handler that answers 204
// on the same server and listener, so the ratio is the cost of the
// session middleware stack. Loopback only; request count and time bounded.
//
// Other benchmarks write their own sections; this command rewrites only the
// text between <!-- bench:session --> and <!-- /bench:session -->.
package main

import (
	"context"
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
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"members/internal/app"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

type result struct {
	name     string
	requests int
	elapsed  time.Duration
	p50, p99 time.Duration
}

func (r result) rps() float64 { return float64(r.requests) / r.elapsed.Seconds() }

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	n := fs.Int("n", 20000, "requests per measurement")
	conc := fs.Int("c", 8, "concurrent clients")
	limit := fs.Duration("max-time", 30*time.Second, "time limit per measurement")
	out := fs.String("out", "BENCHMARKS.md", "report file")
	if err := fs.Parse(args); err != nil {
		return err
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
	h, feats, err := a.Server(ctx, app.Config{Revision: "bench", Demo: true})
	if err != nil {
		return err
	}
	defer feats.Close()

	root := http.NewServeMux()
	root.HandleFunc("GET /bench/bare", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	root.Handle("/", h)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: root, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	tr := &http.Transport{MaxIdleConns: *conc * 2, MaxIdleConnsPerHost: *conc * 2, DisableCompression: true}
	defer tr.CloseIdleConnections()
	cookie, err := login(base, tr)
	if err != nil {
		return err
	}

	measure := func(name, path string, withCookie bool) (result, error) {
		// Warm up connections and caches, then measure.
		if _, err := load(base+path, cookie, withCookie, tr, *conc, min(*n/10, 1000), *limit); err != nil {
			return result{}, err
		}
		r, err := load(base+path, cookie, withCookie, tr, *conc, *n, *limit)
		r.name = name
		return r, err
	}
	session, err := measure("GET /api/session (with session)", "/api/session", true)
	if err != nil {
		return err
	}
	bare, err := measure("bare handler (204)", "/bench/bare", false)
	if err != nil {
		return err
	}
	section := report(session, bare, *conc)
	fmt.Fprint(stdout, section)
	return writeSection(*out, "session", section)
}

// login logs in as the demo member and returns the session cookie.
func login(base string, tr http.RoundTripper) (*http.Cookie, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Transport: tr, Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Get(base + "/api/csrf_token")
	if err != nil {
		return nil, err
	}
	var tok struct{ CsrfToken string }
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("csrf token: %w", err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/api/session",
		strings.NewReader(`{"email":"demo@example.com","password":"Demo1234"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Csrf-Token", tok.CsrfToken)
	resp, err = c.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return nil, fmt.Errorf("login: status %d", resp.StatusCode)
	}
	for _, k := range resp.Cookies() {
		if k.Name == "members_session" {
			return k, nil
		}
	}
	return nil, errors.New("login: no session cookie")
}

// load sends up to total GETs from conc clients, stopping at the time limit.
// Every answer must be 204.
func load(url string, cookie *http.Cookie, withCookie bool, tr http.RoundTripper, conc, total int, limit time.Duration) (result, error) {
	var (
		next     atomic.Int64
		mu       sync.Mutex
		lat      []time.Duration
		firstErr error
		wg       sync.WaitGroup
	)
	deadline := time.Now().Add(limit)
	start := time.Now()
	for i := 0; i < conc; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
			mine := make([]time.Duration, 0, total/conc+1)
			defer func() { mu.Lock(); lat = append(lat, mine...); mu.Unlock() }()
			for next.Add(1) <= int64(total) && time.Now().Before(deadline) {
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				if withCookie {
					req.AddCookie(cookie)
				}
				t0 := time.Now()
				resp, err := c.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusNoContent {
						err = fmt.Errorf("GET %s: status %d", url, resp.StatusCode)
					}
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if firstErr != nil {
		return result{}, firstErr
	}
	slices.Sort(lat)
	r := result{requests: len(lat), elapsed: elapsed}
	if len(lat) > 0 {
		r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	return r, nil
}

func report(session, bare result, conc int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Session check\n\n")
	fmt.Fprintf(&b, "`go run ./cmd/benchreport` (part of `make bench`), %s, %s/%s, %d CPUs, SQLite (WAL) with the demo data, "+
		"%d concurrent keep-alive clients on loopback (client and server share the CPUs), measured %s.\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), conc, time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "| request | requests | req/s | p50 | p99 |\n|---|---:|---:|---:|---:|\n")
	for _, r := range []result{session, bare} {
		fmt.Fprintf(&b, "| %s | %d | %.0f | %s | %s |\n", r.name, r.requests, r.rps(), round(r.p50), round(r.p99))
	}
	fmt.Fprintf(&b, "\nRatio session check / bare handler: **%.2f** (%.1f%% of the bare throughput). "+
		"The session check runs the whole middleware stack (request log, headers, cross-origin check, JSON mux, "+
		"session lookup by token hash in the database); the bare handler is mounted beside it on the same server.\n",
		session.rps()/bare.rps(), 100*session.rps()/bare.rps())
	return b.String()
}

func round(d time.Duration) string {
	return d.Round(time.Microsecond).String()
}

// writeSection replaces the text between the section's markers in path,
// appending the section when the markers are missing.
func writeSection(path, name, body string) error {
	begin, end := "<!-- bench:"+name+" -->", "<!-- /bench:"+name+" -->"
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	doc := string(old)
	if doc == "" {
		doc = "# Benchmarks\n\nFigures written by `make bench`; each section belongs to one benchmark.\n"
	}
	block := begin + "\n" + body + end
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i >= 0 && j > i {
		doc = doc[:i] + block + doc[j+len(end):]
	} else {
		doc = strings.TrimRight(doc, "\n") + "\n\n" + block + "\n"
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
