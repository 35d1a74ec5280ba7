package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/store"
)

// The hot reads (the session lookup of every request, the booking search)
// have a pool of their own: with every connection of the main pool taken
// by write transactions, one of them holding SQLite's write lock, a
// session is still read, and a session created or ended on the main pool
// is seen by the next read at once.
func TestHotReadsDoNotWaitBehindWriters(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		st := store.NewAuthStore(db)
		memberID := store.NewID()
		if _, err := db.ExecContext(ctx, `INSERT INTO members (id, email, email_key, password_hash, created_at, updated_at) VALUES ($1, $2, $2, 'x', 0, 0)`,
			memberID, memberID+"@example.com"); err != nil {
			t.Fatal(err)
		}
		now := time.UnixMilli(1_700_000_000_000)
		if err := st.CreateSession(ctx, auth.Session{IDHash: "h1", MemberID: memberID, LogID: "l1", CreatedAt: now, LastSeenAt: now}); err != nil {
			t.Fatal(err)
		}
		// read once through the read pool, so its connection is open
		if _, err := st.SessionByHash(ctx, "h1"); err != nil {
			t.Fatal(err)
		}

		// take every connection of the main pool, the first in a write
		// transaction (on SQLite it holds the write lock)
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE members SET updated_at = 1 WHERE id = $1`, memberID); err != nil {
			t.Fatal(err)
		}
		var conns []*sql.Conn
		for range db.Stats().MaxOpenConnections - 1 {
			c, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		release := func() {
			_ = tx.Rollback()
			for _, c := range conns {
				_ = c.Close()
			}
		}
		if got := db.Stats().InUse; got != db.Stats().MaxOpenConnections {
			release()
			t.Fatalf("%d of %d main connections taken", got, db.Stats().MaxOpenConnections)
		}

		done := make(chan error, 1)
		go func() {
			s, err := st.SessionByHash(ctx, "h1")
			if err == nil && s.MemberID != memberID {
				err = auth.ErrNoSession
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				release()
				t.Fatalf("session read: %v", err)
			}
		case <-time.After(30 * time.Second): // a deadlock, not a speed check
			release()
			t.Fatal("the session read waited for a connection behind the writers")
		}
		release()

		// writes on the main pool are seen by the read pool's next read
		if err := st.DeleteSession(ctx, "h1"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.SessionByHash(ctx, "h1"); err != auth.ErrNoSession {
			t.Fatalf("ended session read as %v, want ErrNoSession", err)
		}
	})
}

// The SQLite read pool refuses writes (query_only): nothing written can
// bypass the main pool's write transactions.
func TestSQLiteReadPoolIsReadOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := store.ReadPoolForTest(db).Stats().MaxOpenConnections; got != 2 {
		t.Fatalf("read pool of %d connections, want 2", got)
	}
	var only int
	if err := db.QueryRowContext(ctx, "PRAGMA query_only").Scan(&only); err != nil || only != 0 {
		t.Fatalf("main pool query_only = %d (%v), want 0", only, err)
	}
	if err := store.ReadPoolForTest(db).QueryRowContext(ctx, "PRAGMA query_only").Scan(&only); err != nil || only != 1 {
		t.Fatalf("read pool query_only = %d (%v), want 1", only, err)
	}
	if _, err := store.ReadPoolForTest(db).ExecContext(ctx, "CREATE TABLE x (id INTEGER)"); err == nil {
		t.Fatal("the read pool wrote")
	}
}
