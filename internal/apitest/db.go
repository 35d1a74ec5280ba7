// Package apitest runs the real server against a real database for tests:
// every engine (SQLite always; PostgreSQL when reachable, and always in CI),
// a fake clock, and a client with a cookie jar that speaks the CSRF
// protocol. Store and HTTP tests of every feature use it.
package apitest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/store"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for schema setup
)

// PostgresURL is the test server (env MEMBERS_TEST_PG overrides).
func PostgresURL() string {
	if v := os.Getenv("MEMBERS_TEST_PG"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

var (
	pgOnce sync.Once
	pgOK   bool
)

// postgresReachable checks once per test binary. In CI (CI=true) an
// unreachable PostgreSQL fails the tests instead of narrowing them.
func postgresReachable(t testing.TB) bool {
	pgOnce.Do(func() {
		db, err := sql.Open("pgx", PostgresURL())
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			pgOK = db.PingContext(ctx) == nil
			cancel()
			db.Close()
		}
	})
	if !pgOK && os.Getenv("CI") == "true" {
		t.Fatalf("PostgreSQL at %s is not reachable (required in CI)", PostgresURL())
	}
	return pgOK
}

// Engines returns the engines to test on: "sqlite", and "postgres" when reachable.
func Engines(t testing.TB) []store.Engine {
	out := []store.Engine{store.SQLite}
	if postgresReachable(t) {
		out = append(out, store.Postgres)
	}
	return out
}

// DSN returns a fresh, empty database of engine for one test, removed at
// cleanup: a temp SQLite file, or a new PostgreSQL schema.
func DSN(t testing.TB, engine store.Engine) string {
	t.Helper()
	if engine == store.SQLite {
		return "sqlite:" + filepath.Join(t.TempDir(), "test.db")
	}
	schema := "t_" + strings.ToLower(store.NewID()[:16])
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	u, err := url.Parse(PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	// A commit does not wait for its WAL flush: a throwaway test schema needs
	// no durability across a PostgreSQL crash, and the many small commits of
	// the migrations and fixtures were the tests' main wait.
	if !q.Has("synchronous_commit") {
		q.Set("synchronous_commit", "off")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// OpenDB opens and migrates a fresh database of engine.
func OpenDB(t testing.TB, engine store.Engine) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), DSN(t, engine))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// ForEachEngine runs fn as a subtest on every engine.
func ForEachEngine(t *testing.T, fn func(t *testing.T, engine store.Engine)) {
	for _, e := range Engines(t) {
		t.Run(string(e), func(t *testing.T) { fn(t, e) })
	}
}

// Clock is a settable clock for tests.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock starts at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the current fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

func (c *Clock) String() string { return fmt.Sprint(c.Now()) }
