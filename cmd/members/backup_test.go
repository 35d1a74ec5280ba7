package main

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/store"
)

// TestBackupOfAServingDatabase: `members backup` copies a SQLite database
// while two members buy points on the serving binary; the copy checks,
// is consistent (every settled purchase in it has its voucher, none
// without), and restored as the database of a new server it logs in,
// sells, and keeps every row the backup held.
func TestBackupOfAServingDatabase(t *testing.T) {
	dir := t.TempDir()
	dsn := "sqlite:" + filepath.Join(dir, "live.db")
	srv := startServer(t, dsn)
	bin := membersBinary(t)

	// Purchases, one after the other per member, until told to stop.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var settled atomic.Int64
	for _, email := range []string{apitest.DemoEmail, apitest.Demo2Email} {
		m := newMemberAs(t, srv.base(), email, apitest.DemoPassword)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				id := m.buy(m.tokenize("4242424242424242"))
				if m.settle(id, 30*time.Second) == "settled" {
					settled.Add(1)
				}
			}
		}()
	}
	for settled.Load() < 3 {
		time.Sleep(50 * time.Millisecond)
	}
	backup := filepath.Join(dir, "backup.db")
	out, err := exec.Command(bin, "backup", "--db", dsn, "--out", backup).CombinedOutput() // #nosec G204 -- the test's own binary
	during := settled.Load()
	for settled.Load() < during+3 { // the purchases went on after the copy too
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	report := string(out)
	for _, want := range []string{"integrity_check of the copy: ok", "point_vouchers", "payment_processes", " tables "} {
		if !strings.Contains(report, want) {
			t.Errorf("the backup's report lacks %q:\n%s", want, report)
		}
	}
	// A second backup to the same file is refused; PostgreSQL is sent to pg_dump.
	if out, err := exec.Command(bin, "backup", "--db", dsn, "--out", backup).CombinedOutput(); err == nil || !strings.Contains(string(out), "exists") { // #nosec G204
		t.Errorf("backup over an existing file: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "backup", "--db", "postgres://127.0.0.1/test", "--out", filepath.Join(dir, "pg.db")).CombinedOutput(); err == nil || !strings.Contains(string(out), "pg_dump -Fc") { // #nosec G204
		t.Errorf("backup of PostgreSQL: %v %s", err, out)
	}

	ctx := context.Background()
	bak, err := sql.Open("sqlite", "file:"+backup+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer bak.Close()
	count := func(db *sql.DB, q string) int64 {
		t.Helper()
		var n int64
		if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	sold := count(bak, `SELECT COUNT(*) FROM payment_processes WHERE status = 'settled' AND product_type = 'peachpoints'`)
	vouchers := count(bak, `SELECT COUNT(*) FROM point_vouchers WHERE source = 'purchase'`)
	if sold < 3 || sold != vouchers {
		t.Fatalf("the backup holds %d settled purchases and %d bought vouchers", sold, vouchers)
	}
	if n := count(bak, `SELECT COUNT(*) FROM payment_processes p WHERE status = 'settled' AND product_type = 'peachpoints'
		AND NOT EXISTS (SELECT 1 FROM point_vouchers v WHERE v.payment_process_id = p.id)`); n != 0 {
		t.Fatalf("%d settled purchases without their voucher in the backup", n)
	}
	bak.Close()

	// Restore: the copy becomes the database of a new server.
	restored := filepath.Join(dir, "restored.db")
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(restored, b, 0o600); err != nil {
		t.Fatal(err)
	}
	again := startServer(t, "sqlite:"+restored)
	m := newMember(t, again.base())
	if st := m.settle(m.buy(m.tokenize("4242424242424242")), 30*time.Second); st != "settled" {
		t.Fatalf("a purchase on the restored server: %s", st)
	}
	again.kill()

	// Every row of the backup is in the restored database (by its key).
	db, err := store.Open(ctx, "sqlite:"+restored)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `ATTACH DATABASE $1 AS bak`, "file:"+backup+"?mode=ro"); err != nil {
		t.Fatal(err)
	}
	tables := strings.Fields(query(t, db, `SELECT group_concat(name, ' ') FROM bak.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`))
	if len(tables) < 30 {
		t.Fatalf("%d tables in the backup", len(tables))
	}
	for _, table := range tables {
		key := query(t, db, `SELECT COALESCE(group_concat(name, ', '), '*') FROM (SELECT name FROM pragma_table_info('`+table+`', 'bak') WHERE pk > 0 ORDER BY pk)`)
		if n := query(t, db, `SELECT COUNT(*) FROM (SELECT `+key+` FROM bak."`+table+`" EXCEPT SELECT `+key+` FROM main."`+table+`")`); n != "0" {
			t.Errorf("%s rows of %s in the backup are not in the restored database", n, table)
		}
	}
	// A purchase still in flight when the backup was taken is settled by
	// the restored server's background work: one voucher per settled
	// purchase, the new one included.
	n, _ := strconv.ParseInt(query(t, db, `SELECT COUNT(*) FROM point_vouchers WHERE source = 'purchase'`), 10, 64)
	settledNow, _ := strconv.ParseInt(query(t, db, `SELECT COUNT(*) FROM payment_processes WHERE status = 'settled' AND product_type = 'peachpoints'`), 10, 64)
	if n != settledNow || n < vouchers+1 {
		t.Errorf("after the restore and one purchase: %d bought vouchers for %d settled purchases, want one each and at least %d", n, settledNow, vouchers+1)
	}
}

// query returns the one value of q as text.
func query(t *testing.T, db *store.DB, q string) string {
	t.Helper()
	var s sql.NullString
	if err := db.QueryRowContext(context.Background(), q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s.String
}
