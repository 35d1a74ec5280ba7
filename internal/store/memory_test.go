package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"members/internal/store"
)

// SQLite gets one memory budget for the whole pool: every pooled connection
// has its share of the page cache, and SQLite's whole heap has a limit.
func TestSQLiteMemoryBudget(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.Stats().MaxOpenConnections; got != 4 {
		t.Fatalf("pool of %d connections, want 4", got)
	}
	// Hold every connection of the pool at once, so each is checked.
	var conns []interface{ Close() error }
	for i := 0; i < 4; i++ {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var cache, heap int64
		if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA soft_heap_limit").Scan(&heap); err != nil {
			t.Fatal(err)
		}
		if cache != -2730 { // 16 MiB over the 4 + 2 connections of both pools, in KiB (negative: KiB, not pages)
			t.Errorf("connection %d: cache_size %d, want -2730", i, cache)
		}
		if heap != 32<<20 {
			t.Errorf("connection %d: soft_heap_limit %d, want %d", i, heap, 32<<20)
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

// Statements of the hot paths are prepared once and reused; closing the
// database closes them too, and a closed database answers with an error.
func TestPreparedStatementsSurviveReuse(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	auth := store.NewAuthStore(db)
	for i := 0; i < 50; i++ {
		if _, err := auth.SessionByHash(ctx, "missing"); err == nil {
			t.Fatal("a missing session was found")
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.SessionByHash(ctx, "missing"); err == nil {
		t.Fatal("a closed database answered")
	}
}
