package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"members/internal/app"
)

// call runs the command like main does and returns what main would print.
func call(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

// demoDB is a fresh SQLite database with the demo data, as `serve --demo`
// seeds it; it returns its DSN.
func demoDB(t *testing.T) string {
	t.Helper()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_, feats, err := a.Server(ctx, app.Config{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	feats.Close()
	return dsn
}

func TestRunFailures(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	tests := []struct {
		name    string
		args    []string
		want    string // in the error line
		noUsage bool   // nothing but the error line on stderr
	}{
		{"no command", nil, "no command", false},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`, false},
		{"bad flag", []string{"migrate", "--nope"}, "flag provided but not defined: -nope", true},
		{"bad serve flag", []string{"serve", "--demo=maybe"}, "invalid boolean value", true},
		{"bad memory limit", []string{"serve", "--db", dsn, "--go-memory-limit", "lots"}, `--go-memory-limit: "lots" is not a number of MiB`, true},
		{"stray argument", []string{"migrate", "--db", dsn, "extra"}, `unexpected argument "extra"`, true},
		{"unreachable postgres", []string{"migrate", "--db", "postgres://postgres@127.0.0.1:1/x"}, "connect to postgres database", true},
		{"unknown admin setting", []string{"admin", "nope", "--db", dsn}, `unknown setting "nope"`, false},
		{"bad admin value", []string{"admin", "origin-access", "--enabled", "--limit", "0", "--db", dsn}, "limit and window", true},
		{"bad listen address", []string{"serve", "--db", dsn, "--gateway-sandbox", "--addr", "127.0.0.1:99999"}, "listen on 127.0.0.1:99999", true},
		{"no payment gateway", []string{"serve", "--db", dsn}, "no payment gateway: give --gateway-url", true},
		{"gateway without its secrets", []string{"serve", "--db", dsn, "--gateway-url", "https://pay.example.com/gateway"}, "--gateway-url needs --gateway-key and --gateway-webhook-secret", true},
		{"two gateways", []string{"serve", "--db", dsn, "--gateway-sandbox", "--gateway-url", "https://pay.example.com/gateway", "--gateway-key", "k", "--gateway-webhook-secret", "s"}, "choose one gateway", true},
		{"retired hand-over secret", []string{"serve", "--db", dsn, "--gateway-sandbox", "--addr", "127.0.0.1:0", "--handover-secret", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="}, "--handover-secret is retired", true},
		{"not an OIDC signing key", []string{"serve", "--db", dsn, "--gateway-sandbox", "--addr", "127.0.0.1:0", "--oidc-signing-key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"}, "--oidc-signing-key: parse key", true},
		{"missing OIDC key file", []string{"serve", "--db", dsn, "--gateway-sandbox", "--addr", "127.0.0.1:0", "--oidc-signing-key", "/no/such/key.pem"}, "--oidc-signing-key: open /no/such/key.pem", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, err := call(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			line := oneLine(err)
			if strings.ContainsAny(line, "\n\r") || !strings.Contains(line, tt.want) {
				t.Errorf("error line %q, want one line containing %q", line, tt.want)
			}
			if tt.noUsage && stderr != "" {
				t.Errorf("stderr besides the error line: %q", stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	out, _, err := call(t, "help")
	if err != nil || !strings.Contains(out, "serve") || !strings.Contains(out, "migrate") {
		t.Errorf("help = %q, %v", out, err)
	}
	if out, _, err := call(t, "admin", "help"); err != nil || !strings.Contains(out, "gogo-pass") {
		t.Errorf("admin help = %q, %v", out, err)
	}
}

func TestMigrate(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "sub", "m.db")
	for i := 0; i < 2; i++ {
		out, _, err := call(t, "migrate", "--db", dsn)
		if err != nil || !strings.Contains(out, "up to date") {
			t.Fatalf("migrate #%d = %q, %v", i+1, out, err)
		}
	}
}

func TestAdminSettingsAreServed(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	if _, _, err := call(t, "admin", "gogo-pass", "--public", "--purchasable", "--db", dsn); err != nil {
		t.Fatal(err)
	}
	if _, _, err := call(t, "admin", "coupon-ticket", "--public", "--db", dsn); err != nil {
		t.Fatal(err)
	}
	if _, _, err := call(t, "admin", "topic-banner", "--active", "--message1", "Hello", "--db", dsn); err != nil {
		t.Fatal(err)
	}
	out, _, err := call(t, "admin", "show", "--db", dsn)
	if err != nil {
		t.Fatal(err)
	}
	var shown map[string]map[string]any
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatalf("admin show: %v\n%s", err, out)
	}
	gp := shown["gogo_pass_status"]
	if gp["isGogoPassPublic"] != true || gp["isGogoPassPurchasable"] != true || gp["isGogoPassLotteryPhase"] != false {
		t.Errorf("admin show gogo_pass_status = %v", gp)
	}
	if shown["coupon_ticket_status"]["isCouponTicketPublic"] != true {
		t.Errorf("coupon = %v", shown["coupon_ticket_status"])
	}
	if shown["origin_access"]["enabled"] != false {
		t.Errorf("origin access = %v", shown["origin_access"])
	}

	// The server on the same database serves them.
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h, feats, err := a.Server(ctx, app.Config{Revision: "r"})
	if err != nil {
		t.Fatal(err)
	}
	defer feats.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	for path, want := range map[string]string{
		"/api/gogo_pass_status":     `"isGogoPassPublic":true,"isGogoPassPurchasable":true,"isGogoPassLotteryPhase":false`,
		"/api/coupon_ticket_status": `"isCouponTicketPublic":true`,
		"/api/topic_banner":         `"is_active":true`,
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s = %d %s, want %s", path, resp.StatusCode, b, want)
		}
	}

	// Flags not given are reset: the command sets the whole value.
	if _, _, err := call(t, "admin", "gogo-pass", "--lottery", "--db", dsn); err != nil {
		t.Fatal(err)
	}
	gps, err := a.Platform.GogoPassStatus(ctx)
	if err != nil || gps.IsGogoPassPublic || !gps.IsGogoPassLotteryPhase {
		t.Errorf("after gogo-pass --lottery: %+v, %v", gps, err)
	}
}

// Operator commands take their flags before or after the other arguments.
func TestParseArgsAnyOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		wantPos []string
		wantDB  string
		wantErr string
	}{
		{"flags first", []string{"--db", "x.db", "ID1"}, []string{"ID1"}, "x.db", ""},
		{"flags last", []string{"ID1", "--db", "x.db"}, []string{"ID1"}, "x.db", ""},
		{"between", []string{"A", "--db=x.db", "B"}, []string{"A", "B"}, "x.db", ""},
		{"after --", []string{"--db", "x.db", "--", "--not-a-flag"}, []string{"--not-a-flag"}, "x.db", ""},
		{"unknown flag after an argument", []string{"ID1", "--nope"}, nil, "", "flag provided but not defined: -nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("mail show", flag.ContinueOnError)
			db := fs.String("db", "", "")
			pos, err := parseArgs(fs, tt.args, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || strings.Join(pos, " ") != strings.Join(tt.wantPos, " ") || *db != tt.wantDB {
				t.Fatalf("pos %q db %q err %v, want %q db %q", pos, *db, err, tt.wantPos, tt.wantDB)
			}
		})
	}
	// The command itself: the ID before --db reaches the outbox of that database.
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	if _, _, err := call(t, "migrate", "--db", dsn); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"mail", "show", "nosuch", "--db", dsn}, {"mail", "show", "--db", dsn, "nosuch"}} {
		if _, _, err := call(t, args...); err == nil || !strings.Contains(err.Error(), `no message "nosuch"`) {
			t.Errorf("%q: err = %v, want the outbox's not-found", args, err)
		}
	}
}
