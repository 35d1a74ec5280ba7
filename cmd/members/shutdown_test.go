package main

import (
	"context"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"members/internal/store"
)

// TestGracefulShutdown sends SIGTERM to the real server while a purchase
// is in flight (the slow test card holds its authorise for 3 s): the
// listener closes at once, the purchase still completes, the background
// work stops, its leases are released and the process exits 0.
func TestGracefulShutdown(t *testing.T) {
	// the gateway call may take the slow card's whole 3 s
	forEachServer(t, []string{"--shutdown-grace", "15s", "--gateway-timeout", "8s"}, func(t *testing.T, engine store.Engine, srv *realServer) {
		addr := srv.addr
		m := newMember(t, srv.base())
		if code, _ := m.do("GET", "/readyz", nil); code != 200 {
			t.Fatalf("/readyz before: %d", code)
		}
		type answer struct {
			code   int
			status any
			took   time.Duration
		}
		// inFlight starts a purchase's continue and waits until the engine
		// has created its gateway payment and sent its authorise, which the
		// slow card answers 3 s later. On a loaded machine a step can fail
		// at once (the process stays pending for the background work) and
		// the continue answers before the signal: that purchase is no test
		// of a request in flight, so another one is started.
		inFlight := func() chan answer {
			for try := 1; ; try++ {
				id := m.buy(m.tokenize("4000000000000119"))
				done := make(chan answer, 1)
				go func() {
					start := time.Now()
					code, p := m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
					done <- answer{code, p["status"], time.Since(start)}
				}()
				waitGatewayPayment(t, srv.db(), id, 10*time.Second)
				time.Sleep(100 * time.Millisecond) // the authorise leaves after the payment is recorded
				select {
				case a := <-done:
					if try == 3 {
						t.Fatalf("three continues answered before any signal, the last %d %v after %s:\n%s", a.code, a.status, a.took, srv.out.String())
					}
					t.Logf("continue %d answered before the signal (%d %v after %s); another purchase", try, a.code, a.status, a.took)
				default:
					return done
				}
			}
		}
		done := inFlight()
		sent := time.Now()
		if err := srv.signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		// no new connections once draining
		refused := false
		for time.Since(sent) < 2*time.Second {
			c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
			if err != nil {
				refused = true
				break
			}
			c.Close()
			time.Sleep(20 * time.Millisecond)
		}
		if !refused {
			t.Error("the server still accepted connections 2 s after SIGTERM")
		}
		var a answer
		select {
		case a = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the request in flight never answered")
		}
		if a.code != http.StatusOK || a.status != "settled" {
			t.Errorf("request in flight at SIGTERM: %d %v\n%s", a.code, a.status, srv.out.String())
		}
		if a.took < 2*time.Second {
			t.Errorf("the request answered after %s: it was not in flight at SIGTERM", a.took)
		}
		if err, ended := srv.wait(20 * time.Second); !ended {
			t.Fatalf("no exit 20 s after SIGTERM:\n%s", srv.out.String())
		} else if err != nil {
			t.Errorf("exit: %v (want status 0)\n%s", err, srv.out.String())
		}
		if out := srv.out.String(); !strings.Contains(out, `"shut down"`) {
			t.Errorf("no shutdown line:\n%s", out)
		}
		db := srv.db()
		var held int
		if err := db.QueryRow(`SELECT COUNT(*) FROM payment_processes WHERE lease_owner LIKE 'w%' AND lease_until > $1`,
			time.Now().UnixMilli()).Scan(&held); err != nil {
			t.Fatal(err)
		}
		if held != 0 {
			t.Errorf("%d background leases still held after exit", held)
		}
	})
}

// A malformed grace is refused before anything starts, from the flag or
// from the environment.
func TestShutdownGraceFlag(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  string
		args []string
	}{
		{"flag not a duration", "", []string{"--shutdown-grace", "twenty"}},
		{"flag zero", "", []string{"--shutdown-grace", "0s"}},
		{"environment", "20", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("MEMBERS_SHUTDOWN_GRACE", tc.env)
			var out, errb strings.Builder
			args := append([]string{"serve", "--demo", "--addr", "127.0.0.1:0", "--db", "sqlite:" + t.TempDir() + "/m.db"}, tc.args...)
			err := run(context.Background(), args, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), "--shutdown-grace") {
				t.Errorf("err = %v, want a --shutdown-grace error", err)
			}
		})
	}
}

// waitGatewayPayment waits until the process has its gateway payment: the
// engine records it just before it sends the authorise.
func waitGatewayPayment(t *testing.T, db *store.DB, processID string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var id string
		if err := db.QueryRow(`SELECT COALESCE(gateway_payment_id, '') FROM payment_processes WHERE id = $1`, processID).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if id != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %s has no gateway payment after %s", processID, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
