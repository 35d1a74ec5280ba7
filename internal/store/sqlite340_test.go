package store_test

import (
	"context"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
	"members/internal/testtool"
)

// sqlite3 returns the path of the sqlite3 command-line tool: Debian 12's
// (3.40) in CI, where it is required.
func sqlite3(t *testing.T) string {
	t.Helper()
	return testtool.Path(t, "sqlite3", "apt-get install sqlite3")
}

// TestDistributionSQLiteReadsTheDatabase: the sqlite3 of the current
// stable distributions (Debian 12: 3.40) opens a migrated database,
// checks it, and writes bookings through its triggers (00244); the
// search views it keeps are the ones the server's SQLite keeps.
func TestDistributionSQLiteReadsTheDatabase(t *testing.T) {
	t.Parallel()
	bin := sqlite3(t)
	ctx := context.Background()
	dsn := apitest.DSN(t, store.SQLite)
	path := strings.TrimPrefix(dsn, "sqlite:")
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedBench(ctx, db, "!", 2, 0, 4, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(sql string) string {
		t.Helper()
		out, err := exec.Command(bin, "-bail", path, sql).CombinedOutput()
		if err != nil {
			v, _ := exec.Command(bin, "--version").Output()
			t.Fatalf("sqlite3 %s: %s: %v\n%s", strings.TrimSpace(string(v)), sql, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run(`PRAGMA integrity_check`); got != "ok" {
		t.Fatalf("integrity_check: %s", got)
	}
	// writes by the distribution's sqlite3 run the views' triggers there
	r1 := run(`SELECT id FROM reservations ORDER BY id LIMIT 1`)
	r2 := run(`SELECT id FROM reservations ORDER BY id DESC LIMIT 1`)
	run(`INSERT INTO reservation_segments (reservation_id, seg_key, position, status_code, flight, flight_number,
		origin_airport_code, destination_airport_code, depart_at, arrival_at) VALUES ('` + r1 + `', 'first', -1, 'HK', 'XX1', '1', 'KIX', 'NRT', 1, 2);
		UPDATE reservation_passengers SET firstname = 'Ann "Lee"' WHERE reservation_id = '` + r2 + `';
		DELETE FROM reservation_passengers WHERE reservation_id = '` + r2 + `' AND position = (SELECT MIN(position) FROM reservation_passengers WHERE reservation_id = '` + r2 + `')`)
	if got := run(`SELECT json_extract(segments_view, '$[0][0]') FROM reservations WHERE id = '` + r1 + `'`); got != "first" {
		t.Fatalf("the inserted segment (position -1) is not first in the view: %s", got)
	}

	db, err = store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := store.NewBookingStore(db)
	for _, m := range []string{demo.BenchMemberID(0), demo.BenchMemberID(1)} {
		q := booking.Query{MemberID: m, Limit: 50}
		got, err := st.SearchPage(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := st.SearchPageStatements(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Total == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("member %s's page from the views written by sqlite3\n got %+v\nwant %+v", m, got, want)
		}
	}
}
