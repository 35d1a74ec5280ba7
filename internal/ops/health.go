// Package ops is what an operator and an orchestrator see of a running
// instance: the health endpoints (/healthz, /readyz), the draining state of
// a graceful shutdown, and the Prometheus metrics.
package ops

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"
)

// Database is what readiness asks of the database.
type Database interface {
	PingContext(ctx context.Context) error
	// MigrationsCurrent reports whether every migration of this build is
	// applied.
	MigrationsCurrent(ctx context.Context) (bool, error)
	// WritesFailing reports whether the database refused a write for
	// lack of space a short while ago (a full disk answers pings and
	// reads, and refuses every purchase).
	WritesFailing(ctx context.Context) bool
}

// Health answers the liveness and readiness probes.
type Health struct {
	db       Database
	timeout  time.Duration
	draining atomic.Bool
	// current remembers a successful migrations check: a schema does not
	// go back, so later probes only ping.
	current atomic.Bool
}

// NewHealth returns the probes of an instance over db; each readiness
// check gives up after timeout (zero: 2 s).
func NewHealth(db Database, timeout time.Duration) *Health {
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	return &Health{db: db, timeout: timeout}
}

// SetDraining marks the instance as shutting down: readiness fails from
// now on, so an orchestrator or proxy stops sending it members.
func (h *Health) SetDraining() { h.draining.Store(true) }

// Draining reports whether SetDraining was called.
func (h *Health) Draining() bool { return h.draining.Load() }

// Errors of Ready; their text is what /readyz answers.
var (
	ErrDraining          = errors.New("draining")
	ErrDatabase          = errors.New("database unreachable")
	ErrMigrationsPending = errors.New("migrations pending")
	ErrWritesFailing     = errors.New("database writes failing")
)

// Ready reports why the instance should not get traffic, or nil.
func (h *Health) Ready(ctx context.Context) error {
	if h.Draining() {
		return ErrDraining
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	if err := h.db.PingContext(ctx); err != nil {
		return ErrDatabase
	}
	if !h.current.Load() {
		ok, err := h.db.MigrationsCurrent(ctx)
		if err != nil {
			return ErrDatabase
		}
		if !ok {
			return ErrMigrationsPending
		}
		h.current.Store(true)
	}
	if h.db.WritesFailing(ctx) {
		return ErrWritesFailing
	}
	return nil
}

// Mount adds GET /healthz (the process answers: always 200) and GET
// /readyz (200, or 503 with the reason: draining, database unreachable,
// migrations pending, database writes failing) to mux. Neither needs a session nor reveals more
// than the reason.
func (h *Health) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		plain(w, http.StatusOK, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Ready(r.Context()); err != nil {
			plain(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		plain(w, http.StatusOK, "ready")
	})
}

func plain(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body + "\n"))
}
