package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

func TestTranslate(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		db := apitest.OpenDB(t, engine)
		ctx := context.Background()
		ins := `INSERT INTO settings (key, value, updated_at) VALUES ($1, '1', 0)`
		if _, err := db.ExecContext(ctx, ins, "k"); err != nil {
			t.Fatal(err)
		}
		_, err := db.ExecContext(ctx, ins, "k")
		if err == nil {
			t.Fatal("duplicate key accepted")
		}
		if got := store.Translate(err); !errors.Is(got, store.ErrConflict) {
			t.Errorf("duplicate primary key: Translate = %v, want ErrConflict", got)
		}
		// A UNIQUE column (not the primary key), inside a transaction.
		member := `INSERT INTO members (id, email, email_key, password_hash, created_at, updated_at) VALUES ($1, $2, $2, 'x', 0, 0)`
		if _, err := db.ExecContext(ctx, member, store.NewID(), "a@example.com"); err != nil {
			t.Fatal(err)
		}
		err = db.Tx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, member, store.NewID(), "a@example.com")
			return store.Translate(err)
		})
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate unique column: %v, want ErrConflict", err)
		}
		var v string
		err = db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, "none").Scan(&v)
		if got := store.Translate(err); !errors.Is(got, store.ErrNotFound) {
			t.Errorf("no rows: Translate = %v, want ErrNotFound", got)
		}
		// Other errors pass through unchanged; nil stays nil.
		other := fmt.Errorf("boom")
		if store.Translate(other) != other || store.Translate(nil) != nil {
			t.Errorf("Translate changed an unrelated error")
		}
		_, err = db.ExecContext(ctx, `INSERT INTO sessions (id_hash, member_id, log_id, created_at, last_seen_at) VALUES ('h', 'no-such-member', 'l', 0, 0)`)
		if err == nil {
			t.Errorf("foreign key not enforced on %s", engine)
		} else if got := store.Translate(err); errors.Is(got, store.ErrConflict) || errors.Is(got, store.ErrNotFound) {
			t.Errorf("foreign key violation translated to %v", got)
		}
	})
}

func TestCountersConcurrent(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		db := apitest.OpenDB(t, engine)
		c := store.NewCounters(db)
		ctx := context.Background()
		const n = 20
		var wg sync.WaitGroup
		seen := make(chan int, n)
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := c.Incr(ctx, "k", 1000)
				if err != nil {
					errs <- err
					return
				}
				seen <- v
			}()
		}
		wg.Wait()
		close(errs)
		close(seen)
		for err := range errs {
			t.Fatal(err)
		}
		// Every increment returned a distinct count: 1..n.
		got := map[int]bool{}
		for v := range seen {
			got[v] = true
		}
		if len(got) != n {
			t.Errorf("Incr returned %d distinct counts, want %d", len(got), n)
		}
		if v, err := c.Count(ctx, "k", 1000); err != nil || v != n {
			t.Errorf("Count = %d, %v; want %d", v, err, n)
		}
		// Windows and keys are separate.
		if v, _ := c.Count(ctx, "k", 2000); v != 0 {
			t.Errorf("other window = %d", v)
		}
		if v, _ := c.Incr(ctx, "other", 1000); v != 1 {
			t.Errorf("other key = %d", v)
		}
		if err := c.Reset(ctx, "k"); err != nil {
			t.Fatal(err)
		}
		if v, _ := c.Count(ctx, "k", 1000); v != 0 {
			t.Errorf("after Reset = %d", v)
		}
		if v, _ := c.Count(ctx, "other", 1000); v != 1 {
			t.Errorf("Reset touched another key: %d", v)
		}
		if err := c.PurgeBefore(ctx, 1001); err != nil {
			t.Fatal(err)
		}
		if v, _ := c.Count(ctx, "other", 1000); v != 0 {
			t.Errorf("PurgeBefore kept an old window: %d", v)
		}
	})
}

func TestSettings(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		db := apitest.OpenDB(t, engine)
		s := store.NewSettings(db)
		ctx := context.Background()
		type val struct {
			A bool
			B string
		}
		var v val
		if err := s.Get(ctx, "x", &v); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("unset Get = %v, want ErrNotFound", err)
		}
		if err := s.Set(ctx, "x", val{true, "日本"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Get(ctx, "x", &v); err != nil || v != (val{true, "日本"}) {
			t.Fatalf("Get = %+v, %v", v, err)
		}
		if err := s.Set(ctx, "x", val{false, "b"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Get(ctx, "x", &v); err != nil || v != (val{false, "b"}) {
			t.Fatalf("overwritten Get = %+v, %v", v, err)
		}
		// SetIfMissing keeps the first value and returns it.
		var out string
		if err := s.SetIfMissing(ctx, "secret", "first", &out); err != nil || out != "first" {
			t.Fatalf("SetIfMissing = %q, %v", out, err)
		}
		if err := s.SetIfMissing(ctx, "secret", "second", &out); err != nil || out != "first" {
			t.Fatalf("second SetIfMissing = %q, %v; want the first value", out, err)
		}
		// A value that does not decode into v is an error, not a zero value.
		if err := s.Set(ctx, "n", 5); err != nil {
			t.Fatal(err)
		}
		if err := s.Get(ctx, "n", &v); err == nil || errors.Is(err, store.ErrNotFound) {
			t.Errorf("Get of a mistyped value = %v", err)
		}
	})
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		db := apitest.OpenDB(t, engine) // migrated once
		ctx := context.Background()
		if err := store.NewSettings(db).Set(ctx, "keep", "me"); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if err := db.Migrate(ctx); err != nil {
				t.Fatalf("migrate again: %v", err)
			}
		}
		var v string
		if err := store.NewSettings(db).Get(ctx, "keep", &v); err != nil || v != "me" {
			t.Errorf("data after re-migrating = %q, %v", v, err)
		}
	})
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, dsn := range []string{"sqlite:", "postgres://postgres@127.0.0.1:1/x?connect_timeout=2"} {
		db, err := store.Open(ctx, dsn)
		if err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", dsn)
		}
	}
}

func TestNewID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := store.NewID()
		if len(id) != 32 || seen[id] {
			t.Fatalf("NewID %q (len %d, dup %v)", id, len(id), seen[id])
		}
		seen[id] = true
	}
}

// Reserve counts and compares in one statement: 50 parallel reservations
// against a limit of 5 take exactly 5.
func TestCountersReserveIsAtomic(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		db := apitest.OpenDB(t, engine)
		c := store.NewCounters(db)
		ctx := context.Background()
		const n, limit = 50, 5
		var wg sync.WaitGroup
		var mu sync.Mutex
		granted := 0
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := c.Reserve(ctx, "k", 1000, limit)
				if err != nil {
					errs <- err
					return
				}
				if ok {
					mu.Lock()
					granted++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if granted != limit {
			t.Errorf("%d parallel reservations granted %d, want %d", n, granted, limit)
		}
		if v, _ := c.Count(ctx, "k", 1000); v != limit {
			t.Errorf("Count = %d, want %d (a refused reservation counts nothing)", v, limit)
		}
		// Release gives one back, never below zero.
		if err := c.Release(ctx, "k", 1000); err != nil {
			t.Fatal(err)
		}
		if ok, _ := c.Reserve(ctx, "k", 1000, limit); !ok {
			t.Error("no reservation after a release")
		}
		if ok, _ := c.Reserve(ctx, "k", 1000, limit); ok {
			t.Error("reservation beyond the limit after a release")
		}
		for i := 0; i < 10; i++ {
			if err := c.Release(ctx, "fresh", 1000); err != nil {
				t.Fatal(err)
			}
		}
		if v, _ := c.Count(ctx, "fresh", 1000); v != 0 {
			t.Errorf("released below zero: %d", v)
		}
	})
}

// Instances started together on an empty PostgreSQL take turns on the
// migrations (advisory lock): every one of them comes up. Half of them are
// members servers with the in-process sandbox gateway (members migrations,
// then the gateway's), half are standalone gateways (`members gateway`,
// the gateway's migrations alone); each kind has its own lock.
func TestConcurrentMigrations(t *testing.T) {
	t.Parallel()
	for _, engine := range apitest.Engines(t) {
		if engine != store.Postgres {
			continue
		}
		for round := 0; round < 5; round++ {
			dsn := apitest.DSN(t, engine)
			const instances = 6
			errs := make(chan error, instances)
			start := make(chan struct{})
			for i := 0; i < instances; i++ {
				go func() {
					<-start
					db, err := store.Open(context.Background(), dsn)
					if err != nil {
						errs <- err
						return
					}
					defer db.Close()
					if i%2 == 0 {
						if err := db.Migrate(context.Background()); err != nil {
							errs <- err
							return
						}
					}
					_, err = gateway.New(context.Background(), gateway.Options{DB: db.DB, Dialect: string(db.Engine), Now: db.Now})
					errs <- err
				}()
			}
			close(start)
			for i := 0; i < instances; i++ {
				if err := <-errs; err != nil {
					t.Fatalf("round %d: an instance failed to migrate: %v", round, err)
				}
			}
		}
	}
}
