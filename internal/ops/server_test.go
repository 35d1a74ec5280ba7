package ops_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// The real server on both engines: /healthz and /readyz without a session,
// readiness failing once draining or once the database is gone.
func TestProbesOnTheServer(t *testing.T) {
	for _, engine := range apitest.Engines(t) {
		t.Run(string(engine), func(t *testing.T) {
			env := apitest.New(t, engine)
			get := func(path string) (int, string) { t.Helper(); return getText(t, env.Server.URL+path) }
			if code, body := get("/healthz"); code != 200 || body != "ok" {
				t.Errorf("/healthz: %d %q", code, body)
			}
			if code, body := get("/readyz"); code != 200 || body != "ready" {
				t.Errorf("/readyz: %d %q", code, body)
			}
			env.App.Health.SetDraining()
			if code, body := get("/readyz"); code != 503 || body != "draining" {
				t.Errorf("/readyz draining: %d %q", code, body)
			}
			if code, _ := get("/healthz"); code != 200 {
				t.Errorf("/healthz draining: %d, want 200 (the process still answers)", code)
			}
		})
	}
}

// A database this build has more migrations for is not ready.
func TestMigrationsCurrent(t *testing.T) {
	for _, engine := range apitest.Engines(t) {
		t.Run(string(engine), func(t *testing.T) {
			env := apitest.New(t, engine)
			db := env.App.DB
			ok, err := db.MigrationsCurrent(t.Context())
			if err != nil || !ok {
				t.Fatalf("MigrationsCurrent after migrate = %v, %v", ok, err)
			}
			if _, err := db.ExecContext(t.Context(), `DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)`); err != nil {
				t.Fatal(err)
			}
			ok, err = db.MigrationsCurrent(t.Context())
			if err != nil || ok {
				t.Fatalf("MigrationsCurrent with one missing = %v, %v", ok, err)
			}
		})
	}
}

// A full disk: the database answers pings and reads, and refuses writes.
// The refused write answers 503 with Retry-After (not 500), and /readyz
// says "database writes failing" from then on (docs/operations.md). The
// disk is a SQLite file held at its size by PRAGMA max_page_count, which
// gives the same SQLITE_FULL as a full file system.
func TestFullDiskIsNotReady(t *testing.T) {
	dsn := apitest.DSN(t, store.SQLite)
	first := apitest.NewOn(t, store.SQLite, dsn) // migrations and demo data
	if _, err := first.App.DB.Exec(`CREATE TABLE filler (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := first.App.DB.QueryRow(`SELECT page_count FROM pragma_page_count()`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	env := apitest.NewOn(t, store.SQLite, fmt.Sprintf("%s?_pragma=max_page_count(%d)", dsn, pages+2),
		func(c *app.Config) { c.Metrics = reg })
	refused := func() float64 {
		t.Helper()
		fams, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fams {
			if f.GetName() == "members_database_write_failures_total" {
				return f.GetMetric()[0].GetCounter().GetValue()
			}
		}
		t.Fatal("no members_database_write_failures_total")
		return 0
	}
	get := func(path string) (int, string) { t.Helper(); return getText(t, env.Server.URL+path) }
	// fill the free pages (a plain statement: not a write the server made)
	for size := 2000; size >= 1; size /= 2 {
		for {
			if _, err := env.App.DB.Exec(`INSERT INTO filler VALUES (zeroblob($1))`, size); err != nil {
				if store.FaultOf(err) != store.Full {
					t.Fatalf("fill: %v", err)
				}
				break
			}
		}
	}
	if code, body := get("/readyz"); code != 200 || body != "ready" {
		t.Fatalf("/readyz before a refused write: %d %q", code, body)
	}
	if n := refused(); n != 0 {
		t.Fatalf("members_database_write_failures_total = %v before any request", n)
	}
	// Members log in (each login writes a session) until the disk refuses one.
	for i := 0; ; i++ {
		r := env.Client(t).Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword})
		if r.Status == http.StatusServiceUnavailable {
			if r.Header.Get("Retry-After") == "" {
				t.Errorf("503 without Retry-After")
			}
			break
		}
		if r.Status != http.StatusOK && r.Status != http.StatusNoContent {
			t.Fatalf("login %d on a full disk: %d %s, want 503", i, r.Status, r.Body)
		}
		if i == 500 {
			t.Fatal("500 logins fitted in a full database")
		}
	}
	if code, body := get("/readyz"); code != 503 || body != "database writes failing" {
		t.Errorf("/readyz after a refused write: %d %q", code, body)
	}
	if n := refused(); n < 1 {
		t.Errorf("members_database_write_failures_total = %v after a refused write", n)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz: %d (the process answers)", code)
	}
}

// getText is the status and the trimmed body of a GET of url.
func getText(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}
