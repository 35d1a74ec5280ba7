package ops_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"members/internal/apitest"
)

// The real server on both engines: /healthz and /readyz without a session,
// readiness failing once draining or once the database is gone.
func TestProbesOnTheServer(t *testing.T) {
	for _, engine := range apitest.Engines(t) {
		t.Run(string(engine), func(t *testing.T) {
			env := apitest.New(t, engine)
			get := func(path string) (int, string) {
				t.Helper()
				resp, err := http.Get(env.Server.URL + path)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, strings.TrimSpace(string(b))
			}
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
