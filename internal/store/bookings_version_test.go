package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// TestBookingsVersion: every kind of change to a member's reservations,
// segments or passengers, by any writer, changes that member's bookings
// version (migration 00032's triggers) and no other member's.
func TestBookingsVersion(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		now := time.Now()
		if err := demo.SeedBench(ctx, db, "!", 2, 0, 4, now, nil); err != nil {
			t.Fatal(err)
		}
		st := store.NewBookingStore(db)
		m1, m2 := demo.BenchMemberID(0), demo.BenchMemberID(1)
		version := func(m string) int64 {
			t.Helper()
			v, err := st.BookingsVersion(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		if v := version("nobody"); v != -1 {
			t.Errorf("unknown member's version = %d, want -1", v)
		}
		var res string
		if err := db.QueryRowContext(ctx, `SELECT id FROM reservations WHERE member_id = $1 ORDER BY id LIMIT 1`, m1).Scan(&res); err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			name   string
			sql    string
			args   []any
			m1, m2 bool // whose version must change
		}{
			{"segment update", `UPDATE reservation_segments SET flight_status = 'DELAYED' WHERE reservation_id = $1`, []any{res}, true, false},
			{"passenger insert", `INSERT INTO reservation_passengers (reservation_id, position, lastname, firstname) VALUES ($1, 99, 'X', 'Y')`, []any{res}, true, false},
			{"passenger update", `UPDATE reservation_passengers SET firstname = 'Z' WHERE reservation_id = $1 AND position = 99`, []any{res}, true, false},
			{"passenger delete", `DELETE FROM reservation_passengers WHERE reservation_id = $1 AND position = 99`, []any{res}, true, false},
			{"segment insert", `INSERT INTO reservation_segments (reservation_id, seg_key, position, status_code, flight, flight_number,
				origin_airport_code, destination_airport_code, depart_at, arrival_at) VALUES ($1, 'extra', 9, 'HK', 'XX1', '1', 'KIX', 'NRT', 1, 2)`, []any{res}, true, false},
			{"segment delete", `DELETE FROM reservation_segments WHERE reservation_id = $1 AND seg_key = 'extra'`, []any{res}, true, false},
			{"reservation update", `UPDATE reservations SET status_code = 'CANCELLED' WHERE id = $1`, []any{res}, true, false},
			{"moved to another member", `UPDATE reservations SET member_id = $2 WHERE id = $1`, []any{res, m2}, true, true},
			{"released", `UPDATE reservations SET member_id = NULL WHERE id = $1`, []any{res}, false, true},
			{"an unowned one changes", `UPDATE reservation_segments SET flight_status = '' WHERE reservation_id = $1`, []any{res}, false, false},
			{"claimed", `UPDATE reservations SET member_id = $2 WHERE id = $1`, []any{res, m1}, true, false},
			{"deleted", `DELETE FROM reservations WHERE id = $1`, []any{res}, true, false},
		}
		for _, s := range steps {
			v1, v2 := version(m1), version(m2)
			if _, err := db.ExecContext(ctx, s.sql, s.args...); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if got := version(m1) != v1; got != s.m1 {
				t.Errorf("%s: member 1's version changed = %v, want %v", s.name, got, s.m1)
			}
			if got := version(m2) != v2; got != s.m2 {
				t.Errorf("%s: member 2's version changed = %v, want %v", s.name, got, s.m2)
			}
		}
		// New bookings (a bulk insert, as the booking feed does).
		v1, v2 := version(m1), version(m2)
		if err := demo.SeedBench(ctx, db, "!", 2, 4, 6, now, nil); err != nil {
			t.Fatal(err)
		}
		if version(m1) == v1 || version(m2) == v2 {
			t.Errorf("insert: versions %d→%d, %d→%d", v1, version(m1), v2, version(m2))
		}
	})
}

// TestMigrateOutOfOrder: a database that has the later migrations but not
// 00032 (it landed after them) gets it on the next start.
func TestMigrateOutOfOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := apitest.OpenDB(t, store.SQLite)
	triggers, err := store.Column(ctx, db.DB, `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%version%'`)
	if err != nil {
		t.Fatal(err)
	}
	if len(triggers) != 9 {
		t.Fatalf("triggers = %v", triggers)
	}
	for _, n := range triggers {
		if _, err := db.ExecContext(ctx, `DROP TRIGGER `+n); err != nil {
			t.Fatal(err)
		}
	}
	// the session lookup's index holds the column (migration 00210)
	for _, q := range []string{`DROP INDEX members_live`, `ALTER TABLE members DROP COLUMN bookings_version`, `DELETE FROM goose_db_version WHERE version_id = 32`} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate with 00032 missing: %v", err)
	}
	if v, err := store.NewBookingStore(db).BookingsVersion(ctx, "nobody"); err != nil || v != -1 {
		t.Fatalf("bookings version after migrating = %d, %v", v, err)
	}
}

// TestBookingTriggersWithoutJIT: on PostgreSQL the booking triggers'
// functions (the bookings version, the search views) run with JIT off
// (migration 00230): compiling their small statements took longer than
// running them.
func TestBookingTriggersWithoutJIT(t *testing.T) {
	t.Parallel()
	// PostgreSQL only: SQLite's triggers are not functions (the CI always
	// has PostgreSQL: apitest.Engines)
	if !slices.Contains(apitest.Engines(t), store.Postgres) {
		return
	}
	db := apitest.OpenDB(t, store.Postgres)
	rows, err := db.QueryContext(context.Background(), `SELECT p.proname, COALESCE(array_to_string(p.proconfig, ','), '')
		FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE n.nspname = current_schema() AND (p.proname LIKE '%_bump_version' OR p.proname LIKE '%_rebuild_view')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var name, config string
		if err := rows.Scan(&name, &config); err != nil {
			t.Fatal(err)
		}
		seen++
		if config != "jit=off" {
			t.Errorf("%s runs with %q, want jit=off", name, config)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != 5 {
		t.Errorf("%d booking trigger functions, want 5 (three version bumps, two views)", seen)
	}
}
