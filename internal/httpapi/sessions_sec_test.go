package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/mail"
	"members/internal/store"
)

// A session cookie that names no live session counts as absent everywhere:
// the login form's CSRF token (bound to the pre-login cookie) works even
// when the browser still sends the dead cookie, and the server clears it.
func TestDeadSessionCookieCountsAsAbsent(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		causes := []struct {
			name string
			end  func(t *testing.T)
		}{
			{"idle timeout", func(t *testing.T) { env.Clock.Advance(auth.IdleTimeout + time.Minute) }},
			{"password changed elsewhere", func(t *testing.T) {
				other := env.Member(t)
				r := other.Do(http.MethodPut, "/api/user/password", map[string]string{
					"passwordOld": apitest.DemoPassword, "passwordNew": "Changed123", "passwordReenter": "Changed123"})
				if r.Status != http.StatusOK {
					t.Fatalf("password change = %d %s", r.Status, r.Body)
				}
				r = other.Do(http.MethodPut, "/api/user/password", map[string]string{
					"passwordOld": "Changed123", "passwordNew": apitest.DemoPassword, "passwordReenter": apitest.DemoPassword})
				if r.Status != http.StatusOK {
					t.Fatalf("password change back = %d %s", r.Status, r.Body)
				}
			}},
			{"password reset", func(t *testing.T) {
				anon := env.Client(t)
				if r := anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.DemoEmail}); r.Status != http.StatusNoContent {
					t.Fatalf("reset request = %d", r.Status)
				}
				m := waitMail(t, env, mail.KindPasswordReset, apitest.DemoEmail)
				token := resetLink.FindStringSubmatch(m.Text)[1]
				if r := anon.Do(http.MethodPut, "/api/user/reset_password", map[string]string{
					"token": token, "password": apitest.DemoPassword, "passwordReenter": apitest.DemoPassword}); r.Status != http.StatusOK {
					t.Fatalf("reset = %d %s", r.Status, r.Body)
				}
				if _, err := env.App.DB.Exec(`DELETE FROM mail_outbox`); err != nil {
					t.Fatal(err)
				}
			}},
		}
		for _, cause := range causes {
			c := env.Member(t)
			dead := c.Cookie("members_session")
			cause.end(t)

			// The first call with the dead cookie clears an expired one. A
			// session ended on purpose (a password change or reset) keeps
			// its cookie until the next login, so that every check tells
			// the page the same: ended, erase the kept trips
			// (docs/offline.md).
			r := c.Get("/api/session")
			if r.Status != http.StatusForbidden {
				t.Fatalf("%s: session check = %d", cause.name, r.Status)
			}
			k := r.SetCookie("members_session")
			if cause.name == "idle timeout" && (k == nil || k.MaxAge >= 0) {
				t.Errorf("%s: the dead cookie was not cleared: %v", cause.name, k)
			}
			if cause.name != "idle timeout" && k != nil {
				t.Errorf("%s: the ended session's cookie was changed: %v", cause.name, k)
			}
			// A browser that still sends it (a tab that raced the clearing)
			// gets a pre-login token and can log in with it.
			c.SetCookie("members_session", dead)
			token := c.CSRFToken()
			c.SetCookie("members_session", dead)
			c.NoCSRF = true
			r = c.Do(http.MethodPost, "/api/session",
				map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}, "X-Csrf-Token", token)
			c.NoCSRF = false
			if r.Status != http.StatusNoContent {
				t.Fatalf("%s: login with the dead cookie still sent = %d %s", cause.name, r.Status, r.Body)
			}
			if got := r.Header.Values("Set-Cookie"); len(got) != 2 { // new session, pre-login cookie cleared
				t.Errorf("%s: Set-Cookie %q", cause.name, got)
			}
			if c.Cookie("members_session") == dead || c.Get("/api/session").Status != http.StatusNoContent {
				t.Errorf("%s: not logged in after the login", cause.name)
			}
		}
	})
}

// A failed or malformed login while logged in leaves the session alone.
func TestFailedLoginKeepsTheSession(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		c.NoContract = true
		for _, body := range []any{
			map[string]string{"email": apitest.DemoEmail, "password": "Wrong1234"},
			map[string]string{"email": apitest.Demo2Email, "password": "Wrong1234"},
			map[string]string{"email": "", "password": ""},
			[]byte(`{"email":`),
			[]byte(`[1,2]`),
		} {
			r := c.Do(http.MethodPost, "/api/session", body)
			if r.Status < 400 || r.Status >= 500 {
				t.Fatalf("bad login %v = %d", body, r.Status)
			}
			if r.SetCookie("members_session") != nil {
				t.Errorf("bad login %v touched the session cookie", body)
			}
			if s := c.Get("/api/session"); s.Status != http.StatusNoContent {
				t.Fatalf("session ended by a failed login (%v): %d", body, s.Status)
			}
		}
	})
}

// No secret reaches a log line: the whole reset journey (link in the SPA
// path), a login and logout (the OpenID Connect codes and tokens: TestOIDCLeavesNoTokenInTheLog in cmd/members).
func TestNoSecretsInLogs(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		anon := env.Client(t)
		if r := anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.DemoEmail}); r.Status != http.StatusNoContent {
			t.Fatalf("reset request = %d", r.Status)
		}
		m := waitMail(t, env, mail.KindPasswordReset, apitest.DemoEmail)
		token := resetLink.FindStringSubmatch(m.Text)[1]
		secrets := map[string]string{"reset token": token, "pre-login cookie": anon.Cookie("members_anon")}
		// The member follows the link: the SPA page, then its API calls.
		if r := anon.Get("/reset-password/" + token + "?lang=en"); r.Status != http.StatusOK {
			t.Fatalf("reset page = %d", r.Status)
		}
		anon.Do(http.MethodPost, "/api/exception_notify", map[string]string{
			"name": "Error", "message": "m", "path": "/reset-password/" + token + "?lang=en"})
		if r := anon.Do(http.MethodPost, "/api/user/reset_password/validate", map[string]string{"token": token}); r.Status != http.StatusNoContent {
			t.Fatalf("validate = %d", r.Status)
		}
		if r := anon.Do(http.MethodPut, "/api/user/reset_password", map[string]string{
			"token": token, "password": "Newpass12", "passwordReenter": "Newpass12"}); r.Status != http.StatusOK {
			t.Fatalf("reset = %d %s", r.Status, r.Body)
		}
		c := env.Client(t)
		c.Login(apitest.DemoEmail, "Newpass12")
		secrets["session cookie"] = c.Cookie("members_session")
		secrets["CSRF token"] = c.CSRFToken()
		c.Get("/api/user")
		c.Do(http.MethodDelete, "/api/session", nil)

		logs := env.Log.String()
		if !strings.Contains(logs, `"path":"/reset-password/[redacted]"`) {
			t.Errorf("the reset page request was not logged as redacted:\n%s", logs)
		}
		for name, v := range secrets {
			if v == "" {
				t.Fatalf("%s missing", name)
			}
			if strings.Contains(logs, v) {
				t.Errorf("the log holds the %s", name)
			}
			if strings.Contains(logs, auth.HashToken(v)) {
				t.Errorf("the log holds the hash of the %s", name)
			}
		}
		var stored string
		if err := env.App.DB.QueryRow(`SELECT path FROM exception_reports`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stored, token) {
			t.Errorf("stored client report path %q holds the reset token", stored)
		}
	})
}
