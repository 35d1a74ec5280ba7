package demo_test

import (
	"context"
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// `serve --demo` on a database that already has members but not the demo
// ones (a seed-bench database) starts, with the demo members, their data
// and the sandbox's saved cards; the other members are untouched, and a
// second start loads nothing again.
func TestDemoOnASeedBenchDatabase(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		dsn := apitest.DSN(t, engine)
		db, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if err := demo.SeedBench(ctx, db, "!", 3, 0, 12, apitest.Start, nil); err != nil {
			t.Fatal(err)
		}
		_ = db.Close()

		env := apitest.NewOn(t, engine, dsn)
		c := env.Member(t)
		var cards struct{ Creditcards []map[string]any }
		c.Get("/api/cc").JSON(t, &cards)
		if len(cards.Creditcards) != 4 {
			t.Errorf("the demo member has %d saved cards, want 4 (3 from the sandbox, 1 expired)", len(cards.Creditcards))
		}
		if r := c.Get("/api/reservations/" + demo.DemoPNRFuture); r.Status != http.StatusOK {
			t.Errorf("demo booking = %d", r.Status)
		}
		count := func(q string) int {
			var n int
			if err := env.App.DB.QueryRowContext(ctx, q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count(`SELECT COUNT(*) FROM reservations WHERE pnr LIKE 'B%' AND member_id LIKE 'b%'`); n != 12 {
			t.Errorf("%d bench reservations, want 12", n)
		}
		members := count(`SELECT COUNT(*) FROM members`)
		if members != 5 {
			t.Errorf("%d members, want 3 bench and 2 demo", members)
		}
		env.Instance(t)
		if n := count(`SELECT COUNT(*) FROM members`); n != members {
			t.Errorf("a second start made %d members of %d", n, members)
		}
	})
}

// A database whose other members hold the demo logins refuses the demo
// with a clear reason instead of failing half-way.
func TestDemoLoginsTaken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := apitest.OpenDB(t, store.SQLite)
	if _, err := db.ExecContext(ctx, `INSERT INTO members (id, email, email_key, password_hash, created_at, updated_at) VALUES ('x1', $1, $2, '!', 0, 0)`,
		demo.Email1, store.EmailKey(demo.Email1)); err != nil {
		t.Fatal(err)
	}
	if err := demo.Load(ctx, db, nil); err == nil {
		t.Fatal("the demo loaded over another member's login")
	}
}
