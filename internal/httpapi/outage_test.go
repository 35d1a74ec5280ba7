package httpapi_test

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/store"
)

// dbProxy stands between the server and PostgreSQL: stop() drops every
// connection and refuses new ones, as a PostgreSQL restart does; start()
// accepts again on the same address.
type dbProxy struct {
	t        *testing.T
	addr     string
	upstream string
	mu       sync.Mutex
	ln       net.Listener
	conns    []net.Conn
}

func newDBProxy(t *testing.T, upstream string) *dbProxy {
	t.Helper()
	p := &dbProxy{t: t, upstream: upstream, addr: "127.0.0.1:0"}
	p.start()
	t.Cleanup(p.stop)
	return p
}

func (p *dbProxy) start() {
	p.t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port of the first listener may take a moment to be free again
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", p.upstream)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(u, c); u.Close() }()
			go func() { _, _ = io.Copy(c, u); c.Close() }()
		}
	}()
}

func (p *dbProxy) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// checkUnavailable: a 503 with Retry-After and "try again in a moment" in
// the member's language, never "System error".
func checkUnavailable(t *testing.T, env *apitest.Env, r *apitest.Response, lang string) {
	t.Helper()
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("during the outage: %d %s, want 503", r.Status, r.Body)
	}
	if got := r.Header.Get("Retry-After"); got != strconv.Itoa(httpapi.RetryAfterUnavailable) {
		t.Errorf("Retry-After = %q", got)
	}
	want := env.App.Catalog.T(i18n.Lang(lang), "error.try_again_shortly")
	if want == "error.try_again_shortly" || !strings.Contains(string(r.Body), want) {
		t.Errorf("body %s, want the message %q", r.Body, want)
	}
	if strings.Contains(string(r.Body), env.App.Catalog.T(i18n.Lang(lang), "error.system")) {
		t.Errorf("body says system error: %s", r.Body)
	}
}

// A PostgreSQL restart (its connections dropped, new ones refused, then
// accepted again) answers 503 with Retry-After while it lasts, and the
// member's session works again after it.
func TestPostgresRestartAnswers503(t *testing.T) {
	if !slices.Contains(apitest.Engines(t), store.Postgres) {
		return // no PostgreSQL here (CI requires one)
	}
	dsn := apitest.DSN(t, store.Postgres)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newDBProxy(t, u.Host)
	u.Host = proxy.addr
	env := apitest.NewOn(t, store.Postgres, u.String())
	c := env.Member(t)
	c.Lang = "th"
	if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
		t.Fatalf("session = %d %s", r.Status, r.Body)
	}
	proxy.stop()
	for _, path := range []string{"/api/session", "/api/peachpoints/summary"} {
		checkUnavailable(t, env, c.Get(path), "th")
	}
	if strings.Contains(env.Log.String(), `"level":"ERROR","msg":"internal error"`) {
		t.Errorf("the outage was logged as an internal error")
	}
	proxy.start()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := c.Get("/api/session")
		if r.Status == http.StatusNoContent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart: %d %s", r.Status, r.Body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The database's pool closed under the server (SQLite and PostgreSQL):
// every request answers 503 with Retry-After in the member's language.
func TestClosedDatabaseAnswers503(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		c.Lang = "jp"
		if r := c.Get("/api/peachpoints/summary"); r.Status != http.StatusOK {
			t.Fatalf("summary = %d %s", r.Status, r.Body)
		}
		if err := env.App.DB.Close(); err != nil {
			t.Fatal(err)
		}
		checkUnavailable(t, env, c.Get("/api/peachpoints/summary"), "jp")
		checkUnavailable(t, env, c.Do(http.MethodPost, "/api/session", map[string]string{"email": "x@example.com", "password": "x"}), "jp")
	})
}
