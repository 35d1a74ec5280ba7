package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/demo"
	"members/internal/mail/mailtest"
	"members/internal/payment"
	"members/internal/store"
)

type dataExport struct {
	ExportedAt string                 `json:"exportedAt"`
	MemberID   string                 `json:"memberId"`
	Parts      map[string]interface{} `json:"parts"`
}

func TestDataExport(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		// 20:00 UTC on the 20th is already the 21st in Japan: the file is
		// dated by the Japan calendar.
		env.Clock.Set(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
		c := env.Member(t)
		r := c.Get("/api/me/export")
		if r.Status != http.StatusOK {
			t.Fatalf("export: %d %s", r.Status, r.Body)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") || !strings.Contains(cd, "members-data-2026-11-21.json") {
			t.Fatalf("disposition %q", cd)
		}

		var ex dataExport
		r.JSON(t, &ex)
		var keys []string
		for k := range ex.Parts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		want := []string{"bookings", "calendarSubscription", "connectedSites", "coupons", "mails", "notificationSettings", "passLotteryEntries", "passengers", "passes", "passkeys",
			"payments", "points", "profile", "pushDevices", "savedCards", "securityEvents", "sessions"}
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Fatalf("parts %v", keys)
		}
		body := string(r.Body)
		for _, secret := range []string{"password", "Hash", "token", "secret", "id_hash"} {
			if strings.Contains(strings.ToLower(body), strings.ToLower(secret)) {
				t.Fatalf("export contains %q", secret)
			}
		}
		profile := ex.Parts["profile"].(map[string]any)
		if profile["email"] != apitest.DemoEmail || profile["firstname"] == "" {
			t.Fatalf("profile %v", profile)
		}
		if profile["addressStreet"] == "" || profile["addressStreet"] != profile["address1"] {
			t.Errorf("the street under the spec's name: addressStreet %v, address1 %v", profile["addressStreet"], profile["address1"])
		}
		cards := ex.Parts["savedCards"].([]any)
		if len(cards) == 0 {
			t.Fatal("the demo member's saved cards are missing")
		}
		for _, cc := range cards {
			m := cc.(map[string]any)
			if len(m) != 3 || m["brand"] == "" || len(m["last4"].(string)) != 4 {
				t.Fatalf("a saved card is more than brand and last four: %v", m)
			}
		}
		if !strings.Contains(body, demo.DemoPNRFuture) || strings.Contains(body, demo.DemoPNRMember2) {
			t.Fatal("bookings: own missing or another member's present")
		}
		if len(ex.Parts["points"].([]any)) == 0 || ex.Parts["points"].([]any)[0].(map[string]any)["ledger"] == nil {
			t.Fatalf("points %v", ex.Parts["points"])
		}
		if len(ex.Parts["sessions"].([]any)) == 0 || len(ex.Parts["passengers"].([]any)) == 0 {
			t.Fatalf("sessions/passengers empty")
		}

		// Another member's export holds none of this member's data.
		r2 := env.Member2(t).Get("/api/me/export")
		if strings.Contains(string(r2.Body), apitest.DemoEmail) || strings.Contains(string(r2.Body), demo.DemoPNRFuture) {
			t.Fatal("member 2's export holds member 1's data")
		}
		if r := env.Client(t).Get("/api/me/export"); r.Status != http.StatusForbidden {
			t.Fatalf("anonymous: %d", r.Status)
		}
	})
}

var deletionLink = regexp.MustCompile(`/delete-account/([A-Za-z0-9_-]{43})\?lang=([a-z]{2})`)

func TestAccountDeletion(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		env := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
		ctx := context.Background()
		c := env.Member(t)
		other := env.Member(t) // a second session of the same member
		var memberID string
		if err := env.App.DB.QueryRowContext(ctx, `SELECT id FROM members WHERE email_key = $1`, apitest.DemoEmail).Scan(&memberID); err != nil {
			t.Fatal(err)
		}
		// A card saved through the real sandbox gateway, beside the demo's.
		tok := env.Tokenize(t, "4242424242424242", "123")
		if r := c.Do(http.MethodPost, "/api/cc/register", map[string]any{"token": tok["token"], "gateway": tok["gateway"], "currency": "JPY"}); r.Status != http.StatusOK {
			t.Fatalf("register card: %d %s", r.Status, r.Body)
		}
		cardToken := tok["token"].(string)
		gw := payment.NewHTTPGateway(env.App.Gateway.URL, env.App.Gateway.Key, 5*time.Second)
		if _, err := gw.Token(ctx, cardToken); err != nil {
			t.Fatalf("card unknown at the gateway before: %v", err)
		}

		// A passkey, and a registration left unfinished (its challenge row).
		key := newSoftKey(memberID)
		registerPasskey(t, env, c, key, "Laptop")
		options(t, c, "/api/passkeys/registration/options")

		// Re-authentication: CSRF, a wrong password, then the right one.
		noCSRF := env.Member(t)
		noCSRF.NoCSRF = true
		if r := noCSRF.Do(http.MethodPost, "/api/me/deletion", map[string]string{"password": apitest.DemoPassword}); r.Status != http.StatusForbidden {
			t.Fatalf("without CSRF: %d", r.Status)
		}
		r := c.Do(http.MethodPost, "/api/me/deletion", map[string]string{"password": "Wrong1234"})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "The password is not correct.") {
			t.Fatalf("wrong password: %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodPost, "/api/me/deletion", map[string]string{}); r.Status != http.StatusBadRequest {
			t.Fatalf("no password: %d", r.Status)
		}
		c.Lang = "jp"
		r = c.Do(http.MethodPost, "/api/me/deletion", map[string]string{"password": apitest.DemoPassword})
		if r.Status != http.StatusOK || r.Map(t)["mailSent"] != true {
			t.Fatalf("request: %d %s", r.Status, r.Body)
		}
		d := srv.WaitFor(apitest.DemoEmail).Decode(t)
		m := deletionLink.FindStringSubmatch(string(d.Parts["text/plain"]))
		if d.Subject != "アカウント削除の確認" || m == nil || m[2] != "jp" {
			t.Fatalf("mail %q %s", d.Subject, d.Parts["text/plain"])
		}
		token := m[1]

		// The link is the member's alone, and nothing is deleted before it.
		if r := env.Member2(t).Do(http.MethodPost, "/api/me/deletion/validate", map[string]string{"token": token}); r.Status != http.StatusNotFound {
			t.Fatalf("member 2 validates: %d", r.Status)
		}
		if r := env.Member2(t).Do(http.MethodPost, "/api/me/deletion/confirm", map[string]string{"token": token}); r.Status != http.StatusNotFound {
			t.Fatalf("member 2 confirms: %d", r.Status)
		}
		for _, bad := range []string{"", "x", strings.Repeat("A", 43)} {
			if r := c.Do(http.MethodPost, "/api/me/deletion/validate", map[string]string{"token": bad}); r.Status != http.StatusNotFound {
				t.Fatalf("token %q: %d", bad, r.Status)
			}
		}
		if r := c.Do(http.MethodPost, "/api/me/deletion/validate", map[string]string{"token": token}); r.Status != http.StatusNoContent {
			t.Fatalf("validate: %d %s", r.Status, r.Body)
		}

		var payments, coupons int
		_ = env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM payment_processes WHERE member_id = $1`, memberID).Scan(&payments)
		_ = env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM coupons WHERE member_id = $1`, memberID).Scan(&coupons)

		// The point balances the member loses are confirmed one by one.
		if r := c.Do(http.MethodPost, "/api/me/deletion/confirm", map[string]string{"token": token}); r.Status != http.StatusConflict {
			t.Fatalf("confirm without the losses confirmed: %d %s", r.Status, r.Body)
		}
		var losses deletionLosses
		c.Get("/api/me/deletion/losses").JSON(t, &losses)
		if len(losses.Points) == 0 || losses.PendingPayment != nil {
			t.Fatalf("losses %+v", losses)
		}
		if r := c.Do(http.MethodPost, "/api/me/deletion/confirm", map[string]any{"token": token, "acknowledged": losses.acks()}); r.Status != http.StatusNoContent {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}

		// The goodbye mail confirms it, over real SMTP, in the member's language,
		// and the outbox no longer holds the name once it is sent.
		var bye mailtest.Decoded
		for deadline := time.Now().Add(5 * time.Second); bye.Subject == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			for _, got := range srv.Messages() {
				if d := got.Decode(t); d.Subject == "アカウントを削除しました" {
					bye = d
				}
			}
		}
		if text := string(bye.Parts["text/plain"]); !strings.Contains(text, "アカウントとその情報をすべて削除しました") || !strings.Contains(text, "Yamada") || strings.Contains(text, "/delete-account/") {
			t.Fatalf("goodbye mail: %s", text)
		}
		var stored string
		if err := env.App.DB.QueryRowContext(ctx, `SELECT text_body || html_body FROM mail_outbox WHERE kind = 'account_deleted'`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stored, "Yamada") || strings.Contains(stored, "Hanako") {
			t.Errorf("the outbox keeps the name: %s", stored)
		}

		// Every session has ended; the member cannot log in.
		for _, cl := range []*apitest.Client{c, other} {
			if r := cl.Get("/api/session"); r.Status != http.StatusForbidden {
				t.Fatalf("session after deletion: %d", r.Status)
			}
		}
		login := env.Client(t)
		if r := login.Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}); r.Status == http.StatusNoContent || r.Status == http.StatusOK {
			t.Fatalf("a deleted member logged in: %d", r.Status)
		}

		// Personal data gone; cards deleted at the gateway; payments and
		// vouchers kept without names; bookings no longer linked.
		var email, first, passport string
		var deletedAt *int64
		if err := env.App.DB.QueryRowContext(ctx, `SELECT email, firstname, passport_no, deleted_at FROM members WHERE id = $1`, memberID).
			Scan(&email, &first, &passport, &deletedAt); err != nil {
			t.Fatal(err)
		}
		if email != "" || first != "" || passport != "" || deletedAt == nil {
			t.Fatalf("member row %q %q %q %v", email, first, passport, deletedAt)
		}
		for q, want := range map[string]int{
			`SELECT COUNT(*) FROM passengers WHERE member_id = $1`:                                                     0,
			`SELECT COUNT(*) FROM sessions WHERE member_id = $1`:                                                       0,
			`SELECT COUNT(*) FROM passkeys WHERE member_id = $1`:                                                       0,
			`SELECT COUNT(*) FROM webauthn_challenges WHERE member_id = $1`:                                            0,
			`SELECT COUNT(*) FROM saved_cards WHERE member_id = $1`:                                                    0,
			`SELECT COUNT(*) FROM reservations WHERE member_id = $1`:                                                   0,
			`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1`:                                              payments,
			`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1 AND card_holder <> ''`:                        0,
			`SELECT COUNT(*) FROM coupons WHERE member_id = $1`:                                                        coupons,
			`SELECT COUNT(*) FROM coupons WHERE member_id = $1 AND purchaser_lastname <> ''`:                           0,
			`SELECT COUNT(*) FROM mail_outbox WHERE LOWER(to_addr) = 'demo@example.com' AND kind <> 'account_deleted'`: 0,
			`SELECT COUNT(*) FROM reservations WHERE pnr = '` + demo.DemoPNRFuture + `'`:                               1,
		} {
			var n int
			arg := []any{memberID}
			if !strings.Contains(q, "$1") {
				arg = nil
			}
			if err := env.App.DB.QueryRowContext(ctx, q, arg...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Fatalf("%s = %d, want %d", q, n, want)
			}
		}
		if _, st := passkeyLogin(t, env, key); st != http.StatusUnauthorized {
			t.Errorf("passkey sign-in after deletion: %d", st)
		}
		if _, err := gw.Token(ctx, cardToken); !errors.Is(err, payment.ErrUnknownToken) {
			t.Fatalf("the saved card is still at the gateway: %v", err)
		}

		// The address can register again (the unique e-mail key is free).
		if _, err := env.App.DB.ExecContext(ctx, `INSERT INTO members (id, email, email_key, password_hash, created_at, updated_at)
			VALUES ('re-registered', $1, $1, 'x', 0, 0)`, apitest.DemoEmail); err != nil {
			t.Fatalf("the address cannot register again: %v", err)
		}
	})
}
