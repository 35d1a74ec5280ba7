// Package loadgen drives the HTTP benchmarks of `make bench`: it runs wrk
// (Debian package "wrk") as a separate process against a URL, with a
// session cookie picked at random per request from a list, and reads the
// request count, errors and latency percentiles back from wrk's Lua "done"
// hook. It also samples a process's resident memory while the load runs,
// and writes a section of BENCHMARKS.md between its markers.
package loadgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Load is one wrk run.
type Load struct {
	URL         string   // full URL, host 127.0.0.1
	Cookies     []string // members_session values; one is picked per request (none: no cookie)
	Connections int
	Threads     int
	Duration    time.Duration
	// Distinct adds a parameter of random value to each request's query
	// string, so that no two requests are alike and no answer cache can
	// serve them (the URL must have a query string already).
	Distinct bool
}

// Result is what wrk measured.
type Result struct {
	Requests      int
	Elapsed       time.Duration
	P50, P95, P99 time.Duration
}

// RPS is requests per second.
func (r Result) RPS() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// Check fails early with the install hint when wrk is missing.
func Check() error {
	if _, err := exec.LookPath("wrk"); err != nil {
		return errors.New("wrk not found: install it (Debian: apt-get install wrk)")
	}
	return nil
}

const script = `
local cookies = {%s}
local path = %q
local distinct = %t
request = function()
  local h = {}
  if #cookies > 0 then h["Cookie"] = "members_session=" .. cookies[math.random(#cookies)] end
  local p = path
  if distinct then p = p .. "&nocache=" .. math.random(1000000000) end
  return wrk.format("GET", p, h)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("LOADGEN %%d %%d %%d %%d %%d %%d %%d\n", summary.requests, summary.duration,
    e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`

// Run runs wrk once. Every answer must be 2xx: any error fails the run.
func Run(ctx context.Context, l Load) (Result, error) {
	i := strings.Index(l.URL[len("http://"):], "/")
	if !strings.HasPrefix(l.URL, "http://") || i < 0 {
		return Result{}, fmt.Errorf("loadgen: bad URL %q", l.URL)
	}
	base, path := l.URL[:len("http://")+i], l.URL[len("http://")+i:]
	quoted := make([]string, len(l.Cookies))
	for k, c := range l.Cookies {
		quoted[k] = strconv.Quote(c)
	}
	dir, err := os.MkdirTemp("", "loadgen")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	lua := filepath.Join(dir, "load.lua")
	if err := os.WriteFile(lua, fmt.Appendf(nil, script, strings.Join(quoted, ","), path, l.Distinct), 0o600); err != nil {
		return Result{}, err
	}
	cmd := exec.CommandContext(ctx, "wrk", "-t", strconv.Itoa(max(1, l.Threads)), "-c", strconv.Itoa(l.Connections),
		"-d", strconv.Itoa(int(l.Duration.Seconds()))+"s", "--timeout", "5s", "-s", lua, base)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return Result{}, fmt.Errorf("wrk: %w: %s", err, stderr.String())
	}
	for line := range strings.Lines(out.String()) {
		f := strings.Fields(line)
		if len(f) != 8 || f[0] != "LOADGEN" {
			continue
		}
		var v [7]int64
		for k := range v {
			v[k], err = strconv.ParseInt(f[k+1], 10, 64)
			if err != nil {
				return Result{}, fmt.Errorf("wrk output %q: %w", line, err)
			}
		}
		if v[2] != 0 || v[3] != 0 {
			return Result{}, fmt.Errorf("wrk %s: %d socket errors, %d non-2xx answers", l.URL, v[2], v[3])
		}
		us := func(x int64) time.Duration { return time.Duration(x) * time.Microsecond }
		return Result{Requests: int(v[0]), Elapsed: us(v[1]), P50: us(v[4]), P95: us(v[5]), P99: us(v[6])}, nil
	}
	return Result{}, fmt.Errorf("wrk: no result in its output: %s", out.String())
}

// Median returns the run with the median value of key.
func Median[T any](runs []T, key func(T) float64) T {
	s := slices.Clone(runs)
	slices.SortFunc(s, func(a, b T) int {
		switch ka, kb := key(a), key(b); {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	return s[len(s)/2]
}

// RSS samples the resident memory of a process (VmRSS) until stopped and
// returns the largest sample.
type RSS struct {
	mu   sync.Mutex
	max  int64
	stop chan struct{}
	done chan struct{}
}

// WatchRSS starts sampling pid every 50 ms.
func WatchRSS(pid int) *RSS {
	w := &RSS{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if v, err := ReadRSS(pid); err == nil {
				w.mu.Lock()
				w.max = max(w.max, v)
				w.mu.Unlock()
			}
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// Stop ends sampling and returns the peak in bytes.
func (w *RSS) Stop() int64 {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.max
}

// ReadRSS returns VmRSS of pid in bytes (Linux).
func ReadRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024, err
			}
		}
	}
	return 0, errors.New("no VmRSS")
}

// WriteSection replaces the text between <!-- bench:name --> and
// <!-- /bench:name --> in path, appending the section when missing.
func WriteSection(path, name, body string) error {
	begin, end := "<!-- bench:"+name+" -->", "<!-- /bench:"+name+" -->"
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	doc := string(old)
	if doc == "" {
		doc = "# Benchmarks\n\nFigures written by `make bench`; each section belongs to one benchmark.\n"
	}
	block := begin + "\n" + strings.TrimRight(body, "\n") + "\n" + end
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i >= 0 && j > i {
		doc = doc[:i] + block + doc[j+len(end):]
	} else {
		doc = strings.TrimRight(doc, "\n") + "\n\n" + block + "\n"
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}

// Machine describes the conditions of a run: CPU count and load average.
func Machine() string {
	load := "?"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 3 {
			load = strings.Join(f[:3], " ")
		}
	}
	return fmt.Sprintf("load average before the run %s", load)
}

// Load1 is the machine's 1-minute load average (-1 when unknown).
func Load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// WaitSettled waits, at most max, until the 1-minute load average is
// below below: a measurement of absolute throughput (purchases per
// second) taken right after heavy work (a seeding, the last engine's
// run) measures that work's tail too. It returns the load it ends at.
func WaitSettled(below float64, max time.Duration) float64 {
	deadline := time.Now().Add(max)
	for {
		l := Load1()
		if l < below || time.Now().After(deadline) {
			return l
		}
		time.Sleep(2 * time.Second)
	}
}
