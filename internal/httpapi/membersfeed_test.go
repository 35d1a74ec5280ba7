package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

func provisioned() map[string]any {
	return map[string]any{
		"email": "Taro.Sora@Example.com", "firstname": "Taro", "lastname": "Sora", "gender": "male", "birth": "1985-02-03",
		"tel": "0312345678", "addressCountryCode": "JP", "addressPostalCode": "5490001",
		"addressStateAndCity": "Osaka Izumisano", "address1": "1 Senshu-kuko-kita", "optin1": true, "lang": "jp",
	}
}

func memberRow(t *testing.T, e *apitest.Env, number string) (email, hash string, deleted bool) {
	t.Helper()
	var del *int64
	err := e.App.DB.QueryRow(`SELECT email, password_hash, deleted_at FROM members WHERE member_number = $1`, number).Scan(&email, &hash, &del)
	if err != nil {
		t.Fatalf("member %s: %v", number, err)
	}
	return email, hash, del != nil
}

func countMembers(t *testing.T, e *apitest.Env) int {
	t.Helper()
	var n int
	if err := e.App.DB.QueryRow(`SELECT COUNT(*) FROM members`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMembersFeedProvisioning: create, retry, update, the field rules,
// the e-mail in any case, the set-password mail in the member's language
// (single use), deactivation, reactivation and erasure.
func TestMembersFeedProvisioning(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		e := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
		now := e.Clock.Now()
		sec := app.DemoMembersFeedSecret
		put := func(number string, body any) (int, map[string]any) {
			return apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/"+number, http.MethodPut, sec, now, body)
		}
		before := countMembers(t, e)

		if s, m := put("A1001", provisioned()); s != 200 || m["outcome"] != "created" || m["memberNumber"] != "A1001" {
			t.Fatalf("create: %d %v", s, m)
		}
		// The set-password mail, in Japanese, with a link valid 7 days (the
		// count is joined to its unit by a word joiner so it never wraps alone).
		d := srv.WaitFor("Taro.Sora@Example.com").Decode(t)
		text := string(d.Parts["text/plain"])
		if d.Subject != "パスワードの設定" || !strings.Contains(text, "7\u2060日後") {
			t.Fatalf("set-password mail: %q %q", d.Subject, text)
		}
		token := regexp.MustCompile(`/reset-password/([^?\s]+)\?lang=jp`).FindStringSubmatch(text)
		if token == nil {
			t.Fatalf("no link in %q", text)
		}
		// the link opens the reset page as the page that sets a first password
		if !strings.Contains(text, token[0]+"&kind=set") {
			t.Fatalf("the link does not say it sets a first password: %q", text)
		}
		// A retry changes nothing and mails nothing more.
		if s, m := put("A1001", provisioned()); s != 200 || m["outcome"] != "unchanged" {
			t.Fatalf("retry: %d %v", s, m)
		}
		if s, m := put("A1001", with(provisioned(), "tel", "0398765432")); s != 200 || m["outcome"] != "updated" {
			t.Fatalf("update: %d %v", s, m)
		}
		if n := countMembers(t, e); n != before+1 {
			t.Fatalf("members %d, want %d", n, before+1)
		}
		if len(srv.Messages()) != 1 {
			t.Fatalf("%d mails, want the one set-password mail", len(srv.Messages()))
		}

		// Field rules of the account page, the language, the hash format: 400, nothing stored.
		for _, tc := range []struct {
			field string
			body  map[string]any
		}{
			{"firstname", with(provisioned(), "firstname", "")},
			{"birth", with(provisioned(), "birth", "1985-13-40")},
			{"email", with(provisioned(), "email", "not-an-address")},
			{"addressCountryCode", with(provisioned(), "addressCountryCode", "XX")},
			{"lang", with(provisioned(), "lang", "fr")},
			{"passwordHash", with(provisioned(), "email", "x@example.com", "passwordHash", "$1$saltsalt$hash")},
			{"passwordHash", with(provisioned(), "email", "x@example.com", "passwordHash", "plain-text-password")},
		} {
			s, m := put("B2002", tc.body)
			ve, _ := m["validationErrors"].(map[string]any)
			if s != 400 || m["error"] != "invalid" || ve[tc.field] == nil {
				t.Errorf("%s: %d %v", tc.field, s, m)
			}
		}
		if s, m := put("bad number!", provisioned()); s != 400 {
			t.Errorf("bad member number: %d %v", s, m)
		}
		if s, m := put("B2002", with(provisioned(), "nickname", "x")); s != 400 || m["field"] != "nickname" {
			t.Errorf("unknown field: %d %v", s, m)
		}
		// The e-mail is unique whatever its case: the demo member's and the new member's.
		if s, m := put("B2002", with(provisioned(), "email", strings.ToUpper(apitest.DemoEmail))); s != 409 || m["error"] != "email_taken" {
			t.Errorf("demo e-mail: %d %v", s, m)
		}
		if s, m := put("B2002", with(provisioned(), "email", "taro.sora@example.COM")); s != 409 || m["error"] != "email_taken" {
			t.Errorf("e-mail in another case: %d %v", s, m)
		}
		if n := countMembers(t, e); n != before+1 {
			t.Fatalf("a refused call stored a member: %d", n)
		}

		// The link sets the password once; the member logs in.
		c := e.Client(t)
		reset := map[string]any{"token": token[1], "password": "Sora2026pw", "passwordReenter": "Sora2026pw"}
		if r := c.Do(http.MethodPut, "/api/user/reset_password", reset); r.Status != 200 {
			t.Fatalf("set password: %d %s", r.Status, r.Body)
		}
		if r := c.Do(http.MethodPut, "/api/user/reset_password", reset); r.Status != 404 {
			t.Fatalf("second use of the link: %d %s", r.Status, r.Body)
		}
		c.Login("taro.sora@example.com", "Sora2026pw")
		if r := c.Get("/api/user"); r.Status != 200 {
			t.Fatalf("profile: %d", r.Status)
		}

		// Deactivated: the session ends and no login; reactivated: login again.
		if s, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/A1001/deactivate", http.MethodPost, sec, now, nil); s != 200 || m["outcome"] != "deactivated" {
			t.Fatalf("deactivate: %d %v", s, m)
		}
		if r := c.Get("/api/user"); r.Status != 403 { // the product's answer to a session that is gone
			t.Fatalf("session of a deactivated member: %d %s", r.Status, r.Body)
		}
		c2 := e.Client(t)
		if r := c2.Do(http.MethodPost, "/api/session", map[string]string{"email": "taro.sora@example.com", "password": "Sora2026pw"}); r.Status != 401 {
			t.Fatalf("login of a deactivated member: %d %s", r.Status, r.Body)
		}
		if s, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/A1001/reactivate", http.MethodPost, sec, now, nil); s != 200 || m["outcome"] != "reactivated" {
			t.Fatalf("reactivate: %d %v", s, m)
		}
		c2.Login("taro.sora@example.com", "Sora2026pw")
		if s, _ := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/NOPE/deactivate", http.MethodPost, sec, now, nil); s != 404 {
			t.Fatalf("unknown number: %d", s)
		}

		// Erased as the account deletion does: nothing personal, the row stays.
		if s, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/A1001", http.MethodDelete, sec, now, nil); s != 200 || m["outcome"] != "erased" {
			t.Fatalf("erase: %d %v", s, m)
		}
		var email, first string
		var deleted *int64
		if err := e.App.DB.QueryRow(`SELECT email, firstname, deleted_at FROM members WHERE email_key LIKE 'deleted:%' ORDER BY updated_at DESC LIMIT 1`).
			Scan(&email, &first, &deleted); err != nil || email != "" || first != "" || deleted == nil {
			t.Fatalf("erased row: %q %q %v %v", email, first, deleted, err)
		}
		if r := c2.Get("/api/user"); r.Status != 403 {
			t.Fatalf("session of an erased member: %d", r.Status)
		}
		if s, _ := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/A1001", http.MethodDelete, sec, now, nil); s != 404 {
			t.Fatalf("second erasure: %d", s)
		}
		// The number may be provisioned again: a new member.
		if s, m := put("A1001", provisioned()); s != 200 || m["outcome"] != "created" {
			t.Fatalf("again after erasure: %d %v", s, m)
		}
	})
}

// TestMembersFeedLegacyHash: a member provisioned with the old system's
// bcrypt hash (made by htpasswd) logs in with the old password; that login
// replaces the hash with the product's argon2id one.
func TestMembersFeedLegacyHash(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		e := apitest.New(t, engine)
		// htpasswd -nbB -C 5 u 'old-Passw0rd'
		legacy := "$2y$05$Z7kEPTyfMHzwnGMaDfMGD.zWnsviBn3awTut/b04.3hs6Dn4m9QdK"
		s, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/L1", http.MethodPut, app.DemoMembersFeedSecret, e.Clock.Now(),
			with(provisioned(), "passwordHash", legacy))
		if s != 200 || m["outcome"] != "created" {
			t.Fatalf("create: %d %v", s, m)
		}
		c := e.Client(t)
		if r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": "taro.sora@example.com", "password": "wrong-Passw0rd"}); r.Status != 401 {
			t.Fatalf("wrong password: %d", r.Status)
		}
		if _, h, _ := memberRow(t, e, "L1"); h != legacy {
			t.Fatalf("a failed login changed the hash: %q", h)
		}
		c.Login("taro.sora@example.com", "old-Passw0rd")
		_, h, _ := memberRow(t, e, "L1")
		if !strings.HasPrefix(h, "$argon2id$v=19$") || h == legacy {
			t.Fatalf("hash after the first login: %q", h)
		}
		e.Client(t).Login("taro.sora@example.com", "old-Passw0rd")
		// A later PUT with the old hash does not bring it back.
		if s, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/L1", http.MethodPut, app.DemoMembersFeedSecret, e.Clock.Now(),
			with(provisioned(), "passwordHash", legacy)); s != 200 || m["outcome"] != "unchanged" {
			t.Fatalf("retry: %d %v", s, m)
		}
		if _, h2, _ := memberRow(t, e, "L1"); h2 != h {
			t.Fatalf("the retry replaced the hash")
		}
	})
}

// TestMembersFeedSignature: the signature cases of the members feed.
func TestMembersFeedSignature(t *testing.T) {
	e := apitest.New(t, store.SQLite)
	now := e.Clock.Now()
	path := "/ops/v1/members/S1"
	for _, tc := range []struct {
		name   string
		secret string
		at     time.Time
		want   int
	}{
		{"unsigned", "", now, 401},
		{"other secret", "demo-bookings-feed-secret", now, 401},
		{"six minutes old", app.DemoMembersFeedSecret, now.Add(-6 * time.Minute), 401},
		{"six minutes ahead", app.DemoMembersFeedSecret, now.Add(6 * time.Minute), 401},
		{"four minutes old", app.DemoMembersFeedSecret, now.Add(-4 * time.Minute), 200},
	} {
		s, m := apitest.SignedFeedCall(t, e.Server.URL+path, http.MethodPut, tc.secret, tc.at, provisioned())
		if s != tc.want {
			t.Errorf("%s: %d %v", tc.name, s, m)
		}
	}
	big := with(provisioned(), "address1", strings.Repeat("x", 20<<10))
	if s, m := apitest.SignedFeedCall(t, e.Server.URL+path, http.MethodPut, app.DemoMembersFeedSecret, now, big); s != 413 {
		t.Errorf("too large: %d %v", s, m)
	}
}

// TestMembersFeedRotationAndNotConfigured: the previous secret verifies
// during a rotation; a start with no secret answers 503.
func TestMembersFeedRotationAndNotConfigured(t *testing.T) {
	e := apitest.New(t, store.SQLite, func(c *app.Config) {
		c.MembersFeedSecret, c.MembersFeedSecretPrevious = "new-secret", "old-secret"
	})
	now := e.Clock.Now()
	for secret, want := range map[string]int{"new-secret": 200, "old-secret": 200, app.DemoMembersFeedSecret: 401} {
		if s, m := apitest.SignedFeedCall(t, e.Server.URL+"/ops/v1/members/NOPE/deactivate", http.MethodPost, secret, now, nil); (want == 200 && s != 404) || (want != 200 && s != want) {
			t.Errorf("%s: %d %v", secret, s, m)
		}
	}
	off := apitest.New(t, store.SQLite, func(c *app.Config) { c.Demo = false })
	if s, m := apitest.SignedFeedCall(t, off.Server.URL+"/ops/v1/members/S1", http.MethodPut, app.DemoMembersFeedSecret, now, provisioned()); s != 503 || m["error"] != "not_configured" {
		t.Errorf("no secret: %d %v", s, m)
	}
}
