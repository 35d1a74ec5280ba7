package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// The tests that run the real binary (the crash tests, the graceful
// shutdown, the card numbers never stored) share what is here: the binary
// built once per test run, a server on one database and address that a
// test starts, kills with SIGKILL and restarts, and a logged-in member.

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// membersBinary builds cmd/members once per test run.
func membersBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "members-crash-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "members")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// realServer is `members serve --demo` of the real binary on one database
// and address: every start (the first, each restart) uses both, so a
// restart finds what the killed run left.
type realServer struct {
	t    *testing.T
	bin  string
	dsn  string
	addr string
	args []string // flags of every start, after the defaults
	live bool     // started without --demo, as in production
	// out is the log of every run so far, one after the other.
	out  *apitest.LogBuffer
	from int // where the current run's log starts in out
	cmd  *exec.Cmd
	done chan error // the current run's exit
}

// startServer builds the binary, starts it on dsn at a free address and
// kills it when the test ends. The gateway's slow card answers after 3 s
// and the server gives up on a gateway call after 1 s (extra flags may
// say otherwise: the last one given wins).
func startServer(t *testing.T, dsn string, extra ...string) *realServer {
	t.Helper()
	s := newServer(t, dsn, extra...)
	s.start()
	t.Cleanup(s.kill)
	return s
}

// newServer is startServer's server before it starts, for a test that
// needs its address first (a gateway stand-in that calls it back).
func newServer(t *testing.T, dsn string, extra ...string) *realServer {
	t.Helper()
	return &realServer{t: t, bin: membersBinary(t), dsn: dsn, addr: freeAddr(t), args: extra, out: &apitest.LogBuffer{}}
}

// forEachServer runs fn on each engine against the real server started
// (startServer) on a fresh database of it with the extra flags; not in
// -short mode, as it builds and runs the server.
func forEachServer(t *testing.T, extra []string, fn func(t *testing.T, engine store.Engine, srv *realServer)) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		fn(t, engine, startServer(t, apitest.DSN(t, engine), extra...))
	})
}

// base is the server's URL.
func (s *realServer) base() string { return "http://" + s.addr }

// start runs the server with env added to the environment and waits until
// it listens.
func (s *realServer) start(env ...string) {
	s.t.Helper()
	args := append([]string{"serve", "--demo", "--addr", s.addr, "--db", s.dsn, "--gateway-slow", "3s", "--gateway-timeout", "1s"}, s.args...)
	if s.live {
		args = append([]string{"serve", "--addr", s.addr, "--db", s.dsn}, s.args...)
	}
	cmd := exec.Command(s.bin, args...) // #nosec G204 -- the test's own binary
	cmd.Env = append(os.Environ(), "MEMBERS_PUBLIC_URL="+s.base())
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = s.out, s.out
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd, s.done = cmd, make(chan error, 1)
	go func(done chan error) { done <- cmd.Wait() }(s.done)
	from := len(s.out.String())
	s.from = from
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.out.String()[from:], "listening") {
		select {
		case err := <-s.done:
			s.done <- err
			s.t.Fatalf("server exited at start: %v\n%s", err, s.out.String()[from:])
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			s.t.Fatalf("server did not start:\n%s", s.out.String()[from:])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends the server with SIGKILL: no shutdown code runs. A server that
// has already ended is left as it is.
func (s *realServer) kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	s.wait(30 * time.Second)
}

// restart kills the server and starts it again on the same database and
// address, with env added to the environment of the new run.
func (s *realServer) restart(env ...string) {
	s.t.Helper()
	s.kill()
	s.start(env...)
}

// crashAt starts a run armed to kill itself at the first of the points
// it reaches (gateway calls: "after-authorize", "before-refund", …).
func (s *realServer) crashAt(points ...string) {
	s.t.Helper()
	s.restart(app.CrashEnv + "=" + strings.Join(points, ","))
}

// crashed waits until the armed run has killed itself and returns the
// point it reached, which must be one of points.
func (s *realServer) crashed(within time.Duration, points ...string) string {
	s.t.Helper()
	if _, ended := s.wait(within); !ended {
		s.kill()
		s.t.Fatalf("the server did not reach its crash point %v within %s:\n%s", points, within, s.out.String()[s.from:])
	}
	run := s.out.String()[s.from:]
	for _, p := range points {
		if strings.Contains(run, `"point":"`+p+`"`) {
			return p
		}
	}
	s.t.Fatalf("the server ended, but not at a crash point %v:\n%s", points, run)
	return ""
}

// wait waits for the current run to end: its exit error, and false when
// it still runs after within.
func (s *realServer) wait(within time.Duration) (error, bool) {
	if s.cmd == nil {
		return nil, true
	}
	select {
	case err := <-s.done:
		s.cmd = nil
		return err, true
	case <-time.After(within):
		return nil, false
	}
}

// signal sends sig to the current run.
func (s *realServer) signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// command runs a one-off command of the binary on the server's database
// (admin, gateway settle, …): --db is added.
func (s *realServer) command(args ...string) {
	s.t.Helper()
	out, err := exec.Command(s.bin, append(args, "--db", s.dsn)...).CombinedOutput() // #nosec G204 -- the test's own binary
	if err != nil {
		s.t.Fatalf("members %v: %v %s", args, err, out)
	}
}

// advanceClock moves the clock of a run started with --test-clock. A run
// armed to crash may reach its point on its own (a webhook the gateway
// sends again) before the clock is moved: then there is nothing to move,
// and the caller's crashed() checks the point it reached (wait has
// reaped the run; crashed reads its output).
func (s *realServer) advanceClock(d time.Duration) {
	s.t.Helper()
	b, _ := json.Marshal(map[string]int64{"advanceSeconds": int64(d / time.Second)})
	res, err := http.Post(s.base()+"/_test/clock", "application/json", bytes.NewReader(b))
	if err != nil {
		// The call fails as the run kills itself (refused, or reset
		// mid-answer); the exit may take a moment to be reaped.
		if _, ended := s.wait(10 * time.Second); ended {
			return
		}
		s.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		s.t.Fatalf("advance the clock: %d", res.StatusCode)
	}
}

// db opens the server's database (closed when the test ends).
func (s *realServer) db() *store.DB {
	s.t.Helper()
	db, err := store.Open(context.Background(), s.dsn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { db.Close() })
	return db
}

// member is a logged-in browser-like client.
type member struct {
	t      *testing.T
	base   string
	remote *apitest.Remote
}

// newMember logs the first demo member in.
func newMember(t *testing.T, base string) *member {
	return newMemberAs(t, base, apitest.DemoEmail, apitest.DemoPassword)
}

func newMemberAs(t *testing.T, base, email, password string) *member {
	m := &member{t: t, base: base, remote: apitest.NewRemote()}
	if code, body := m.do("POST", "/api/session", map[string]string{"email": email, "password": password}); code != 204 {
		t.Fatalf("login: %d %s", code, body)
	}
	return m
}

// do sends one call; a transport error (the server was killed) is status 0.
func (m *member) do(method, path string, body any) (int, map[string]any) {
	return m.remote.Do(method, m.base+path, body)
}

func (m *member) tokenize(number string) string {
	m.t.Helper()
	cvv := "123"
	if strings.HasPrefix(number, "34") || strings.HasPrefix(number, "37") {
		cvv = "1234" // American Express
	}
	b, _ := json.Marshal(map[string]string{"cardNumber": number, "expirationDate": "35/01", "cvv": cvv, "holderName": "TARO PEACH"})
	res, err := http.Post(m.base+"/gateway/v1/tokens", "application/json", bytes.NewReader(b))
	if err != nil {
		m.t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ Token string }
	_ = json.NewDecoder(res.Body).Decode(&out)
	if out.Token == "" {
		m.t.Fatalf("tokenize %s: %d", number, res.StatusCode)
	}
	return out.Token
}

// buyProduct records a tentative order of product (prepared) with the
// purchase body fields and returns the process id.
func (m *member) buyProduct(product string, fields map[string]any) string {
	m.t.Helper()
	body := map[string]any{"requestId": fmt.Sprintf("crash-%d", time.Now().UnixNano())}
	for k, v := range fields {
		body[k] = v
	}
	code, p := m.do("POST", "/api/"+product+"/buy", body)
	if code != 200 || p["status"] != "prepared" {
		m.t.Fatalf("%s buy: %d %v", product, code, p)
	}
	return p["paymentProcessId"].(string)
}

// buy buys 3000 points with a card token.
func (m *member) buy(token string) string {
	m.t.Helper()
	return m.buyProduct("peachpoints", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 3000,
		"paymentMethod": "creditCard", "creditCardToken": token})
}

// crashDuringAuthorize arms the server to die while a continue's call to
// the gateway is out, buys points with the card card gives (asked once
// armed), continues, restarts the server after its death and waits until
// the process settles; it returns the process.
func (m *member) crashDuringAuthorize(srv *realServer, card func() string) string {
	m.t.Helper()
	srv.crashAt("during-authorize")
	id := m.buy(card())
	go m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
	srv.crashed(20*time.Second, "during-authorize")
	srv.start()
	if st := m.settle(id, 40*time.Second); st != "settled" {
		m.t.Fatalf("after crash during the gateway's authorise: %s", st)
	}
	return id
}

// status is the process's status ("" when the server did not answer).
func (m *member) status(id string) string {
	code, p := m.do("GET", "/api/payment_processes/"+id+"/status", nil)
	if code != 200 {
		return ""
	}
	s, _ := p["status"].(string)
	return s
}

// settle polls the process (continuing it when it is still prepared)
// until it is terminal.
func (m *member) settle(id string, within time.Duration) string {
	m.t.Helper()
	return m.settleProduct("peachpoints", id, within)
}

func (m *member) settleProduct(product, id string, within time.Duration) string {
	m.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		switch st := m.status(id); st {
		case "prepared":
			m.do("POST", "/api/"+product+"/buy/"+id+"/continue", nil)
		case "settled", "failed", "expired":
			return st
		}
		time.Sleep(300 * time.Millisecond)
	}
	m.t.Fatalf("process %s not terminal after %s", id, within)
	return ""
}

// gatewayPaymentOf is the gateway payment a process recorded.
func gatewayPaymentOf(t *testing.T, dsn, processID string) string {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id string
	if err := db.QueryRow(`SELECT gateway_payment_id FROM payment_processes WHERE id = $1`, processID).Scan(&id); err != nil || id == "" {
		t.Fatalf("gateway payment of %s: %q %v", processID, id, err)
	}
	return id
}
