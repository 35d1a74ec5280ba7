package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/account"
	"members/internal/apitest"
	"members/internal/store"
)

var (
	confirmLink = regexp.MustCompile(`/email-change/confirm/([A-Za-z0-9_-]+)\?lang=(\w+)`)
	undoLink    = regexp.MustCompile(`/email-change/undo/([A-Za-z0-9_-]+)\?lang=(\w+)`)
)

// The e-mail address changes only with the current password and through a
// link mailed to the new address; the old address is told, with an undo
// link.
func TestEmailChange(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		const newAddr = "hanako.new@example.com"
		email := func(cl *apitest.Client) any { return cl.Get("/api/user").Map(t)["email"] }

		// Without the current password, or with a wrong one: refused, nothing saved.
		mails := countMail(t, env)
		r := c.Do(http.MethodPut, "/api/user", with(validProfile(), "email", newAddr, "firstname", "Changed"))
		if got := fieldError(t, r, "currentPassword"); got != "Enter your current password to change the e-mail address." {
			t.Fatalf("no password: %q", got)
		}
		r = c.Do(http.MethodPut, "/api/user", with(validProfile(), "email", newAddr, "currentPassword", "Wrong1234", "firstname", "Changed"))
		if got := fieldError(t, r, "currentPassword"); got != "The current password is incorrect." {
			t.Fatalf("wrong password: %q", got)
		}
		// An address registered to somebody else: told only after the password.
		r = c.Do(http.MethodPut, "/api/user", with(validProfile(), "email", apitest.Demo2Email, "currentPassword", apitest.DemoPassword))
		if got := fieldError(t, r, "email"); got != "This e-mail address is already registered." {
			t.Fatalf("taken: %q", got)
		}
		if u := c.Get("/api/user").Map(t); u["email"] != apitest.DemoEmail || u["firstname"] == "Changed" || countMail(t, env) != mails {
			t.Fatalf("a refused change changed something: %v, %d mails", u, countMail(t, env)-mails)
		}

		// With the password: the rest is saved, the address waits.
		r = c.Do(http.MethodPut, "/api/user", with(validProfile(), "email", newAddr, "currentPassword", apitest.DemoPassword, "firstname", "Changed"))
		if r.Status != http.StatusOK {
			t.Fatalf("request = %d %s", r.Status, r.Body)
		}
		saved := r.Map(t)
		if ch, _ := saved["emailChange"].(map[string]any); ch == nil || ch["email"] != newAddr {
			t.Fatalf("no pending change in %s", r.Body)
		}
		if u := saved["user"].(map[string]any); u["email"] != apitest.DemoEmail || u["firstname"] != "Changed" {
			t.Fatalf("saved user %v", u)
		}
		if p := c.Get("/api/user/email_change").Map(t)["pending"].(map[string]any); p["email"] != newAddr {
			t.Fatalf("pending %v", p)
		}
		confirm := waitMail(t, env, account.KindEmailChangeConfirm, newAddr)
		notice := waitMail(t, env, account.KindEmailChangeNotice, apitest.DemoEmail)
		ct, ut := confirmLink.FindStringSubmatch(confirm.Text), undoLink.FindStringSubmatch(notice.Text)
		if ct == nil || ut == nil || !strings.Contains(notice.Text, newAddr) {
			t.Fatalf("links missing:\n%s\n%s", confirm.Text, notice.Text)
		}
		var n int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM email_changes WHERE confirm_hash = $1 OR undo_hash = $2`, ct[1], ut[1]).Scan(&n); err != nil || n != 0 {
			t.Errorf("raw link tokens stored (%d, %v)", n, err)
		}
		if email(c) != apitest.DemoEmail {
			t.Fatal("the address changed before its confirmation")
		}

		// The link works without a session, once.
		anon := env.Client(t)
		if r := anon.Do(http.MethodPost, "/api/email_change/confirm", map[string]string{"token": "x" + ct[1]}); r.Status != http.StatusNotFound {
			t.Errorf("bad token = %d", r.Status)
		}
		r = anon.Do(http.MethodPost, "/api/email_change/confirm", map[string]string{"token": ct[1]})
		if r.Status != http.StatusOK || r.Map(t)["email"] != newAddr {
			t.Fatalf("confirm = %d %s", r.Status, r.Body)
		}
		if email(c) != newAddr || c.Get("/api/user/email_change").Map(t)["pending"] != nil {
			t.Fatal("not changed after confirmation")
		}
		if r := anon.Do(http.MethodPost, "/api/email_change/confirm", map[string]string{"token": ct[1]}); r.Status != http.StatusNotFound {
			t.Errorf("confirm twice = %d", r.Status)
		}
		env.Client(t).Login(newAddr, apitest.DemoPassword)

		// Undo from the old address: the old address is back, every session ends.
		r = anon.Do(http.MethodPost, "/api/email_change/undo", map[string]string{"token": ut[1]})
		if r.Status != http.StatusOK || r.Map(t)["email"] != apitest.DemoEmail {
			t.Fatalf("undo = %d %s", r.Status, r.Body)
		}
		if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Errorf("session survived the undo: %d", r.Status)
		}
		c = env.Member(t)
		if email(c) != apitest.DemoEmail {
			t.Fatal("undo did not restore the address")
		}
		if r := anon.Do(http.MethodPost, "/api/email_change/undo", map[string]string{"token": ut[1]}); r.Status != http.StatusNotFound {
			t.Errorf("undo twice = %d", r.Status)
		}

		// A confirmation link expires; a new request replaces the old link;
		// cancel drops the pending change.
		req := func(addr string) string {
			r := c.Do(http.MethodPut, "/api/user", with(validProfile(), "email", addr, "currentPassword", apitest.DemoPassword))
			if r.Status != http.StatusOK {
				t.Fatalf("request %s = %d %s", addr, r.Status, r.Body)
			}
			return confirmLink.FindStringSubmatch(waitMail(t, env, account.KindEmailChangeConfirm, addr).Text)[1]
		}
		first := req("first@example.com")
		second := req("second@example.com")
		if r := anon.Do(http.MethodPost, "/api/email_change/confirm", map[string]string{"token": first}); r.Status != http.StatusNotFound {
			t.Errorf("replaced link = %d", r.Status)
		}
		env.Clock.Advance(account.EmailChangeLinkLifetime)
		if r := anon.Do(http.MethodPost, "/api/email_change/confirm", map[string]string{"token": second}); r.Status != http.StatusNotFound {
			t.Errorf("expired link = %d", r.Status)
		}
		c = env.Member(t)
		third := req("third@example.com")
		if r := c.Do(http.MethodDelete, "/api/user/email_change", nil); r.Status != http.StatusNoContent {
			t.Fatalf("cancel = %d", r.Status)
		}
		if r := anon.Do(http.MethodPost, "/api/email_change/confirm", map[string]string{"token": third}); r.Status != http.StatusNotFound {
			t.Errorf("cancelled link = %d", r.Status)
		}
		if email(c) != apitest.DemoEmail {
			t.Errorf("address %v", email(c))
		}
		env.Clock.Advance(time.Minute)
	})
}

// Whether an address is registered is told at most a few times an hour per
// member, and never without the current password.
func TestEmailRegisteredCheckThrottled(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		counts := parallel(t, c, attempts, http.MethodPut, "/api/user",
			with(validProfile(), "email", apitest.Demo2Email, "currentPassword", apitest.DemoPassword))
		if counts[http.StatusBadRequest] > 10 || counts[http.StatusBadRequest]+counts[http.StatusTooManyRequests] != attempts {
			t.Errorf("%d parallel checks answered %v, want at most 10 answers", attempts, counts)
		}
	})
}
