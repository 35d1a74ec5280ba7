//go:build upgradefixture

// The maker of an upgrade fixture. scripts/make-upgrade-fixture.sh copies
// this file into a checkout of the release being fixed (a git worktree of
// its commit) and runs it there, so the database is made by that
// release's own code: its migrations, its demo data, its payment engine,
// its hashes. It uses only what every release has kept (apitest, the HTTP
// API, app.PointsService); adapt it when one of those changes, in the
// same commit.
//
//	UPGRADE_FIXTURE_OUT=testdata/upgrade/<release> go test -tags upgradefixture -run TestMakeUpgradeFixture ./internal/upgrade/
package upgrade_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/platform"
	"members/internal/points"
	"members/internal/store"
)

func TestMakeUpgradeFixture(t *testing.T) {
	out := os.Getenv("UPGRADE_FIXTURE_OUT")
	if out == "" {
		t.Fatal("UPGRADE_FIXTURE_OUT names the folder of the fixture")
	}
	if err := os.MkdirAll(out, 0o750); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []store.Engine{store.SQLite, store.Postgres} {
		t.Run(string(engine), func(t *testing.T) { makeFixture(t, engine, out) })
	}
}

func makeFixture(t *testing.T, engine store.Engine, out string) {
	ctx := context.Background()
	dsn := apitest.DSN(t, engine)
	env := apitest.NewOn(t, engine, dsn, func(c *app.Config) {
		c.GatewaySlow = 3 * time.Second
		c.GatewayTimeout = 1500 * time.Millisecond
	})
	if err := env.App.Platform.Set(ctx, platform.KeyCouponTicket, platform.CouponTicketStatus{IsCouponTicketPublic: true}); err != nil {
		t.Fatal(err)
	}
	m := manifest{Release: os.Getenv("UPGRADE_FIXTURE_RELEASE"), Engine: string(engine), MemberEmail: apitest.DemoEmail}
	c := env.Member(t)

	// a card saved for yen, and a yen points purchase with it
	tok := tokenize(t, env, "4242424242424242")
	r := c.Do(http.MethodPost, "/api/cc/register", map[string]string{"token": tok, "currency": "JPY"})
	if r.Status != http.StatusOK {
		t.Fatalf("register card = %d %s", r.Status, r.Body)
	}
	var reg struct{ Creditcard struct{ Token string } }
	r.JSON(t, &reg)
	m.SavedCard = reg.Creditcard.Token
	p := settle(t, env, c, "peachpoints", map[string]any{"nominee": "Hanako Yamada", "currencyCode": "JPY", "amount": 3000,
		"paymentMethod": "creditCard", "creditCardToken": m.SavedCard})
	var goods struct{ PointNumber string }
	_ = json.Unmarshal(p["goods"], &goods)
	m.BoughtPoints = goods.PointNumber

	// a coupon pass, to be refunded after the upgrade
	p = settle(t, env, c, "coupon_ticket", map[string]any{"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin,
		"fareType": "lite", "agreeTerms": true, "paymentMethod": "creditCard", "creditCardToken": tokenize(t, env, "4242424242424242")})
	var cg struct {
		CouponTicket struct {
			ID           string
			RefundAmount int64
		}
	}
	if err := json.Unmarshal(p["goods"], &cg); err != nil || cg.CouponTicket.ID == "" {
		t.Fatalf("coupon goods %s: %v", p["goods"], err)
	}
	m.CouponID, m.CouponRefund = cg.CouponTicket.ID, cg.CouponTicket.RefundAmount

	// a voucher the release issued (its PIN hashed by the release), expired: reissuable
	svc, err := env.App.PointsService(app.Config{})
	if err != nil {
		t.Fatal(err)
	}
	amount, err := points.ParseAmount("1000", "TWD")
	if err != nil {
		t.Fatal(err)
	}
	v, pin, err := svc.Issue(ctx, points.IssueInput{Email: apitest.DemoEmail, Currency: "TWD", Amount: amount, Expired: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Voucher, m.VoucherPIN = v.Number, pin

	// member 2's purchase left pending: the card whose authorisation
	// outlives the gateway timeout, and no background work to finish it
	c2 := env.Member2(t)
	body := map[string]any{"nominee": "Taro Yamada", "currencyCode": "JPY", "amount": 3000, "paymentMethod": "creditCard",
		"creditCardToken": tokenize(t, env, "4000000000000119"), "requestId": requestID()}
	pp := process(t, c2.Do(http.MethodPost, "/api/peachpoints/buy", body))
	pp = process(t, c2.Do(http.MethodPost, "/api/peachpoints/buy/"+str(pp["paymentProcessId"])+"/continue", nil))
	if str(pp["status"]) != "pending" {
		t.Fatalf("member 2's purchase is %s, want pending", pp["status"])
	}
	m.Pending = str(pp["paymentProcessId"])

	// the session of member 1, still open
	if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
		t.Fatalf("session = %d", r.Status)
	}
	m.Session = c.Cookie("members_session")
	m.Now = env.Clock.Now().UTC()
	m.Rows = rowCounts(t, env.App.DB)
	for _, table := range []string{"members", "sessions", "saved_cards", "point_vouchers", "gogo_passes", "coupons", "payment_processes", "mail_outbox"} {
		if m.Rows[table] == 0 {
			t.Errorf("the fixture has no %s", table)
		}
	}

	dir := filepath.Join(out, string(engine))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if engine == store.SQLite {
		// one file with no WAL beside it, gzipped: mostly empty pages
		tmp := filepath.Join(t.TempDir(), "members.sqlite")
		if _, err := env.App.DB.Exec(`VACUUM INTO '` + tmp + `'`); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(tmp) // #nosec G304 -- the test's own temporary file
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		_, _ = zw.Write(raw)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "members.sqlite.gz"), gz.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	} else {
		dumpPostgres(t, dsn, filepath.Join(dir, "members.sql"))
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
}

// dumpPostgres writes the test schema as plain SQL INSERTs (no COPY: the
// test loads it through database/sql), with its name replaced by
// SchemaPlaceholder.
func dumpPostgres(t *testing.T, dsn, path string) {
	t.Helper()
	m := regexp.MustCompile(`search_path=([a-z0-9_]+)`).FindStringSubmatch(dsn)
	if m == nil {
		t.Fatalf("no schema in %s", dsn)
	}
	schema := m[1]
	var stderr bytes.Buffer
	cmd := exec.Command("pg_dump", "--schema="+schema, "--no-owner", "--no-privileges", "--inserts", "--rows-per-insert=100",
		"--no-comments", "--no-publications", "--no-subscriptions", "--no-security-labels", "--no-tablespaces", apitest.PostgresURL())
	cmd.Stderr = &stderr
	sql, err := cmd.Output()
	if err != nil {
		t.Fatalf("pg_dump: %v: %s", err, stderr.String())
	}
	var keep []string
	for _, line := range strings.Split(string(sql), "\n") {
		// the client settings of the dumping pg_dump, its version lines and
		// the schema's creation: the test makes the schema
		if strings.HasPrefix(line, "SET ") || strings.HasPrefix(line, "SELECT pg_catalog.set_config") ||
			strings.HasPrefix(line, "CREATE SCHEMA ") || strings.HasPrefix(line, "\\") || strings.HasPrefix(line, "-- Dumped") {
			continue
		}
		keep = append(keep, line)
	}
	text := regexp.MustCompile(`\b`+schema+`\b`).ReplaceAllString(strings.Join(keep, "\n"), SchemaPlaceholder)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// rowCounts counts the rows of every table of the database.
func rowCounts(t *testing.T, db *store.DB) map[string]int64 {
	t.Helper()
	names := apitest.Tables(t, db)
	sort.Strings(names)
	out := map[string]int64{}
	for _, n := range names {
		var c int64
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + n).Scan(&c); err != nil {
			t.Fatal(err)
		}
		out[n] = c
	}
	return out
}
