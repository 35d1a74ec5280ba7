package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/flightops"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/oidcprovider"
	"members/internal/store"
)

// dbProxy stands between the server and PostgreSQL: stop() drops every
// connection and refuses new ones, as a PostgreSQL restart does; start()
// accepts again on the same address. With cutMidQuery(n) set, each
// connection forwards n statements and cuts the next one mid-query: the
// statement reaches PostgreSQL, then both ends are closed before any of its
// answer comes back (as `restart -m immediate` does to a running query).
type dbProxy struct {
	t        *testing.T
	addr     string
	upstream string
	mu       sync.Mutex
	ln       net.Listener
	conns    []net.Conn
	cutAt    atomic.Int32 // 0: no cut; n+1: cut each connection's statement n (0-based)
}

// cutMidQuery makes every connection cut its statement n (0-based, counting
// from the first after the connection is ready); -1 turns cutting off.
func (p *dbProxy) cutMidQuery(n int) { p.cutAt.Store(int32(n + 1)) }

// readyForQuery is PostgreSQL's ReadyForQuery message header: the
// connection is past its start-up and takes statements.
var readyForQuery = []byte{'Z', 0, 0, 0, 5}

// pipe forwards one connection. Server to client: everything, until the
// connection is cut. Client to server: each write after the server's first
// ReadyForQuery is a statement (pgx writes a message or a batch of them in
// one go); the one to cut is forwarded, then both ends are closed.
func (p *dbProxy) pipe(c, u net.Conn) {
	var ready, cut atomic.Bool
	var mu sync.Mutex // cut and the server's writes to the client
	go func() {
		defer c.Close()
		buf := make([]byte, 32<<10)
		for {
			n, err := u.Read(buf)
			if n > 0 {
				mu.Lock()
				if cut.Load() {
					mu.Unlock()
					return
				}
				if bytes.Contains(buf[:n], readyForQuery) {
					ready.Store(true)
				}
				_, werr := c.Write(buf[:n])
				mu.Unlock()
				if werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer u.Close()
		buf := make([]byte, 32<<10)
		statements := 0
		for {
			n, err := c.Read(buf)
			if n > 0 {
				if _, werr := u.Write(buf[:n]); werr != nil {
					return
				}
				if ready.Load() {
					at := int(p.cutAt.Load()) - 1
					if at >= 0 && statements == at {
						mu.Lock()
						cut.Store(true)
						mu.Unlock()
						c.Close()
						return
					}
					statements++
				}
			}
			if err != nil {
				return
			}
		}
	}()
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
			p.pipe(c, u)
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

// A connection cut mid-query (the statement sent, its answer never comes:
// PostgreSQL's `restart -m immediate`, a reset, a proxy gone) answers 503
// with Retry-After, whichever statement of the request it hits: the
// session's read, a page's reads, a write's transaction.
func TestConnectionCutMidQueryAnswers503(t *testing.T) {
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
	c.Lang = "kr"
	requests := []struct {
		name string
		do   func() *apitest.Response
	}{
		{"session", func() *apitest.Response { return c.Get("/api/session") }},
		{"points summary", func() *apitest.Response { return c.Get("/api/peachpoints/summary") }},
		{"passengers", func() *apitest.Response { return c.Get("/api/user/passengers") }},
		{"settings saved", func() *apitest.Response {
			return c.Do(http.MethodPut, "/api/user/notification_settings",
				map[string]any{"flightChanges": true, "pointsReminders": false, "securityAlerts": true, "mailLang": "kr"})
		}},
	}
	// A request either missed the cut (a statement of another connection,
	// the worker's, was cut instead) and succeeded, or was cut: 503.
	cut := 0
	for n := range 4 {
		for _, req := range requests {
			proxy.cutMidQuery(n)
			r := req.do()
			proxy.cutMidQuery(-1)
			if r.Status < 500 {
				continue
			}
			cut++
			t.Run(fmt.Sprintf("%s cut at statement %d", req.name, n), func(t *testing.T) {
				checkUnavailable(t, env, r, "kr")
			})
		}
	}
	if cut < len(requests) {
		t.Fatalf("only %d requests were cut", cut)
	}
	if strings.Contains(env.Log.String(), `"level":"ERROR","msg":"internal error"`) {
		t.Errorf("a cut connection was logged as an internal error:\n%s", env.Log.String())
	}
	if r := c.Get("/api/peachpoints/summary"); r.Status != http.StatusOK {
		t.Fatalf("after the cuts: %d %s", r.Status, r.Body)
	}
}

// closedAddr is a loopback address nothing listens on: a connection to it
// is refused.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A card registration whose payment gateway cannot be reached (the outside
// gateway's host down, Stripe's API out of reach) answers 503 with
// Retry-After and "try again in a moment" in the member's language, saves
// no card, and logs no internal error.
func TestUnreachableGatewayAnswers503(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     func(*app.Config)
		token   string
		gateway string
	}{
		{"outside gateway", func(c *app.Config) {
			c.GatewayURL = "http://" + closedAddr(t) + "/gateway"
			c.GatewayKey = "k"
		}, "tok_0123456789", "ndhk"},
		{"stripe", func(c *app.Config) {
			c.Gateway = app.GatewayStripe
			c.Stripe = app.StripeConfig{SecretKey: "sk_test_members", PublishableKey: "pk_test_members",
				WebhookSecret: testWebhookSecret, APIURL: "http://" + closedAddr(t)}
		}, "pm_card_visa", "stripe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t, store.SQLite, tc.cfg)
			c := env.Member(t)
			c.Lang = "tw"
			before := c.Get("/api/cc")
			r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tc.token, "gateway": tc.gateway, "currency": "JPY"})
			checkUnavailable(t, env, r, "tw")
			if after := c.Get("/api/cc"); string(after.Body) != string(before.Body) {
				t.Errorf("cards changed: %s, were %s", after.Body, before.Body)
			}
			if log := env.Log.String(); strings.Contains(log, `"msg":"internal error"`) || !strings.Contains(log, `"msg":"payment gateway unavailable"`) {
				t.Errorf("log:\n%s", log)
			}
		})
	}
}

// The endpoints outside /api that touch the database answer a database
// outage 503 with Retry-After too, not 500: the flight events feed (its
// sender sends again), the one-click unsubscribe link's page (in the
// member's language), the OpenID Connect token endpoint.
func TestClosedDatabaseAnswers503OutsideTheAPI(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		client, secret, err := oidcprovider.NewClients(store.NewOIDCStore(env.App.DB), env.App.DB.Now).Add(t.Context(),
			oidcprovider.ClientInput{Name: "Booking site", RedirectURIs: []string{"https://booking.example.com/cb"}, FirstParty: true})
		if err != nil {
			t.Fatal(err)
		}
		svc, err := env.App.Notify(t.Context(), app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		unsubscribe := svc.UnsubscribeURL(demo.Member1, "flight_changes")
		link, _ := url.Parse(unsubscribe)
		if err := env.App.DB.Close(); err != nil {
			t.Fatal(err)
		}
		retryLater := func(what string, status int, h http.Header) {
			t.Helper()
			if status != http.StatusServiceUnavailable || h.Get("Retry-After") != strconv.Itoa(httpapi.RetryAfterUnavailable) {
				t.Errorf("%s: %d, Retry-After %q; want 503 with Retry-After", what, status, h.Get("Retry-After"))
			}
		}

		body := eventJSON("ev-outage", "delay", "2026-11-20T05:00:00Z", `,"departure":"2026-11-30T10:40:00+09:00"`)
		req, _ := http.NewRequest(http.MethodPost, env.Server.URL+httpapi.FlightEventsPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(flightops.SignatureHeader, flightops.Sign([]byte(app.DemoOpsSecret), env.Clock.Now(), body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		retryLater("flight event", resp.StatusCode, resp.Header)

		req, _ = http.NewRequest(http.MethodPost, env.Server.URL+link.Path+"?"+link.RawQuery, strings.NewReader("List-Unsubscribe=One-Click"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept-Language", "ja")
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		retryLater("unsubscribe", resp.StatusCode, resp.Header)
		if want := env.App.Catalog.T(i18n.EN, "error.try_again_shortly"); !strings.Contains(string(page), want) &&
			!strings.Contains(string(page), env.App.Catalog.T(i18n.JP, "error.try_again_shortly")) {
			t.Errorf("unsubscribe page: %s", page)
		}

		req, _ = http.NewRequest(http.MethodPost, env.Server.URL+oidcprovider.TokenPath, strings.NewReader("grant_type=refresh_token&refresh_token=x"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(client, secret)
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		retryLater("OpenID Connect token endpoint", resp.StatusCode, resp.Header)
		if strings.Contains(env.Log.String(), `"level":"ERROR"`) {
			t.Errorf("the outage was logged as an error:\n%s", env.Log.String())
		}
	})
}
