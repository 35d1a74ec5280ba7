package payment

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"members/internal/apperr"
)

// Engine is the payment engine: the products, the processes in the
// database and the gateway. Its state lives in the store only, so several
// instances share one database.
type Engine struct {
	store Store
	audit AuditStore
	gw    Gateway
	cfg   Config
	now   func() time.Time
	log   *slog.Logger
	owner string

	mu       sync.RWMutex
	products map[string]Product

	// unreturned are the leases this instance could not give back (the
	// database refused the release): process id → the lease's end
	// (leases.go).
	unreturnedMu sync.Mutex
	unreturned   map[string]time.Time
}

// NewEngine returns an engine without products.
func NewEngine(s Store, gw Gateway, cfg Config, now func() time.Time, log *slog.Logger) *Engine {
	cfg.defaults()
	return &Engine{store: s, audit: s, gw: gw, cfg: cfg, now: now, log: log, owner: "w" + randomID(), products: map[string]Product{},
		unreturned: map[string]time.Time{}}
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// register adds a product (Register). Registering a type twice panics: it is a wiring
// mistake found at start-up.
func (e *Engine) register(p Product) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.products[p.Type()]; ok {
		panic("payment: product registered twice: " + p.Type())
	}
	e.products[p.Type()] = p
}

// replace registers p in place of the product of the same type (Replace).
func (e *Engine) replace(p Product) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.products[p.Type()] = p
}

// product returns a registered product (404 otherwise).
func (e *Engine) product(t string) (Product, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	p, ok := e.products[t]
	if !ok {
		return nil, apperr.ErrNotFound
	}
	return p, nil
}

// Gateway is the engine's gateway (the cards service shares it).
func (e *Engine) Gateway() Gateway { return e.gw }

// idemKey is the idempotency key of a step of a process: the same step of
// the same process is the same key, whoever repeats it and whenever.
func idemKey(processID, step string) string { return "pp_" + processID + "_" + step }
