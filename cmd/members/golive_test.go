package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/mail/mailtest"
	"members/internal/store"
	"members/internal/stripe/stripefake"
)

// TestGoingLive does the "Going live" steps of docs/operations.md on an
// empty database, without --demo, on both engines: migrate; serve with
// the feeds' secrets and Stripe (the stand-in); apply the example
// catalogue; open the sales. A member provisioned by the booking site
// without a password gets the set-password mail, sets one and logs in;
// a booking pushed by the reservation system shows in their bookings;
// they buy a pass of the catalogue through Stripe; the booking site
// erases them: their personal data goes, the payment record stays.
func TestGoingLive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	const membersSecret, bookingsSecret = "live-members-feed-secret-0123456789", "live-bookings-feed-secret-0123456789"
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		dsn := apitest.DSN(t, engine)
		bin := membersBinary(t)
		run := func(args ...string) string {
			t.Helper()
			out, err := exec.Command(bin, append(args, "--db", dsn)...).CombinedOutput() // #nosec G204 -- the test's own binary
			if err != nil {
				t.Fatalf("members %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		// 1. migrate
		run("migrate")
		var n int
		db, err := store.Open(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if err := db.QueryRow(`SELECT COUNT(*) FROM members`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("members in a fresh database: %d %v", n, err)
		}

		// 2. serve with the keys: the two feeds' secrets and Stripe
		fake := stripefake.New(stripefake.Options{})
		api := httptest.NewServer(fake)
		t.Cleanup(api.Close)
		smtp := mailtest.Start(t)
		srv := newServer(t, dsn, "--smtp", smtp.URL(), "--members-feed-secret", membersSecret, "--bookings-feed-secret", bookingsSecret,
			"--gateway", "stripe", "--stripe-secret-key", "sk_test_live", "--stripe-publishable-key", "pk_test_live",
			"--stripe-webhook-secret", "whsec_live", "--stripe-api-url", api.URL)
		srv.live = true
		fake.SetWebhook(srv.base()+"/webhooks/stripe", "whsec_live")
		srv.start()
		t.Cleanup(srv.kill)

		// 3. the catalogue, then the sales opened
		if out := run("catalogue", "apply", "../../testdata/catalogue/example.yaml"); !strings.Contains(out, "4 added") {
			t.Fatalf("catalogue apply: %s", out)
		}
		// maintenance off: the daily window (3 to 5 am JST) would otherwise
		// close the sales for a run at that hour on the real clock
		run("admin", "gogo-pass", "--public", "--purchasable", "--maintenance", "off")

		// 4. the booking site provisions a member without a password
		profile := map[string]any{"email": "Hana.Live@Example.com", "firstname": "Hana", "lastname": "Kimura", "gender": "female",
			"birth": "1991-04-05", "tel": "0312345678", "addressCountryCode": "JP", "addressPostalCode": "5490001",
			"addressStateAndCity": "Osaka Izumisano", "address1": "1 Senshu-kuko-kita", "optin1": false, "lang": "en"}
		if s, m := apitest.SignedFeedCall(t, srv.base()+"/ops/v1/members/L0001", http.MethodPut, membersSecret, time.Now(), profile); s != 200 || m["outcome"] != "created" {
			t.Fatalf("provision: %d %v", s, m)
		}
		// The wrong secret (the demo's) is refused: the server runs on its own.
		if s, _ := apitest.SignedFeedCall(t, srv.base()+"/ops/v1/members/L0002", http.MethodPut, "demo-members-feed-secret", time.Now(), profile); s != 401 {
			t.Fatalf("demo secret on a live server: %d", s)
		}
		// The set-password mail, delivered by the outbox to the SMTP server.
		// (mailtest's WaitFor gives 5 s: the delivery worker of a loaded
		// machine may need longer, so wait here for the mail to arrive.)
		var text string
		for deadline := time.Now().Add(60 * time.Second); text == ""; time.Sleep(50 * time.Millisecond) {
			for _, msg := range smtp.Messages() {
				for _, to := range msg.To {
					if strings.EqualFold(to, "hana.live@example.com") {
						text = string(msg.Decode(t).Parts["text/plain"])
					}
				}
			}
			if text == "" && time.Now().After(deadline) {
				t.Fatal("no set-password mail received")
			}
		}
		token := regexp.MustCompile(`/reset-password/([^?\s]+)\?lang=en`).FindStringSubmatch(text)
		if token == nil {
			t.Fatalf("no link in the mail %q", text)
		}
		anon := &member{t: t, base: srv.base(), remote: apitest.NewRemote()}
		if s, m := anon.do(http.MethodPut, "/api/user/reset_password", map[string]any{"token": token[1], "password": "Live2026pw", "passwordReenter": "Live2026pw"}); s != 200 {
			t.Fatalf("set password: %d %v", s, m)
		}
		m := newMemberAs(t, srv.base(), "hana.live@example.com", "Live2026pw")

		// 5. the reservation system pushes a booking naming the member
		dep := time.Now().In(booking.JST).AddDate(0, 0, 20).Truncate(time.Hour)
		snap := map[string]any{
			"version": 1, "memberNumber": "L0001", "bookingDate": time.Now().Add(-time.Hour).In(booking.JST).Format(time.RFC3339),
			"statusCode": "CONFIRMED", "currency": "JPY", "totalAmount": 12800, "contactEmail": "hana.live@example.com",
			"passengers": []any{map[string]any{"lastname": "KIMURA", "firstname": "HANA", "passengerType": "ADULT"}},
			"segments": []any{map[string]any{"key": "1", "flight": "MM205", "originAirportCode": "KIX", "destinationAirportCode": "CTS",
				"departDateTime": dep.Format(time.RFC3339), "arrivalDateTime": dep.Add(2 * time.Hour).Format(time.RFC3339),
				"statusCode": "CONFIRMED", "originTerminal": "1", "destinationTerminal": ""}},
		}
		if s, r := apitest.SignedFeedCall(t, srv.base()+"/ops/v1/reservations/LIVE01", http.MethodPut, bookingsSecret, time.Now(), snap); s != 200 || r["outcome"] != "applied" {
			t.Fatalf("booking: %d %v", s, r)
		}
		if s, r := m.do(http.MethodGet, "/api/reservations", nil); s != 200 || !strings.Contains(mustJSON(r), "LIVE01") {
			t.Fatalf("the member's bookings: %d %v", s, r)
		}

		// 6. a pass of the catalogue, paid through Stripe
		id := m.buyProduct("gogo_pass", map[string]any{"planId": "gp-all", "periodId": "gp-all-2027-spring", "fareType": "happy",
			"paymentMethod": "creditCard", "creditCardToken": "pm_card_visa"})
		if st := m.settleProduct("gogo_pass", id, 60*time.Second); st != "settled" {
			t.Fatalf("pass purchase: %s", st)
		}
		if payments, paid := fake.ByReference(id); payments != 1 || paid != 1 {
			t.Fatalf("PaymentIntents of the purchase: %d (%d paid)", payments, paid)
		}

		// 7. the booking site erases the member
		var memberID string
		if err := db.QueryRow(`SELECT id FROM members WHERE member_number = $1`, "L0001").Scan(&memberID); err != nil {
			t.Fatal(err)
		}
		if s, r := apitest.SignedFeedCall(t, srv.base()+"/ops/v1/members/L0001", http.MethodDelete, membersSecret, time.Now(), nil); s != 200 || r["outcome"] != "erased" {
			t.Fatalf("erase: %d %v", s, r)
		}
		var email, first, last string
		var deletedAt *int64
		if err := db.QueryRow(`SELECT email, firstname, lastname, deleted_at FROM members WHERE id = $1`, memberID).
			Scan(&email, &first, &last, &deletedAt); err != nil {
			t.Fatal(err)
		}
		if email != "" || first != "" || last != "" || deletedAt == nil {
			t.Fatalf("erased member row: %q %q %q %v", email, first, last, deletedAt)
		}
		for q, want := range map[string]int{
			`SELECT COUNT(*) FROM passengers WHERE member_id = $1`:                                  0,
			`SELECT COUNT(*) FROM sessions WHERE member_id = $1`:                                    0,
			`SELECT COUNT(*) FROM reservations WHERE member_id = $1`:                                0,
			`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1`:                           1,
			`SELECT COUNT(*) FROM payment_processes WHERE id = '` + id + `'`:                        1,
			`SELECT COUNT(*) FROM payment_processes WHERE id = '` + id + `' AND status = 'settled'`: 1,
		} {
			args := []any{memberID}
			if !strings.Contains(q, "$1") {
				args = nil
			}
			if err := db.QueryRow(q, args...).Scan(&n); err != nil || n != want {
				t.Errorf("%s = %d (%v), want %d", q, n, err, want)
			}
		}
		if s, _ := m.do(http.MethodGet, "/api/user", nil); s == 200 {
			t.Fatalf("the erased member's session still works")
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
