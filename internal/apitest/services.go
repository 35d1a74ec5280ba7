package apitest

import (
	"context"
	"sync"
	"testing"

	"members/internal/auth"
	"members/internal/demo"
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

// Mails is a mailer that keeps what it is given, for a service's tests.
type Mails struct {
	mu   sync.Mutex
	list []mail.Message
}

// Send keeps m.
func (o *Mails) Send(_ context.Context, m mail.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.list = append(o.list, m)
	return nil
}

// List returns the mails kept so far, oldest first.
func (o *Mails) List() []mail.Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]mail.Message(nil), o.list...)
}
