package upgrade_test

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// TestUpgradeFromEarlierReleases migrates the database of every earlier
// release kept under testdata/upgrade/ (made by that release's own code:
// scripts/make-upgrade-fixture.sh) with this build, on both engines, and
// checks that nothing was lost and everything in it still works: every
// table keeps its rows, the member's open session, a purchase with the
// saved card, the refund of a coupon bought then, the PIN of a voucher
// issued then, member 2's password and pending purchase.
func TestUpgradeFromEarlierReleases(t *testing.T) {
	releases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "upgrade", "*"))
	if err != nil || len(releases) == 0 {
		t.Fatalf("no fixtures under testdata/upgrade (%v)", err)
	}
	for _, dir := range releases {
		apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
			t.Run(filepath.Base(dir), func(t *testing.T) { checkUpgrade(t, filepath.Join(dir, string(engine)), engine) })
		})
	}
}

// retiredTables were dropped on purpose by a later migration:
// handover_redemptions with the HMAC hand-over tokens (00301), whose ids
// could never be presented again.
var retiredTables = map[string]bool{"handover_redemptions": true}

func checkUpgrade(t *testing.T, dir string, engine store.Engine) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json")) // #nosec G304 -- the repository's fixture
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	dsn := loadFixture(t, dir, engine)
	env := apitest.NewOn(t, engine, dsn, func(c *app.Config) {
		c.GatewaySlow = 3 * time.Second
		c.GatewayTimeout = 1500 * time.Millisecond
	})
	env.Clock.Set(m.Now.Add(time.Minute))

	// every row is still there (the migrations and the start add, never
	// drop), in every table but the retired ones
	for table, before := range m.Rows {
		if retiredTables[table] {
			continue
		}
		var n int64
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
			t.Errorf("table %s of release %s: %v", table, m.Release, err)
			continue
		}
		if n < before {
			t.Errorf("table %s: %d rows after the upgrade, %d before", table, n, before)
		}
	}

	// the session opened before the upgrade
	c := env.Client(t)
	c.SetCookie("members_session", m.Session)
	if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
		t.Fatalf("the old session = %d %s", r.Status, r.Body)
	}
	if r := c.Get("/api/user"); r.Status != http.StatusOK {
		t.Fatalf("user with the old session = %d %s", r.Status, r.Body)
	}

	// a purchase with the card saved before
	var cards struct{ Creditcards []struct{ Token string } }
	c.Get("/api/cc").JSON(t, &cards)
	found := false
	for _, card := range cards.Creditcards {
		found = found || card.Token == m.SavedCard
	}
	if !found {
		t.Fatalf("the saved card %s is not listed: %+v", m.SavedCard, cards)
	}
	body := map[string]any{"nominee": "Hanako Yamada", "currencyCode": "JPY", "amount": 3000, "paymentMethod": "creditCard",
		"creditCardToken": m.SavedCard, "requestId": "upgrade-check-" + m.Engine}
	p := settle(t, env, c, "peachpoints", body)
	var goods struct{ PointNumber string }
	if err := json.Unmarshal(p["goods"], &goods); err != nil || goods.PointNumber == "" || goods.PointNumber == m.BoughtPoints {
		t.Errorf("points bought with the saved card: %s (%v)", p["goods"], err)
	}
	if r := c.Get("/api/peachpoints/vouchers/" + m.BoughtPoints); r.Status != http.StatusOK {
		t.Errorf("the voucher bought before = %d", r.Status)
	}

	// the refund of the coupon bought before
	r := c.Do(http.MethodPost, "/api/user/coupon_ticket/refund", map[string]string{"id": m.CouponID})
	if r.Status != http.StatusOK {
		t.Fatalf("refund of the old coupon = %d %s", r.Status, r.Body)
	}
	var refunded struct {
		CouponTicket struct {
			Disabled     bool
			RefundAmount int64
		}
	}
	r.JSON(t, &refunded)
	if !refunded.CouponTicket.Disabled || refunded.CouponTicket.RefundAmount != m.CouponRefund {
		t.Errorf("refunded coupon %s, want refund %d", r.Body, m.CouponRefund)
	}

	// the PIN of the voucher issued before, and a wrong one refused
	pin := func(p string) int {
		return c.Do(http.MethodPost, "/api/peachpoints/reissue/validate",
			map[string]string{"pointNumber": m.Voucher, "pin": p, "email": m.MemberEmail}).Status
	}
	if got := pin(m.VoucherPIN); got != http.StatusOK {
		t.Errorf("the old voucher's PIN = %d, want 200", got)
	}
	wrong := "00000000"
	if m.VoucherPIN == wrong {
		wrong = "11111111"
	}
	if got := pin(wrong); got != http.StatusBadRequest {
		t.Errorf("a wrong PIN = %d, want 400", got)
	}

	// member 2 logs in with the password set before; the purchase left
	// pending then is finished by this build's background work
	c2 := env.Member2(t)
	env.Clock.Advance(time.Minute)
	if _, err := env.App.Payments.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	var st struct{ Status string }
	if r := c2.Get("/api/payment_processes/" + m.Pending + "/status"); r.Status != http.StatusOK {
		t.Errorf("member 2's pending purchase = %d %s", r.Status, r.Body)
	} else if r.JSON(t, &st); st.Status != "settled" {
		t.Errorf("member 2's purchase left pending is %s after the upgrade, want settled", st.Status)
	}
}

// loadFixture puts the fixture of dir into a fresh database of engine and
// returns its DSN.
func loadFixture(t *testing.T, dir string, engine store.Engine) string {
	t.Helper()
	dsn := apitest.DSN(t, engine)
	if engine == store.SQLite {
		f, err := os.Open(filepath.Join(dir, "members.sqlite.gz")) // #nosec G304 -- the repository's fixture
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		if _, err := io.Copy(&raw, zr); err != nil { // #nosec G110 -- the repository's own small fixture
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimPrefix(dsn, "sqlite:"), raw.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		return dsn
	}
	text, err := os.ReadFile(filepath.Join(dir, "members.sql")) // #nosec G304 -- the repository's fixture
	if err != nil {
		t.Fatal(err)
	}
	schema := regexp.MustCompile(`search_path=([a-z0-9_]+)`).FindStringSubmatch(dsn)
	if schema == nil {
		t.Fatalf("no schema in %s", dsn)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(strings.ReplaceAll(string(text), SchemaPlaceholder, schema[1])); err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	return dsn
}
