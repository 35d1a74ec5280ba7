package ops

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type fakeDB struct {
	pingErr error
	current bool
	migErr  error
	checks  int
	failing bool
}

func (f *fakeDB) WritesFailing(context.Context) bool { return f.failing }

func (f *fakeDB) PingContext(context.Context) error { return f.pingErr }
func (f *fakeDB) MigrationsCurrent(context.Context) (bool, error) {
	f.checks++
	return f.current, f.migErr
}

func TestReadiness(t *testing.T) {
	tests := []struct {
		name     string
		db       fakeDB
		draining bool
		want     int
		body     string
	}{
		{"ready", fakeDB{current: true}, false, 200, "ready"},
		{"database down", fakeDB{pingErr: errors.New("dial tcp: refused"), current: true}, false, 503, "database unreachable"},
		{"migrations pending", fakeDB{current: false}, false, 503, "migrations pending"},
		{"migrations unreadable", fakeDB{migErr: errors.New("relation missing")}, false, 503, "database unreachable"},
		{"draining", fakeDB{current: true}, true, 503, "draining"},
		{"writes failing", fakeDB{current: true, failing: true}, false, 503, "database writes failing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHealth(&tc.db, 0)
			if tc.draining {
				h.SetDraining()
			}
			mux := http.NewServeMux()
			h.Mount(mux)
			for _, probe := range []struct {
				path string
				code int
				body string
			}{{"/healthz", 200, "ok"}, {"/readyz", tc.want, tc.body}} {
				rec := httptest.NewRecorder()
				mux.ServeHTTP(rec, httptest.NewRequest("GET", probe.path, nil))
				if rec.Code != probe.code || strings.TrimSpace(rec.Body.String()) != probe.body {
					t.Errorf("%s: %d %q, want %d %q", probe.path, rec.Code, rec.Body.String(), probe.code, probe.body)
				}
				// internals (driver errors) never reach the answer
				if strings.Contains(rec.Body.String(), "dial") || strings.Contains(rec.Body.String(), "relation") {
					t.Errorf("%s leaks the error: %q", probe.path, rec.Body.String())
				}
			}
		})
	}
}

// A schema does not go back: once current, later probes only ping.
func TestReadinessChecksMigrationsUntilCurrent(t *testing.T) {
	db := &fakeDB{current: false}
	h := NewHealth(db, 0)
	if err := h.Ready(context.Background()); !errors.Is(err, ErrMigrationsPending) {
		t.Fatalf("Ready = %v, want pending", err)
	}
	db.current = true
	for range 3 {
		if err := h.Ready(context.Background()); err != nil {
			t.Fatalf("Ready = %v", err)
		}
	}
	if db.checks != 2 {
		t.Errorf("migrations checked %d times, want 2 (until current)", db.checks)
	}
	db.pingErr = errors.New("gone")
	if err := h.Ready(context.Background()); !errors.Is(err, ErrDatabase) {
		t.Errorf("Ready after the database went = %v", err)
	}
}
