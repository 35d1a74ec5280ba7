package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"members/internal/store"
)

// TestLotteryDrawCommand draws the demo entries with a given seed, prints
// the seed and the winners, mails the entrant (outbox) and verifies.
func TestLotteryDrawCommand(t *testing.T) {
	t.Parallel()
	dsn := demoDB(t)
	ctx := context.Background()

	if _, _, err := call(t, "lottery", "verify", "--db", dsn); err == nil {
		t.Error("verify before any draw must fail")
	}
	out, _, err := call(t, "lottery", "draw", "--seed", "S-2026", "--window", "48h", "--db", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if out != "S-2026\t1\n" {
		t.Errorf("draw printed %q, want the seed and 1 winner", out)
	}
	if out, _, err := call(t, "lottery", "verify", "--db", dsn); err != nil || out != "S-2026\t1\tok\n" {
		t.Errorf("verify = %q %v", out, err)
	}
	if _, _, err := call(t, "lottery", "draw", "--db", dsn); err == nil || !strings.Contains(err.Error(), "no pending entries") {
		t.Errorf("second draw = %v", err)
	}
	if _, _, err := call(t, "lottery", "draw", "--window", "-1h", "--db", dsn); err == nil {
		t.Error("a negative window must be refused")
	}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	msgs, err := store.NewMailOutbox(db).List(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	// The demo entrant (member 2) entered in Korean.
	if len(msgs) != 1 || msgs[0].To != "demo2@example.com" || !strings.Contains(msgs[0].Subject, "당첨") {
		t.Errorf("outbox = %+v", msgs)
	}
}

func TestAdminGogoPassMaintenance(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	if _, _, err := call(t, "admin", "gogo-pass", "--public", "--maintenance", "sometimes", "--db", dsn); err == nil {
		t.Error("an unknown maintenance mode must be refused")
	}
	out, _, err := call(t, "admin", "gogo-pass", "--public", "--maintenance", "on", "--db", dsn)
	if err != nil || !strings.Contains(out, `"mode": "on"`) || !strings.Contains(out, `"isGogoPassMaintenance": true`) {
		t.Fatalf("maintenance on = %v\n%s", err, out)
	}
	out, _, err = call(t, "admin", "gogo-pass", "--public", "--db", dsn)
	if err != nil || !strings.Contains(out, `"mode": "auto"`) {
		t.Fatalf("default is auto = %v\n%s", err, out)
	}
}
