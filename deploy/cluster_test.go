package deploy

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/store"
	"members/internal/testtool"
)

// schemaDSN makes a fresh schema on the test PostgreSQL server, dropped
// when the test ends, and returns its DSN.
func schemaDSN(t *testing.T, admin *sql.DB, prefix string) string {
	t.Helper()
	schema := prefix + strings.ToLower(store.NewID()[:12])
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
	u, err := url.Parse(apitest.PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// client is one member's browser through the proxy.
type client struct {
	*apitest.Remote
}

// newClient is a member at address xff, as nginx receives it.
func newClient(xff string) *client {
	c := &client{apitest.NewRemote()}
	if xff != "" {
		c.Header.Set("X-Forwarded-For", xff)
	}
	return c
}

// from makes the client connect from a loopback address of its own, as
// a member at another address would reach the proxy.
func (c *client) from(ip string) *client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c.HTTP.Transport = &http.Transport{DialContext: d.DialContext}
	return c
}

// do sends one call to base+path; status 0 is a transport error.
func (c *client) do(method, base, path string, body any) (int, map[string]any) {
	return c.Do(method, base+path, body)
}

// counter sums a metric's samples whose line contains match on an
// instance's /metrics.
func counter(t *testing.T, metricsAddr, name, match string) float64 {
	t.Helper()
	res, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var sum float64
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, name+"{") && strings.Contains(line, match) {
			var v float64
			_, _ = fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &v)
			sum += v
		}
	}
	return sum
}

// load is buyers purchasing points with a card through the proxy until
// stopped: tokenise at the gateway, buy, continue.
type load struct {
	proxy, gateway string
	buyers         []*client
	stop           atomic.Bool
	wg             sync.WaitGroup
	ok, refused    atomic.Int64
	mu             sync.Mutex
	failures       []string
}

func (l *load) run() {
	for i, b := range l.buyers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for n := 0; !l.stop.Load(); n++ {
				l.purchase(b, fmt.Sprintf("cl-%d-%d-%d", i, n, time.Now().UnixNano()))
			}
		}()
	}
}

// waitPurchases waits until the load has made n purchases in all.
func (l *load) waitPurchases(t *testing.T, n int64, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for l.ok.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the load made %d purchases in %s, want %d", l.ok.Load(), within, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (l *load) fail(what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures = append(l.failures, what)
}

func (l *load) purchase(b *client, requestID string) {
	card, _ := json.Marshal(map[string]string{"cardNumber": "4242424242424242", "expirationDate": "35/01", "cvv": "123", "holderName": "TARO PEACH"})
	req, _ := http.NewRequest("POST", l.gateway+"/v1/tokens", bytes.NewReader(card))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", b.Header.Get("X-Forwarded-For"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.fail("tokenise: " + err.Error())
		return
	}
	var tok struct{ Token string }
	_ = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if tok.Token == "" {
		l.fail(fmt.Sprintf("tokenise: %d", res.StatusCode))
		return
	}
	code, p := b.do("POST", l.proxy, "/api/peachpoints/buy", map[string]any{
		"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 3000, "paymentMethod": "creditCard",
		"creditCardToken": tok.Token, "requestId": requestID,
	})
	switch {
	case code == http.StatusConflict:
		// an earlier purchase of this member is still pending (its
		// instance was killed): not an error of the proxy
		l.refused.Add(1)
		time.Sleep(200 * time.Millisecond)
		return
	case code != http.StatusOK:
		l.fail(fmt.Sprintf("buy: %d %v", code, p))
		return
	}
	id, _ := p["paymentProcessId"].(string)
	code, p = b.do("POST", l.proxy, "/api/peachpoints/buy/"+id+"/continue", nil)
	if code != http.StatusOK {
		l.fail(fmt.Sprintf("continue: %d %v", code, p))
		return
	}
	l.ok.Add(1)
}

func (l *load) finish() []string {
	l.stop.Store(true)
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.failures
}

// TestCluster runs two real instances on one PostgreSQL database behind
// nginx (deploy/nginx.conf) with the sandbox gateway on its own: a member
// lands on both instances, a logout on one ends the session on both, a
// kill -9 of one instance under 64 buyers doubles no charge and loses no
// goods (counted against the gateway's records), a rolling restart under
// load loses no request, and the background work runs once.
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx and three servers")
	}
	nginx := testtool.Path(t, "nginx", "apt-get install nginx", "/usr/sbin/nginx")
	admin, err := sql.Open("pgx", apitest.PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if err := admin.Ping(); err != nil {
		t.Skipf("PostgreSQL unreachable: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "members")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/members").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dsn, gwDSN := schemaDSN(t, admin, "cluster_"), schemaDSN(t, admin, "cluster_gw_")
	ctx := context.Background()
	started := time.Now()
	c, err := Start(ctx, Options{Bin: bin, Nginx: nginx, DSN: dsn, GatewayDSN: gwDSN, Dir: filepath.Join(dir, "cluster"), Demo: true,
		// a request's lease on a purchase lasts 4 gateway calls: short, so
		// the survivor of a kill takes the purchases over within the test
		Serve: []string{"--gateway-timeout", "2s", "--shutdown-grace", "15s"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	defer func() {
		if t.Failed() {
			for i := range c.Instances {
				t.Logf("instance %d:\n%s", i, c.Log(i))
			}
			t.Logf("nginx errors:\n%s", c.ProxyErrors())
		}
	}()
	t.Logf("cluster up in %s", time.Since(started).Round(time.Millisecond))

	// A member logs in through the proxy and lands on both instances. It
	// connects from 127.0.0.55 and claims another address in
	// X-Forwarded-For, which the proxy, the edge, replaces.
	m := newClient("203.0.113.10").from("127.0.0.55")
	if code, p := m.do("POST", c.ProxyURL, "/api/session", map[string]string{"email": demo.Email1, "password": demo.Password}); code != http.StatusNoContent {
		t.Fatalf("login through the proxy: %d %v", code, p)
	}
	for range 10 {
		if code, _ := m.do("GET", c.ProxyURL, "/api/session", nil); code != http.StatusNoContent {
			t.Fatalf("session through the proxy: %d", code)
		}
	}
	for _, in := range c.Instances {
		if n := counter(t, in.MetricsAddr, "members_http_requests_total", `route="GET /api/session"`); n < 3 {
			t.Errorf("instance %s served %v of 10 session checks", in.Name, n)
		}
	}
	// The proxy passes the member's address (the instances trust it
	// with --trusted-proxies), not the one the member claimed.
	var addrs []string
	rows, err := admin.Query(`SELECT client_addr FROM ` + schemaOf(dsn) + `.sessions`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		_ = rows.Scan(&a)
		addrs = append(addrs, a)
	}
	rows.Close()
	if len(addrs) != 1 || addrs[0] != "127.0.0.55" {
		t.Errorf("sessions' addresses %v, want the member's own [127.0.0.55] (X-Forwarded-For from the proxy)", addrs)
	}

	// A logout on one instance ends the session on the other at once.
	a, b := "http://"+c.Instances[0].Addr, "http://"+c.Instances[1].Addr
	for _, base := range []string{a, b} {
		if code, _ := m.do("GET", base, "/api/session", nil); code != http.StatusNoContent {
			t.Fatalf("session at %s: %d", base, code)
		}
	}
	if code, _ := m.do("DELETE", a, "/api/session", nil); code != http.StatusNoContent {
		t.Fatalf("logout at instance a: %d", code)
	}
	if code, _ := m.do("GET", b, "/api/session", nil); code == http.StatusNoContent {
		t.Error("the session logged out on instance a still works on instance b")
	}

	// A remote sign-out at one instance ends the other session at the
	// other instance; so does a password change.
	login := func(ip string) *client {
		t.Helper()
		cl := newClient("").from(ip)
		if code, p := cl.do("POST", c.ProxyURL, "/api/session", map[string]string{"email": demo.Email2, "password": demo.Password}); code != http.StatusNoContent {
			t.Fatalf("login from %s: %d %v", ip, code, p)
		}
		return cl
	}
	first, second := login("127.0.0.56"), login("127.0.0.57")
	if code, _ := first.do("DELETE", a, "/api/security/sessions", nil); code != http.StatusNoContent {
		t.Fatalf("sign out the other sessions at instance a: %d", code)
	}
	if code, _ := second.do("GET", b, "/api/session", nil); code == http.StatusNoContent {
		t.Error("a session signed out remotely at instance a still works on instance b")
	}
	third := login("127.0.0.58")
	const newPassword = "Cluster5678"
	if code, p := first.do("PUT", b, "/api/user/password", map[string]string{
		"passwordOld": demo.Password, "passwordNew": newPassword, "passwordReenter": newPassword}); code != http.StatusOK {
		t.Fatalf("password change at instance b: %d %v", code, p)
	}
	if code, _ := third.do("GET", a, "/api/session", nil); code == http.StatusNoContent {
		t.Error("a session ended by a password change at instance b still works on instance a")
	}
	if code, _ := first.do("GET", a, "/api/session", nil); code != http.StatusNoContent {
		t.Errorf("the session that changed the password: %d at instance a, want it kept", code)
	}

	// 64 buyers with sessions of their own (the payments benchmark's
	// number).
	buyers := seedBuyers(t, ctx, dsn, 64, c.ProxyURL)
	l := &load{proxy: c.ProxyURL, gateway: c.GatewayURL, buyers: buyers}

	// kill -9 of instance a under load
	l.run()
	l.waitPurchases(t, 20, time.Minute) // the load runs through both instances
	c.Kill(0)
	// the proxy has taken purchases to the other instance since the kill
	l.waitPurchases(t, l.ok.Load()+20, time.Minute)
	failures := l.finish()
	t.Logf("kill -9: %d purchases, %d refused as pending, %d failed", l.ok.Load(), l.refused.Load(), len(failures))
	if len(failures) > len(buyers) {
		t.Errorf("%d requests failed around the kill, more than the %d in flight: %v", len(failures), len(buyers), failures[:min(len(failures), 10)])
	}
	if l.ok.Load() < 20 {
		t.Errorf("only %d purchases", l.ok.Load())
	}
	if err := c.StartInstance(ctx, 0); err != nil {
		t.Fatal(err)
	}

	// A rolling restart under load loses no request. Before an instance
	// stops, the other takes requests through the proxy again: nginx
	// leaves an instance it saw fail alone for fail_timeout, and stopping
	// the other one within it would leave nginx none to send to.
	l2 := &load{proxy: c.ProxyURL, gateway: c.GatewayURL, buyers: buyers}
	l2.run()
	for i := range c.Instances {
		if err := c.WaitTraffic(ctx, 1-i, 3*FailTimeout); err != nil {
			t.Fatal(err)
		}
		if err := c.Stop(i, 20*time.Second); err != nil {
			t.Errorf("instance %d after SIGTERM: %v", i, err)
		}
		if err := c.StartInstance(ctx, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.WaitTraffic(ctx, 1, 3*FailTimeout); err != nil {
		t.Fatal(err)
	}
	// purchases go through after the last instance came back
	l2.waitPurchases(t, l2.ok.Load()+10, time.Minute)
	failures = l2.finish()
	t.Logf("rolling restart: %d purchases, %d refused as pending, %d failed", l2.ok.Load(), l2.refused.Load(), len(failures))
	if len(failures) > 0 {
		t.Errorf("%d requests lost in the rolling restart: %v", len(failures), failures[:min(len(failures), 10)])
	}

	checkPurchases(t, admin, schemaOf(dsn), schemaOf(gwDSN))
	t.Logf("cluster test took %s", time.Since(started).Round(time.Millisecond))
}

func schemaOf(dsn string) string {
	u, _ := url.Parse(dsn)
	return u.Query().Get("search_path")
}

// seedBuyers makes n members with a session each (directly in the
// database) and returns their clients through the proxy.
func seedBuyers(t *testing.T, ctx context.Context, dsn string, n int, proxy string) []*client {
	t.Helper()
	a, err := app.Open(ctx, app.Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	now := time.Now()
	if err := demo.SeedBench(ctx, a.DB, "x", n, 0, 0, now, nil); err != nil {
		t.Fatal(err)
	}
	st := store.NewAuthStore(a.DB)
	u, _ := url.Parse(proxy)
	var out []*client
	for i := range n {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		tok := hex.EncodeToString(b)
		if err := st.CreateSession(ctx, auth.Session{IDHash: auth.HashToken(tok), MemberID: demo.BenchMemberID(i), LogID: tok[:16],
			CreatedAt: now, LastSeenAt: now, ClientAddr: "127.0.0.1", UserAgent: "cluster-test"}); err != nil {
			t.Fatal(err)
		}
		cl := newClient(fmt.Sprintf("198.51.100.%d", i+1))
		cl.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: "members_session", Value: tok, Path: "/"}})
		out = append(out, cl)
	}
	return out
}

// checkPurchases waits until no purchase is pending (the background work
// of the surviving instances finishes the killed one's), then counts
// every process against the gateway's records: at most one capture per
// process, one voucher per settled process and none otherwise, no capture
// left without goods, and no more purchase mails than settled processes
// (the background work ran once across the instances).
func checkPurchases(t *testing.T, db *sql.DB, schema, gwSchema string) {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		var pending int
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + schema + `.payment_processes WHERE status = 'pending'`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d purchases still pending 40 s after the load", pending)
		}
		time.Sleep(500 * time.Millisecond)
	}
	rows, err := db.Query(`SELECT p.id, p.status,
		(SELECT COUNT(*) FROM ` + schema + `.point_vouchers v WHERE v.payment_process_id = p.id),
		(SELECT COUNT(*) FROM ` + gwSchema + `.gw_payments g WHERE g.reference = p.id AND g.status = 'captured'),
		(SELECT COUNT(*) FROM ` + gwSchema + `.gw_payments g WHERE g.reference = p.id)
		FROM ` + schema + `.payment_processes p`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	states := map[string]int{}
	doubled, lost, stray := 0, 0, 0
	for rows.Next() {
		var id, status string
		var vouchers, captured, payments int
		if err := rows.Scan(&id, &status, &vouchers, &captured, &payments); err != nil {
			t.Fatal(err)
		}
		states[status]++
		switch {
		case captured > 1 || payments > 1 || vouchers > 1:
			doubled++
			t.Errorf("process %s (%s): %d vouchers, %d captured of %d gateway payments", id, status, vouchers, captured, payments)
		case status == "settled" && (vouchers != 1 || captured != 1):
			lost++
			t.Errorf("settled process %s: %d vouchers, %d captured", id, vouchers, captured)
		case status != "settled" && status != "refunded" && (vouchers != 0 || captured != 0):
			stray++
			t.Errorf("%s process %s: %d vouchers, %d captured", status, id, vouchers, captured)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var mails, notNotified int
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + schema + `.mail_outbox WHERE kind = 'points_issued'`).Scan(&mails); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + schema + `.payment_processes WHERE status = 'settled' AND notified = FALSE`).Scan(&notNotified); err != nil {
		t.Fatal(err)
	}
	t.Logf("processes by state %v; %d doubled, %d lost, %d stray; %d purchase mails, %d settled not notified", states, doubled, lost, stray, mails, notNotified)
	if states["settled"] == 0 {
		t.Error("nothing settled")
	}
	// A purchase the killed instance settled but had not yet marked as
	// mailed is mailed by the background work a minute later (at least
	// once): until then it is owed, never doubled by the two instances.
	if settled := states["settled"]; mails > settled || mails < settled-notNotified {
		t.Errorf("%d purchase mails for %d settled purchases (%d still owed): the notification ran other than once", mails, settled, notNotified)
	}
}
