package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"testing"

	"members/internal/store"
)

// The per-connection statement cache (sqlitestmts.go) must not change what
// any statement does: repeats, a query inside the loop of the same query,
// a failed statement followed by a good one, a script of two statements,
// a schema change under a cached statement, and transactions.
func TestSQLiteStatementCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// a script: both statements run (scripts are never cached)
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL); CREATE TABLE u (id INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	ins := `INSERT INTO t (id, v) VALUES ($1, $2)`
	for i := 1; i <= 5; i++ {
		if _, err := db.ExecContext(ctx, ins, i, "v"); err != nil {
			t.Fatal(err)
		}
	}
	// a constraint error on the cached statement, then it works again
	if _, err := db.ExecContext(ctx, ins, 1, "dup"); err == nil {
		t.Fatal("duplicate id accepted")
	}
	if _, err := db.ExecContext(ctx, ins, 6, "v"); err != nil {
		t.Fatalf("after an error: %v", err)
	}
	// the same query inside its own loop (on one connection: a transaction)
	sel := `SELECT id FROM t WHERE id >= $1 ORDER BY id`
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, sel, 5)
		if err != nil {
			return err
		}
		defer rows.Close()
		var outer, inner []int
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				return err
			}
			outer = append(outer, id)
			r2, err := tx.QueryContext(ctx, sel, 6)
			if err != nil {
				return err
			}
			for r2.Next() {
				var j int
				_ = r2.Scan(&j)
				inner = append(inner, j)
			}
			if err := r2.Close(); err != nil {
				return err
			}
		}
		if len(outer) != 2 || outer[0] != 5 || outer[1] != 6 || len(inner) != 2 || inner[0] != 6 || inner[1] != 6 {
			t.Errorf("nested: outer %v inner %v", outer, inner)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	// a rolled back transaction leaves nothing; the cached insert still works
	_ = db.Tx(ctx, func(tx *sql.Tx) error {
		_, _ = tx.ExecContext(ctx, ins, 7, "rolled back")
		return sql.ErrTxDone
	})
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil || n != 6 {
		t.Fatalf("count %d %v", n, err)
	}
	// a schema change under a cached statement
	star := `SELECT * FROM t WHERE id = $1`
	var id int
	var v string
	if err := db.QueryRowContext(ctx, star, 1).Scan(&id, &v); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'w'`); err != nil {
		t.Fatal(err)
	}
	var w string
	if err := db.QueryRowContext(ctx, star, 1).Scan(&id, &v, &w); err != nil || w != "w" {
		t.Fatalf("after ALTER: %q %v", w, err)
	}
	// many distinct statements (beyond the cache's bound) all run
	for i := range 300 {
		var got int
		if err := db.QueryRowContext(ctx, `SELECT $1 + `+strconv.Itoa(i), 1).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("statement %d: %d %v", i, got, err)
		}
	}
}
