package main

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"members/internal/app"
	"members/internal/points"
	"members/internal/store"
)

func TestPointsCommands(t *testing.T) {
	t.Parallel()
	dsn := demoDB(t)
	ctx := context.Background()

	out, _, err := call(t, "points", "issue", "--member", "demo@example.com", "--currency", "sgd", "--amount", "12.50", "--db", dsn)
	if err != nil || !regexp.MustCompile(`^[1-9]\d{15}\t\d{8}\n$`).MatchString(out) {
		t.Fatalf("points issue = %q, %v", out, err)
	}
	number, pin, _ := strings.Cut(strings.TrimSpace(out), "\t")
	out, _, err = call(t, "points", "issue", "--member", "demo2@example.com", "--currency", "TWD", "--amount", "800", "--expired", "--db", dsn)
	if err != nil || !regexp.MustCompile(`^\d{16}\t\d{8}\n$`).MatchString(out) {
		t.Fatalf("points issue --expired = %q, %v", out, err)
	}
	expired, _, _ := strings.Cut(out, "\t")
	out, _, err = call(t, "points", "codes", "--currency", "JPY", "--amount", "3000", "--count", "3", "--ana", "--db", dsn)
	if err != nil || !regexp.MustCompile(`^([A-Z2-9]{12}\t[A-Z2-9]{8}\n){3}$`).MatchString(out) {
		t.Fatalf("points codes = %q, %v", out, err)
	}

	a, err := app.Open(ctx, app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ps := store.NewPointStore(a.DB)
	v, err := ps.ByNumber(ctx, number)
	pins, herr := a.SecretHasher(ctx, app.Config{})
	if err != nil || herr != nil || v.Currency != "SGD" || v.Balance != 1250 || !pins.Verify(pin, v.PinHash) {
		t.Errorf("issued voucher %+v %v", v, err)
	}
	if v, _ := ps.ByNumber(ctx, expired); points.StatusOf(v, points.Today(a.DB.Now())) != points.StatusExpired {
		t.Errorf("--expired voucher: %+v", v)
	}
	code, _, _ := strings.Cut(out, "\t")
	if c, err := ps.CodeByCode(ctx, code); err != nil || !c.Ana || c.Amount != 3000 {
		t.Errorf("code %+v %v", c, err)
	}

	for _, args := range [][]string{
		{"points", "issue", "--member", "nobody@example.com", "--currency", "JPY", "--amount", "1"},
		{"points", "issue", "--member", "demo@example.com", "--currency", "EUR", "--amount", "1"},
		{"points", "issue", "--member", "demo@example.com", "--currency", "JPY", "--amount", "1.5"},
		{"points", "codes", "--currency", "JPY", "--amount", "0"},
		{"points", "nope"},
	} {
		if _, _, err := call(t, append(args, "--db", dsn)...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}
