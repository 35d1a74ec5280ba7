// Command benchpayments measures the payment engine for `make bench`: the
// real server (bin/members serve, a child process, with its in-process
// sandbox gateway) on a fresh database, 64 members each buying points
// with a card over and over (POST …/buy then …/continue, which authorises,
// captures and grants in the settlement transaction), while one more
// member checks its session (GET /api/session) in a loop. It reports
// settled purchases per second, the p50/p99 of a purchase and of the
// session check under that load, and the doubled grants found afterwards
// (vouchers per process, captured gateway payments per process: both must
// be one), in the "Payments" section of BENCHMARKS.md. SQLite always;
// PostgreSQL when reachable (schema bench_payments).
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"members/deploy"
	"members/internal/app"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/loadgen"
	"members/internal/store"

	_ "github.com/jackc/pgx/v5/stdlib"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchpayments:", err)
		os.Exit(1)
	}
}

type options struct {
	buyers int
	dur    time.Duration
	bin    string
	// cpuprofile: a CPU profile of the server per engine (<file>.<engine>)
	cpuprofile string
	extra      []string // more serve flags
	// cluster: also PostgreSQL with two instances behind nginx and the
	// sandbox gateway on its own (deploy/), beside one instance
	cluster bool
}

type result struct {
	engine                 string
	settled, failed        int64
	elapsed                time.Duration
	buyP50, buyP99         time.Duration
	sessP50, sessP99       time.Duration
	sessions               int
	doubledGrants, doubled int
	missing                int
	cpu                    time.Duration // the server's CPU time over the run
	clientCPU              time.Duration // the load generator's (this process's) CPU time over the load
	load                   string        // load average just before the run
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
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &k)
	return time.Duration(u+k) * 10 * time.Millisecond
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchpayments", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.buyers, "buyers", 64, "concurrent buyers (members)")
	fs.DurationVar(&o.dur, "d", 15*time.Second, "duration of the load")
	fs.StringVar(&o.bin, "bin", "bin/members", "the server binary")
	pg := loadgen.PostgresFlag(fs)
	out := fs.String("out", "BENCHMARKS.md", "report file")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the server to FILE.<engine>")
	fs.BoolVar(&o.cluster, "cluster", true, "with PostgreSQL: also two instances behind nginx (deploy/; needs nginx), the gateway on its own")
	compare := fs.String("compare", "", "also run SQLite with this older server binary first, for a before/after in one run")
	compareLabel := fs.String("compare-label", "before", "the older binary's name in the report")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "benchpayments-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var results []result
	if *compare != "" {
		old := o
		old.bin, old.cpuprofile = *compare, ""
		r, err := bench("sqlite ("+*compareLabel+")", "sqlite:"+filepath.Join(dir, "before.db"), old)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	r, err := bench("sqlite", "sqlite:"+filepath.Join(dir, "bench.db"), o)
	if err != nil {
		return err
	}
	results = append(results, r)
	if *pg != "" {
		if dsn, err := loadgen.FreshSchema(*pg, "bench_payments"); err == nil {
			r, err := bench("postgres", dsn, o)
			if err != nil {
				return err
			}
			results = append(results, r)
			if o.cluster {
				r, err := benchCluster(*pg, dir, o)
				if err != nil {
					return err
				}
				if r != nil {
					results = append(results, *r)
				}
			}
		} else {
			fmt.Fprintln(os.Stderr, "benchpayments: PostgreSQL skipped:", err)
		}
	}
	return write(*out, results, o)
}

// prepare makes the members and their sessions directly in the database.
func prepare(ctx context.Context, dsn string, n int) ([]string, error) {
	a, err := app.Open(ctx, app.Options{DSN: dsn})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	hash, err := a.Auth.Hasher().Hash(demo.Password)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if err := demo.SeedBench(ctx, a.DB, hash, n, 0, 0, now, nil); err != nil {
		return nil, err
	}
	st := store.NewAuthStore(a.DB)
	var tokens []string
	for i := range n {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		tok := hex.EncodeToString(b)
		if err := st.CreateSession(ctx, auth.Session{IDHash: auth.HashToken(tok), MemberID: demo.BenchMemberID(i), LogID: tok[:16],
			CreatedAt: now, LastSeenAt: now, ClientAddr: "127.0.0.1", UserAgent: "benchpayments"}); err != nil {
			return nil, err
		}
		tokens = append(tokens, tok)
	}
	return tokens, nil
}

// client is one member's browser.
type client struct {
	base, cookie, csrf string
	http               *http.Client
}

func (c *client) do(method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Cookie", "members_session="+c.cookie)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Lang", "en")
	if c.csrf != "" {
		req.Header.Set("X-Csrf-Token", c.csrf)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// target is what the buyers load: one server with its in-process
// gateway, or the cluster.
type target struct {
	base, gateway string // the members site; the gateway's base (…/gateway)
	gwDSN         string // where the gateway's tables are
	pids          []int  // the processes whose CPU is the server's
	stop          func() // SIGTERM (a profiling server writes its profile)
}

func bench(engine, dsn string, o options) (result, error) {
	ctx := context.Background()
	tokens, err := prepare(ctx, dsn, o.buyers+1)
	if err != nil {
		return result{}, fmt.Errorf("%s: prepare: %w", engine, err)
	}
	addr, err := loadgen.FreeAddr()
	if err != nil {
		return result{}, err
	}
	base := "http://" + addr
	sargs := []string{"serve", "--addr", addr, "--db", dsn, "--gateway-sandbox"}
	if o.cpuprofile != "" {
		sargs = append(sargs, "--cpuprofile", o.cpuprofile+"."+strings.Fields(engine)[0])
	}
	srv := exec.Command(o.bin, append(sargs, o.extra...)...) // #nosec G204 -- the bench's own server binary
	srv.Env = append(os.Environ(), "MEMBERS_PUBLIC_URL="+base)
	var log bytes.Buffer
	srv.Stdout, srv.Stderr = &log, &log
	if err := srv.Start(); err != nil {
		return result{}, fmt.Errorf("start %s: %w", o.bin, err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	httpc := &http.Client{Timeout: 30 * time.Second}
	for deadline := time.Now().Add(30 * time.Second); ; {
		if res, err := httpc.Get(base + "/api/csrf_token"); err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			return result{}, fmt.Errorf("server did not start: %s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return load(ctx, engine, tokens, target{base: base, gateway: base + "/gateway", gwDSN: dsn, pids: []int{srv.Process.Pid},
		stop: func() { _ = srv.Process.Signal(syscall.SIGTERM); _ = srv.Wait() }}, dsn, o)
}

// benchCluster runs the same load through nginx in front of two
// instances on PostgreSQL, with the sandbox gateway as a process of its
// own (deploy/); nil when nginx is not installed.
func benchCluster(pg, dir string, o options) (*result, error) {
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			fmt.Fprintln(os.Stderr, "benchpayments: two instances skipped: nginx is not installed (apt-get install nginx)")
			return nil, nil
		}
		nginx = "/usr/sbin/nginx"
	}
	dsn, err := loadgen.FreshSchema(pg, "bench_payments_cluster")
	if err != nil {
		return nil, err
	}
	gwDSN, err := loadgen.FreshSchema(pg, "bench_payments_cluster_gateway")
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	const engine = "postgres, 2 instances behind nginx"
	tokens, err := prepare(ctx, dsn, o.buyers+1)
	if err != nil {
		return nil, fmt.Errorf("%s: prepare: %w", engine, err)
	}
	c, err := deploy.Start(ctx, deploy.Options{Bin: o.bin, Nginx: nginx, DSN: dsn, GatewayDSN: gwDSN,
		Dir: filepath.Join(dir, "cluster"), Serve: o.extra})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	r, err := load(ctx, engine, tokens, target{base: c.ProxyURL, gateway: c.GatewayURL, gwDSN: gwDSN, pids: c.Pids(), stop: c.Close}, dsn, o)
	return &r, err
}

// load runs the buyers and the session checker against t, then counts
// doubled grants, doubled charges (against the gateway's tables) and lost
// goods.
func load(ctx context.Context, engine string, tokens []string, t target, dsn string, o options) (result, error) {
	base := t.base
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	clients := make([]*client, len(tokens))
	cardTokens := make([]string, len(tokens))
	for i, tok := range tokens {
		c := &client{base: base, cookie: tok, http: httpc}
		_, b, err := c.do("GET", "/api/csrf_token", nil)
		if err != nil {
			return result{}, err
		}
		var v struct{ CsrfToken string }
		_ = json.Unmarshal(b, &v)
		c.csrf = v.CsrfToken
		clients[i] = c
		card, _ := json.Marshal(map[string]string{"cardNumber": "4242424242424242", "expirationDate": "35/01", "cvv": "123", "holderName": "BENCH MEMBER"})
		res, err := httpc.Post(t.gateway+"/v1/tokens", "application/json", bytes.NewReader(card))
		if err != nil {
			return result{}, err
		}
		var t struct{ Token string }
		_ = json.NewDecoder(res.Body).Decode(&t)
		res.Body.Close()
		cardTokens[i] = t.Token
	}

	// The last engine's run (or the bookings benchmark's seeding before
	// this command) leaves the machine busy for a while: purchases per
	// second are measured from a settled machine, as Lighthouse's are.
	load := fmt.Sprintf("%.2f", loadgen.WaitSettled(settledLoad, 3*time.Minute))
	cpu0 := selfCPU()
	var settled, failed atomic.Int64
	var mu sync.Mutex
	var buyLat, sessLat []time.Duration
	stop := make(chan struct{})
	var wg sync.WaitGroup
	start := time.Now()
	for i := range o.buyers {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := clients[i]
			var local []time.Duration
			for n := 0; ; n++ {
				select {
				case <-stop:
					mu.Lock()
					buyLat = append(buyLat, local...)
					mu.Unlock()
					return
				default:
				}
				t0 := time.Now()
				code, b, err := c.do("POST", "/api/peachpoints/buy", map[string]any{
					"nominee": "BENCH MEMBER", "currencyCode": "JPY", "amount": 1000, "paymentMethod": "creditCard",
					"creditCardToken": cardTokens[i], "requestId": fmt.Sprintf("b%d-%d", i, n),
				})
				if err != nil || code != 200 {
					failed.Add(1)
					continue
				}
				var p struct{ PaymentProcessID string }
				_ = json.Unmarshal(b, &p)
				code, b, err = c.do("POST", "/api/peachpoints/buy/"+p.PaymentProcessID+"/continue", nil)
				var st struct{ Status string }
				_ = json.Unmarshal(b, &st)
				if err != nil || code != 200 || st.Status != "settled" {
					failed.Add(1)
					continue
				}
				settled.Add(1)
				local = append(local, time.Since(t0))
			}
		}(i)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		c := clients[o.buyers]
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			code, _, err := c.do("GET", "/api/session", nil)
			if err == nil && code == 204 {
				mu.Lock()
				sessLat = append(sessLat, time.Since(t0))
				mu.Unlock()
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	time.Sleep(o.dur)
	close(stop)
	wg.Wait()
	elapsed := time.Since(start)
	r := result{engine: engine, settled: settled.Load(), failed: failed.Load(), elapsed: elapsed, sessions: len(sessLat),
		clientCPU: selfCPU() - cpu0, load: load}
	r.buyP50, r.buyP99 = pct(buyLat, 50), pct(buyLat, 99)
	r.sessP50, r.sessP99 = pct(sessLat, 50), pct(sessLat, 99)
	time.Sleep(2 * time.Second) // webhooks still in flight settle nothing new, but let them land
	for _, pid := range t.pids {
		r.cpu += cpuTime(pid)
	}
	// SIGTERM: a profiling server writes its profile on shutdown
	t.stop()

	db, err := store.Open(ctx, dsn)
	if err != nil {
		return r, err
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT COUNT(*) FROM (SELECT payment_process_id FROM point_vouchers WHERE payment_process_id IS NOT NULL
		GROUP BY payment_process_id HAVING COUNT(*) > 1) d`).Scan(&r.doubledGrants); err != nil {
		return r, err
	}
	gw, err := store.Open(ctx, t.gwDSN)
	if err != nil {
		return r, err
	}
	defer gw.Close()
	if err := gw.QueryRow(`SELECT COUNT(*) FROM (SELECT reference FROM gw_payments WHERE status IN ('captured', 'refunded')
		GROUP BY reference HAVING COUNT(*) > 1) d`).Scan(&r.doubled); err != nil {
		return r, err
	}
	// settled processes without their voucher (lost goods)
	if err := db.QueryRow(`SELECT COUNT(*) FROM payment_processes p WHERE p.status = 'settled'
		AND NOT EXISTS (SELECT 1 FROM point_vouchers v WHERE v.payment_process_id = p.id)`).Scan(&r.missing); err != nil {
		return r, err
	}
	fmt.Printf("%s: %d settled in %s (%.0f/s), %d failed, purchase p50 %s p99 %s, session p99 %s, doubled grants %d, doubled charges %d, lost %d, server CPU %s (%s per purchase), client CPU %s per purchase, load %s\n",
		engine, r.settled, elapsed.Round(time.Millisecond), float64(r.settled)/elapsed.Seconds(), r.failed, r.buyP50, r.buyP99, r.sessP99,
		r.doubledGrants, r.doubled, r.missing, r.cpu, r.cpuPer(), per(r.clientCPU, r.settled), r.load)
	return r, nil
}

func (r result) cpuPer() time.Duration { return per(r.cpu, r.settled) }

func per(d time.Duration, n int64) time.Duration {
	if n == 0 {
		return 0
	}
	return (d / time.Duration(n)).Round(100 * time.Microsecond)
}

// selfCPU is this process's user and system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// settledLoad is the 1-minute load average below which a run starts
// (it waits at most 3 minutes for it).
const settledLoad = 1.5

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[min(i, len(s)-1)].Round(100 * time.Microsecond)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func write(path string, rs []result, o options) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Payments\n\n`go run ./cmd/benchpayments` (part of `make bench`): the real server (`bin/members serve`, a child process, with\n")
	fmt.Fprintf(&b, "its in-process sandbox gateway) on a fresh database; %d members each buy JPY 1,000 of points with a card,\n", o.buyers)
	fmt.Fprintf(&b, "one purchase after another for %s (`POST /api/peachpoints/buy`, then `…/continue`, which creates the payment and\n", o.dur)
	b.WriteString("authorises it with automatic capture at the gateway over HTTP with idempotency keys and grants the voucher in the settlement transaction),\n")
	b.WriteString("while one more member checks its session (`GET /api/session`) every 5 ms. Afterwards the database is searched\n")
	b.WriteString("for a process with two vouchers, a process with two captured gateway payments, and a settled process without its voucher.\n")
	b.WriteString("CPU is read from /proc (server) and getrusage (the load generator, a separate process); the load average is the machine's,\n")
	fmt.Fprintf(&b, "shared with other work: CPU per purchase is the stable figure, purchases/s depends on what else runs. Each run starts once the\n")
	fmt.Fprintf(&b, "1-minute load average is below %.1f, waiting at most 3 minutes (the load average column: where it started).\n", settledLoad)
	b.WriteString("\"2 instances behind nginx\" is the same load on PostgreSQL through `deploy/nginx.conf` in front of two `members serve`, with the\n")
	b.WriteString("sandbox gateway as a process of its own (`members gateway`, its tables in a schema of their own) as a real provider would be;\n")
	b.WriteString("its server CPU is the instances', the gateway's and nginx's master's (not its worker's).\n\n")
	b.WriteString("| engine | load average (1 min) before | settled purchases/s | purchase p50 | purchase p99 | failed | session check p50 | session check p99 | doubled grants | doubled charges | lost goods | server CPU per purchase | load generator CPU per purchase |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | %s | %.0f | %s | %s | %d | %s | %s | %d | %d | %d | %s | %s |\n", r.engine, r.load, float64(r.settled)/r.elapsed.Seconds(),
			ms(r.buyP50), ms(r.buyP99), r.failed, ms(r.sessP50), ms(r.sessP99), r.doubledGrants, r.doubled, r.missing, ms(r.cpuPer()), ms(per(r.clientCPU, r.settled)))
	}
	fmt.Fprintf(&b, "\nMachine: %s. Target: at least 200 settled purchases/s on SQLite and on PostgreSQL, session check p99 below 50 ms, 0 doubled grants.\n", loadgen.Machine())
	for _, r := range rs {
		if (r.engine == "sqlite" || r.engine == "postgres") && float64(r.settled)/r.elapsed.Seconds() < 200 {
			both := r.cpuPer() + per(r.clientCPU, r.settled)
			fmt.Fprintf(&b, "\n**Throughput target not met in this run on %s.** The server spent %s of CPU per settled purchase and the load generator %s;\n",
				r.engine, ms(r.cpuPer()), ms(per(r.clientCPU, r.settled)))
			if both > 0 {
				fmt.Fprintf(&b, "at that cost the %d cores of this machine, with nothing else running, would carry at most %.0f purchases/s (server and load generator\n",
					runtime.NumCPU(), float64(runtime.NumCPU())*float64(time.Second)/float64(both))
				fmt.Fprintf(&b, "together), and the run shared them at a load average of %s. Where the CPU goes: docs/speed.md, \"Server\", the rows on payments.\n", r.load)
			}
		}
		if r.engine == "sqlite" && r.sessP99 >= 50*time.Millisecond {
			fmt.Fprintf(&b, "\n**Session check p99 target not met in this run** (%s): the check waits for CPU behind the purchases and everything else on the machine.\n", ms(r.sessP99))
		}
	}
	return loadgen.WriteSection(path, "payments", b.String())
}
