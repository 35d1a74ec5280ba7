package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/store"
)

// The crash test runs the real binary: it is built once per test run.
var (
	binOnce sync.Once
	binPath string
	binErr  error
)

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

// proc is one run of `members serve`.
type proc struct {
	cmd *exec.Cmd
	out *syncBuffer
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

// serveProc starts the server on addr and waits until it listens.
func serveProc(t *testing.T, bin, dsn, addr string, extra ...string) *proc {
	t.Helper()
	out := &syncBuffer{}
	args := append([]string{"serve", "--demo", "--addr", addr, "--db", dsn, "--gateway-slow", "3s", "--gateway-timeout", "1s"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "MEMBERS_PUBLIC_URL=http://"+addr)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, out: out}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "listening") {
		if time.Now().After(deadline) {
			p.kill()
			t.Fatalf("server did not start:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return p
}

// kill ends the server with SIGKILL: no shutdown code runs.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// member is a logged-in browser-like client.
type member struct {
	t    *testing.T
	base string
	http *http.Client
}

func newMember(t *testing.T, base string) *member {
	jar, _ := cookiejar.New(nil)
	m := &member{t: t, base: base, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	if code, body := m.do("POST", "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}); code != 204 {
		t.Fatalf("login: %d %s", code, body)
	}
	return m
}

// do sends one call; a transport error (the server was killed) is status 0.
func (m *member) do(method, path string, body any) (int, map[string]any) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, m.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Lang", "en")
	if method != "GET" {
		res, err := m.http.Get(m.base + "/api/csrf_token")
		if err != nil {
			return 0, nil
		}
		var tok struct{ CsrfToken string }
		_ = json.NewDecoder(res.Body).Decode(&tok)
		res.Body.Close()
		req.Header.Set("X-Csrf-Token", tok.CsrfToken)
	}
	res, err := m.http.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
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

func (m *member) buy(token string) string {
	m.t.Helper()
	code, p := m.do("POST", "/api/peachpoints/buy", map[string]any{
		"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 3000, "paymentMethod": "creditCard",
		"creditCardToken": token, "requestId": fmt.Sprintf("crash-%d", time.Now().UnixNano()),
	})
	if code != 200 || p["status"] != "prepared" {
		m.t.Fatalf("buy: %d %v", code, p)
	}
	return p["paymentProcessId"].(string)
}

// settle polls the process (continuing it when it is still prepared)
// until it is terminal.
func (m *member) settle(id string, within time.Duration) string {
	m.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		code, p := m.do("GET", "/api/payment_processes/"+id+"/status", nil)
		if code == 200 {
			switch p["status"] {
			case "prepared":
				m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
			case "settled", "failed", "expired":
				return p["status"].(string)
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	m.t.Fatalf("process %s not terminal after %s", id, within)
	return ""
}

// TestPaymentCrashSafety kills the real server with SIGKILL after each
// step of a purchase (prepared; during authorise of the slow card; a
// challenge approved at the gateway before the webhook went out; during a
// burst of continues), restarts it and finds every process settled, with
// one voucher per settled process and one captured payment per process.
func TestPaymentCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := membersBinary(t)
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		dsn := apitest.DSN(t, engine)
		addr := freeAddr(t)
		base := "http://" + addr
		srv := serveProc(t, bin, dsn, addr)
		defer func() { srv.kill() }()
		restart := func() {
			srv.kill()
			srv = serveProc(t, bin, dsn, addr)
		}
		m := newMember(t, base)
		var visa string
		_, list := m.do("GET", "/api/cc", nil)
		for _, c := range list["creditcards"].([]any) {
			card := c.(map[string]any)
			if card["brand"] == "visa" && card["isValid"] == true {
				visa = card["token"].(string)
			}
		}
		if visa == "" {
			t.Fatalf("no demo visa: %v", list)
		}
		var ids []string

		// 1. killed after the tentative order: it resumes as prepared
		id := m.buy(visa)
		ids = append(ids, id)
		restart()
		if st := m.settle(id, 20*time.Second); st != "settled" {
			t.Fatalf("after crash at prepared: %s", st)
		}

		// 2. killed while the slow card's authorise is in flight
		slow := m.tokenize("4000000000000119")
		id = m.buy(slow)
		ids = append(ids, id)
		go m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
		time.Sleep(600 * time.Millisecond)
		restart()
		_, p0 := m.do("GET", "/api/payment_processes/"+id+"/status", nil)
		t.Logf("slow card after the crash: %v", p0["status"])
		if st := m.settle(id, 40*time.Second); st != "settled" {
			t.Fatalf("after crash during authorise: %s", st)
		}

		// 3. the challenge is approved at the gateway; killed before the
		// webhook reaches the members side
		challenge := m.tokenize("4000000000003220")
		id = m.buy(challenge)
		ids = append(ids, id)
		code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
		if code != 200 || p["status"] != "pending" {
			t.Fatalf("challenge continue: %d %v", code, p)
		}
		gw := gatewayPaymentOf(t, dsn, id)
		if out, err := exec.Command(bin, "gateway", "settle", gw, "--db", dsn).CombinedOutput(); err != nil {
			t.Fatalf("gateway settle: %v %s", err, out)
		}
		srv.kill()
		srv = serveProc(t, bin, dsn, addr)
		if st := m.settle(id, 40*time.Second); st != "settled" {
			t.Fatalf("after crash before the webhook: %s", st)
		}

		// 4. a burst of continues (double clicks, tabs), killed mid-way, a few times
		for round := range 3 {
			id = m.buy(visa)
			ids = append(ids, id)
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() { defer wg.Done(); m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil) }()
			}
			time.Sleep(time.Duration(20+round*40) * time.Millisecond)
			srv.kill()
			wg.Wait()
			srv = serveProc(t, bin, dsn, addr)
			_, p0 := m.do("GET", "/api/payment_processes/"+id+"/status", nil)
			t.Logf("round %d after the crash: %v", round, p0["status"])
			if st := m.settle(id, 40*time.Second); st != "settled" {
				t.Fatalf("round %d: %s", round, st)
			}
		}
		srv.kill()

		db, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, id := range ids {
			var status string
			var vouchers, payments, captured int
			if err := db.QueryRow(`SELECT status FROM payment_processes WHERE id = $1`, id).Scan(&status); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE payment_process_id = $1`, id).Scan(&vouchers); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = 'captured' THEN 1 ELSE 0 END), 0) FROM gw_payments WHERE reference = $1`, id).
				Scan(&payments, &captured); err != nil {
				t.Fatal(err)
			}
			if status != "settled" || vouchers != 1 || payments != 1 || captured != 1 {
				t.Errorf("process %s: %s, %d vouchers, %d gateway payments (%d captured)", id, status, vouchers, payments, captured)
			}
		}
	})
}

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
