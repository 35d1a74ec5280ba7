package apitest

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"members/internal/auth"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/store"
)

// OpenDemoDB opens a fresh database of engine with the demo data, for the
// tests of a domain service built on the real store, and the password
// hasher the demo members' hashes were made with: a cheap argon2id (the
// demo's logins verify; a service test does not measure hashing).
func OpenDemoDB(t testing.TB, engine store.Engine) (*store.DB, *auth.Hasher) {
	t.Helper()
	db := OpenDB(t, engine)
	hasher := auth.NewHasher(auth.PasswordCost{Time: 1, MemoryKiB: 64, Threads: 1})
	if err := demo.Load(context.Background(), db, hasher); err != nil {
		t.Fatal(err)
	}
	return db, hasher
}

// Catalog is the server's message catalogue.
func Catalog(t testing.TB) *i18n.Catalog {
	t.Helper()
	cat, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Kept keeps what a fake is given (a mail, an event), safe for the
// service's goroutines.
type Kept[T any] struct {
	mu   sync.Mutex
	list []T
}

// Keep keeps v.
func (k *Kept[T]) Keep(v T) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.list = append(k.list, v)
}

// List returns what was kept so far, oldest first.
func (k *Kept[T]) List() []T {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]T(nil), k.list...)
}

// Mails is a mailer that keeps what it is given, for a service's tests.
type Mails struct{ Kept[mail.Message] }

// Send keeps m.
func (o *Mails) Send(_ context.Context, m mail.Message) error {
	o.Keep(m)
	return nil
}

// Quiet is a logger that writes nowhere, for a service under test.
func Quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
