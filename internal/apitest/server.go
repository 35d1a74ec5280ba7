package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"members/internal/app"
	"members/internal/auth"
	"members/internal/httpapi"
	"members/internal/store"
)

// Env is a running server on a fresh database.
type Env struct {
	App    *app.App
	Server *httptest.Server
	Clock  *Clock
	Engine store.Engine
	// Log holds every line the server logged (JSON, as in production).
	Log *LogBuffer
	// Anonymous are the API calls ("METHOD /path") that work without a
	// session: the platform's and every feature's.
	Anonymous map[string]bool

	dsn string
	cfg []func(*app.Config)
}

// LogBuffer collects log output; safe for concurrent writers.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything logged so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Start is the fake clock's start: a Japan-time afternoon.
var Start = time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)

// New starts the real server with demo data on a fresh database of engine.
// cfg may change the Config before the server is built.
func New(t testing.TB, engine store.Engine, cfg ...func(*app.Config)) *Env {
	t.Helper()
	return start(t, engine, DSN(t, engine), NewClock(Start), cfg)
}

// NewOn starts the real server with demo data on the database at dsn
// (made by DSN, perhaps filled before).
func NewOn(t testing.TB, engine store.Engine, dsn string, cfg ...func(*app.Config)) *Env {
	t.Helper()
	return start(t, engine, dsn, NewClock(Start), cfg)
}

// Instance starts another instance of the server on e's database (its own
// pool, statement and answer caches) with the same clock and config, as
// when several instances run behind one load balancer.
// DSN is the test database the server runs on (operator commands in tests).
func (e *Env) DSN() string { return e.dsn }

func (e *Env) Instance(t testing.TB) *Env {
	t.Helper()
	return start(t, e.Engine, e.dsn, e.Clock, e.cfg)
}

func start(t testing.TB, engine store.Engine, dsn string, clock *Clock, cfg []func(*app.Config)) *Env {
	t.Helper()
	ctx := context.Background()
	logs := &LogBuffer{}
	a, err := app.Open(ctx, app.Options{
		DSN: dsn, Logger: slog.New(slog.NewJSONHandler(logs, nil)), Now: clock.Now, PasswordCost: &PasswordCost,
	})
	if err != nil {
		t.Fatal(err)
	}
	// The listener comes first: the in-process gateway is called at the
	// server's own address.
	srv := httptest.NewUnstartedServer(nil)
	c := app.Config{Revision: "test-rev", Demo: true, BookingSiteURL: "https://booking.example.com",
		ServerURL: "http://" + srv.Listener.Addr().String()}
	for _, f := range cfg {
		f(&c)
	}
	h, feats, err := a.Server(ctx, c)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		feats.Close()
		a.Close()
	})
	anon := map[string]bool{}
	for _, p := range append(append([]string{}, httpapi.AnonymousAPI...), feats.Anonymous...) {
		anon[p] = true
	}
	return &Env{App: a, Server: srv, Clock: clock, Engine: engine, Log: logs, Anonymous: anon, dsn: dsn, cfg: cfg}
}

// PasswordCost is the argon2id cost of the test servers' password hashes:
// the least the algorithm allows. Hashing the demo password at OWASP's cost
// on every demo load and login was over half of the Go tests' CPU; what the
// tests check of passwords does not depend on the cost, and the hasher at
// the real cost has its own tests (internal/auth) and serves the browser
// tests and the real-process tests (cmd/members).
var PasswordCost = auth.PasswordCost{Time: 1, MemoryKiB: 8, Threads: 1}

// Client is a browser-like client: cookie jar, X-Lang, CSRF token fetched
// before every non-GET call.
type Client struct {
	t    testing.TB
	env  *Env
	http *http.Client
	Lang string
	// NoCSRF sends non-GET calls without the token (to test refusal).
	NoCSRF bool
	// NoContract turns off the check of responses against api/openapi.yaml
	// (see contract.go) for a client that sends deliberately odd requests.
	NoContract bool
}

// Client returns a new anonymous client.
func (e *Env) Client(t testing.TB) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{t: t, env: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}, Lang: "en"}
}

// SetTimeout makes every later call of the client give up after d (the
// client disconnects, and the call fails the test): a request that never
// answers fails instead of hanging.
func (c *Client) SetTimeout(d time.Duration) { c.http.Timeout = d }

// Response is a finished call.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test on error.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %q: %v", r.Body, err)
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// Do sends a request; body is JSON-encoded unless it is []byte or nil.
func (c *Client) Do(method, path string, body any, header ...string) *Response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.env.Server.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Lang", c.Lang)
	req.Header.Set("X-Revision", "test-rev")
	if method != http.MethodGet && method != http.MethodHead && !c.NoCSRF {
		req.Header.Set("X-Csrf-Token", c.CSRFToken())
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	c.checkContract(c.t, req, resp, b)
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Get is Do with GET.
func (c *Client) Get(path string) *Response { c.t.Helper(); return c.Do(http.MethodGet, path, nil) }

// CSRFToken fetches the token for the client's current cookies.
func (c *Client) CSRFToken() string {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.env.Server.URL+"/api/csrf_token", nil)
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ CsrfToken string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		c.t.Fatal(err)
	}
	return v.CsrfToken
}

// Login logs in and fails the test unless it succeeds.
func (c *Client) Login(email, password string) {
	c.t.Helper()
	r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": email, "password": password})
	if r.Status != http.StatusNoContent {
		c.t.Fatalf("login %s: %d %s", email, r.Status, r.Body)
	}
}

// Demo logins.
const (
	DemoEmail    = "demo@example.com"
	Demo2Email   = "demo2@example.com"
	DemoPassword = "Demo1234"
)

// Member returns a client logged in as the first demo member.
func (e *Env) Member(t testing.TB) *Client {
	c := e.Client(t)
	c.Login(DemoEmail, DemoPassword)
	return c
}

// Member2 returns a client logged in as the second demo member.
func (e *Env) Member2(t testing.TB) *Client {
	c := e.Client(t)
	c.Login(Demo2Email, DemoPassword)
	return c
}
