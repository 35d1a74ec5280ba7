package gateway_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

var allTestCards = []string{"4242424242424242", "5555555555554444", "3530111333300000", "378282246310005", "36227206271667",
	"4000000000000002", "4000000000009995", "4000000000000069", "4000000000003220", "4000000000000119"}

// No card number reaches the gateway's tables (nor, on SQLite, the file).
func TestNoCardNumberStored(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		dsn := apitest.DSN(t, engine)
		db, err := store.Open(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		g := startOn(t, db, apitest.NewClock(apitest.Start))
		for _, n := range allTestCards {
			p := g.create("card", g.tokenize(n), 100)
			if n != "4000000000000119" {
				g.action(p.ID, "authorize", nil, 200)
			}
		}
		var dump strings.Builder
		for _, table := range []string{"gw_keys", "gw_tokens", "gw_payments", "gw_idempotency", "gw_events", "gw_deliveries"} {
			dumpTable(t, db.DB, table, &dump)
		}
		if !strings.Contains(dump.String(), "4242") {
			t.Fatal("the dump holds no last four digits: it dumped nothing")
		}
		for _, n := range allTestCards {
			if strings.Contains(dump.String(), n) {
				t.Fatalf("card number %s stored", n)
			}
		}
		if engine == store.SQLite {
			if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(strings.TrimPrefix(dsn, "sqlite:"))
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range allTestCards {
				if bytes.Contains(raw, []byte(n)) {
					t.Fatalf("card number %s in the database file", n)
				}
			}
		}
	})
}

func dumpTable(t *testing.T, db *sql.DB, table string, out *strings.Builder) {
	t.Helper()
	rows, err := db.Query(`SELECT * FROM ` + table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fmt.Fprintf(out, "%v|", v)
		}
		out.WriteString("\n")
	}
}
