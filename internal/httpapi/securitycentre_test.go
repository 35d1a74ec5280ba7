package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/store"
)

const (
	uaWindowsChrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaIPhoneSafari  = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)

// loginWith signs in a new client with a user agent.
func loginWith(t *testing.T, env *apitest.Env, email, password, ua string) (*apitest.Client, int) {
	t.Helper()
	env.Clock.Advance(time.Second) // events are listed by time
	c := env.Client(t)
	r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": email, "password": password}, "User-Agent", ua)
	return c, r.Status
}

type sessionView struct {
	ID     string `json:"id"`
	Device struct {
		Browser, OS, Kind string
	} `json:"device"`
	ClientAddress  string    `json:"clientAddress"`
	Network        string    `json:"network"`
	SignedInAt     time.Time `json:"signedInAt"`
	LastActivityAt time.Time `json:"lastActivityAt"`
	Current        bool      `json:"current"`
}

func sessionsOf(t *testing.T, c *apitest.Client) []sessionView {
	t.Helper()
	var out struct{ Sessions []sessionView }
	r := c.Get("/api/security/sessions")
	if r.Status != http.StatusOK {
		t.Fatalf("sessions: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	return out.Sessions
}

func eventKinds(t *testing.T, c *apitest.Client) []string {
	t.Helper()
	var out struct {
		Events []struct{ Kind string }
	}
	c.Get("/api/security/events").JSON(t, &out)
	var kinds []string
	for _, e := range out.Events {
		kinds = append(kinds, e.Kind)
	}
	return kinds
}

func mailsOfKind(t *testing.T, env *apitest.Env, kind string) []string {
	t.Helper()
	list, err := outbox(env).List(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range list {
		if m.Kind == kind {
			out = append(out, m.Text)
		}
	}
	return out
}

func TestSecurityCentre(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		desk, st := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome)
		if st != http.StatusNoContent {
			t.Fatalf("login: %d", st)
		}
		if n := len(mailsOfKind(t, env, "security_new_device")); n != 0 {
			t.Fatalf("a first sign-in mailed %d times", n)
		}
		phone, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		mails := mailsOfKind(t, env, "security_new_device")
		if len(mails) != 1 || !strings.Contains(mails[0], "Safari 17") || !strings.Contains(mails[0], "iOS") ||
			!strings.Contains(mails[0], "/security?lang=") {
			t.Fatalf("new-device mail: %q", mails)
		}
		// The same phone again, and the desktop browser after an update: no mail.
		phone2, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, strings.Replace(uaWindowsChrome, "131.0", "132.0", 1))
		if n := len(mailsOfKind(t, env, "security_new_device")); n != 1 {
			t.Fatalf("%d new-device mails, want 1", n)
		}

		env.Clock.Advance(time.Minute)
		list := sessionsOf(t, desk)
		if len(list) != 4 || !list[0].Current || list[0].Device.Browser != "Chrome 131" || list[0].Device.OS != "Windows" ||
			list[0].Device.Kind != "desktop" || list[0].ClientAddress != "127.0.0.1" || list[0].Network != "loopback" {
			t.Fatalf("sessions %+v", list)
		}
		var phoneID string
		for _, s := range list[1:] {
			if s.Current {
				t.Fatal("two current sessions")
			}
			if s.Device.Kind == "mobile" && phoneID == "" {
				phoneID = s.ID
			}
		}
		if phoneID == "" {
			t.Fatalf("no phone session in %+v", list)
		}

		// Another member's session id, an unknown one and the current one are 404.
		other := env.Member2(t)
		if r := other.Do(http.MethodDelete, "/api/security/sessions/"+phoneID, nil); r.Status != http.StatusNotFound {
			t.Fatalf("member 2 ends member 1's session: %d", r.Status)
		}
		for _, id := range []string{list[0].ID, "nope", strings.Repeat("0", 24)} {
			if r := desk.Do(http.MethodDelete, "/api/security/sessions/"+id, nil); r.Status != http.StatusNotFound {
				t.Fatalf("end %s: %d", id, r.Status)
			}
		}
		noCSRF := *desk
		noCSRF.NoCSRF = true
		if r := noCSRF.Do(http.MethodDelete, "/api/security/sessions/"+phoneID, nil); r.Status != http.StatusForbidden {
			t.Fatalf("without CSRF: %d", r.Status)
		}

		// Sign out one, then every other.
		env.Clock.Advance(time.Second)
		if r := desk.Do(http.MethodDelete, "/api/security/sessions/"+phoneID, nil); r.Status != http.StatusNoContent {
			t.Fatalf("end one: %d %s", r.Status, r.Body)
		}
		ended := 0
		for _, c := range []*apitest.Client{phone, phone2} {
			if c.Get("/api/session").Status == http.StatusForbidden {
				ended++
			}
		}
		if ended != 1 || len(sessionsOf(t, desk)) != 3 {
			t.Fatalf("ended %d", ended)
		}
		env.Clock.Advance(time.Second)
		if r := desk.Do(http.MethodDelete, "/api/security/sessions", nil); r.Status != http.StatusNoContent {
			t.Fatalf("end others: %d", r.Status)
		}
		if phone.Get("/api/session").Status != http.StatusForbidden || phone2.Get("/api/session").Status != http.StatusForbidden ||
			desk.Get("/api/session").Status != http.StatusNoContent || len(sessionsOf(t, desk)) != 1 {
			t.Fatal("other sessions still live, or the current one ended")
		}
		if len(sessionsOf(t, other)) != 1 {
			t.Fatal("member 2's session was touched")
		}

		// A wrong password and a password change are recorded; the change
		// mail links to the security centre.
		loginWith(t, env, apitest.DemoEmail, "Wrong9999", uaWindowsChrome)
		env.Clock.Advance(time.Second)
		if r := desk.Do(http.MethodPut, "/api/user/password", map[string]string{
			"passwordOld": apitest.DemoPassword, "passwordNew": "Newpass123", "passwordReenter": "Newpass123",
		}); r.Status != http.StatusOK {
			t.Fatalf("password change: %d %s", r.Status, r.Body)
		}
		if m := mailsOfKind(t, env, "password_changed"); len(m) != 1 || !strings.Contains(m[0], "/security?lang=en") {
			t.Fatalf("password mail %q", m)
		}
		kinds := eventKinds(t, desk)
		want := []string{"password_changed", "sign_in_failed", "other_sessions_ended", "session_ended", "sign_in", "sign_in", "sign_in_new_device", "sign_in"}
		if strings.Join(kinds, ",") != strings.Join(want, ",") {
			t.Fatalf("events %v\nwant   %v", kinds, want)
		}
		if k := eventKinds(t, other); len(k) != 1 || k[0] != "sign_in" { // member 2's own sign-in only
			t.Fatalf("member 2 sees %v", k)
		}

		// Events are kept 90 days: older ones are not listed and are purged.
		env.Clock.Advance(91 * 24 * time.Hour)
		fresh, _ := loginWith(t, env, apitest.DemoEmail, "Newpass123", uaWindowsChrome)
		if k := eventKinds(t, fresh); len(k) != 1 || k[0] != "sign_in" {
			t.Fatalf("after 91 days: %v", k)
		}
		if n, err := env.App.Security.Purge(context.Background()); err != nil || n != 9 { // member 1's 8 and member 2's sign-in
			t.Fatalf("purged %d, %v", n, err)
		}
	})
}

// TestSessionInfoSaysWhyTheSessionIsGone: the session check tells a
// device whose session is gone whether it ran out ("expired": the device
// keeps the trips it keeps) or was ended on purpose ("revoked": signed out
// from the security centre, a password change; the device erases them),
// on every check until a login, so that the check of a page load answers
// the same whatever call came first. Without a cookie it says nothing.
func TestSessionInfoSaysWhyTheSessionIsGone(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ended := func(what string, c *apitest.Client, want string) {
			t.Helper()
			var info struct {
				LoggedIn     bool    `json:"loggedIn"`
				SessionEnded *string `json:"sessionEnded"`
			}
			c.Get("/api/session/info").JSON(t, &info)
			got := ""
			if info.SessionEnded != nil {
				got = *info.SessionEnded
			}
			if info.LoggedIn || got != want {
				t.Errorf("%s: loggedIn %v sessionEnded %q, want %q", what, info.LoggedIn, got, want)
			}
		}
		if r := env.Client(t).Get("/api/session/info"); strings.Contains(string(r.Body), "sessionEnded") {
			t.Errorf("a visitor without a cookie: %s", r.Body)
		}

		idle, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		desk, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome)
		env.Clock.Advance(auth.IdleTimeout + time.Minute)
		ended("idle past the timeout", idle, "expired")
		// the cookie is cleared with that answer: nothing more is known, and nothing is said
		if r := idle.Get("/api/session/info"); strings.Contains(string(r.Body), "sessionEnded") {
			t.Errorf("asked again: %s", r.Body)
		}

		desk, _ = loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome)
		phone, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		if r := desk.Do(http.MethodPut, "/api/user/password", map[string]string{
			"passwordOld": apitest.DemoPassword, "passwordNew": "Newpass123", "passwordReenter": "Newpass123",
		}); r.Status != http.StatusOK {
			t.Fatalf("password change: %d %s", r.Status, r.Body)
		}
		if r := phone.Get("/api/user"); r.Status != http.StatusForbidden || r.Map(t)["errorKey"] != auth.EndedKey {
			t.Errorf("a member call after a password change elsewhere: %d %s", r.Status, r.Body)
		}
		ended("after a password change on another device", phone, "revoked")
		ended("asked again (a reload)", phone, "revoked")

		tablet, _ := loginWith(t, env, apitest.DemoEmail, "Newpass123", uaIPhoneSafari)
		if r := desk.Do(http.MethodDelete, "/api/security/sessions", nil); r.Status != http.StatusNoContent {
			t.Fatalf("end others: %d", r.Status)
		}
		ended("signed out from the security centre", tablet, "revoked")
		if r := tablet.Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": "Newpass123"}); r.Status != http.StatusNoContent {
			t.Fatalf("login again: %d", r.Status)
		}
		if r := tablet.Get("/api/session/info"); !strings.Contains(string(r.Body), `"loggedIn":true`) || strings.Contains(string(r.Body), "sessionEnded") {
			t.Errorf("after logging in again: %s", r.Body)
		}
	})
}

// TestSignedOutFromAnotherDevice: a device the member signed out from the
// security centre (one session, or every other one) is told so with its
// own errorKey, in its language, on its session check and on any member
// call; a session that ended otherwise (logged out on the device itself,
// ended by a password change, or idle too long) is the plain "log in
// again". The record of an ended session goes with the stale sessions.
func TestSignedOutFromAnotherDevice(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		desk, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome)
		phone, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		tablet, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		selfOut, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaIPhoneSafari)
		if r := selfOut.Do(http.MethodDelete, "/api/session", nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout: %d", r.Status)
		}
		wantKey := func(what string, r *apitest.Response, key, text string) {
			t.Helper()
			if r.Status != http.StatusForbidden {
				t.Fatalf("%s: %d %s, want 403", what, r.Status, r.Body)
			}
			m := r.Map(t)
			got, _ := m["errorKey"].(string)
			msg, _ := m["message"].(string)
			if got != key || !strings.Contains(msg, text) {
				t.Errorf("%s: errorKey %q message %q, want %q with %q", what, got, msg, key, text)
			}
		}

		// one session ended from the desk: the phone's check says why, in Thai
		var phoneID string
		for _, s := range sessionsOf(t, desk) {
			if !s.Current && phoneID == "" {
				phoneID = s.ID
			}
		}
		if r := desk.Do(http.MethodDelete, "/api/security/sessions/"+phoneID, nil); r.Status != http.StatusNoContent {
			t.Fatalf("end one: %d", r.Status)
		}
		// which of the two iPhone clients it was: the one whose check fails,
		// in its language
		phone.Lang, tablet.Lang = "th", "th"
		var ended *apitest.Client
		for _, c := range []*apitest.Client{phone, tablet} {
			if r := c.Get("/api/session"); r.Status == http.StatusForbidden {
				ended = c
				wantKey("session check", r, "session_ended_elsewhere", "อุปกรณ์อื่น")
			}
		}
		if ended == nil {
			t.Fatal("no client was signed out")
		}
		phone.Lang, tablet.Lang = "en", "en"

		// every other session ended: the remaining ones are told the same,
		// the page's first question (session info) included
		watch, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome)
		if r := desk.Do(http.MethodDelete, "/api/security/sessions", nil); r.Status != http.StatusNoContent {
			t.Fatalf("end others: %d", r.Status)
		}
		other := phone
		if ended == phone {
			other = tablet
		}
		wantKey("a member call after End all other sessions", other.Get("/api/user"), "session_ended_elsewhere", "logged out from another device")
		var info struct {
			LoggedIn           bool `json:"loggedIn"`
			SignedOutElsewhere bool `json:"signedOutElsewhere"`
		}
		watch.Get("/api/session/info").JSON(t, &info)
		if info.LoggedIn || !info.SignedOutElsewhere {
			t.Errorf("session info after End all other sessions: %+v", info)
		}
		// asked again (a reload): the same, until a login on the device
		if r := watch.Get("/api/session/info"); !strings.Contains(string(r.Body), `"signedOutElsewhere":true`) {
			t.Errorf("session info asked again: %s", r.Body)
		}
		if r := watch.Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}); r.Status != http.StatusNoContent {
			t.Fatalf("login again: %d", r.Status)
		}
		if r := watch.Get("/api/session/info"); !strings.Contains(string(r.Body), `"loggedIn":true`) || strings.Contains(string(r.Body), "signedOutElsewhere") {
			t.Errorf("session info after logging in again: %s", r.Body)
		}

		// logged out on the device itself: the plain message
		wantKey("own logout", selfOut.Get("/api/session"), "", "log in again")

		// a password change ends the other sessions: done on this device by the member, the plain message
		laptop, _ := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome)
		if r := desk.Do(http.MethodPut, "/api/user/password", map[string]string{
			"passwordOld": apitest.DemoPassword, "passwordNew": "Newpass123", "passwordReenter": "Newpass123",
		}); r.Status != http.StatusOK {
			t.Fatalf("password change: %d %s", r.Status, r.Body)
		}
		wantKey("after a password change", laptop.Get("/api/session"), "session_ended", "log in again")

		// the records go with the stale sessions, after a session's whole lifetime
		env.Clock.Advance(auth.AbsoluteLifetime + time.Minute)
		if _, err := env.App.Auth.PurgeStale(context.Background()); err != nil {
			t.Fatal(err)
		}
		var left int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM ended_sessions`).Scan(&left); err != nil || left != 0 {
			t.Errorf("%d ended-session records left after their lifetime (%v)", left, err)
		}
	})
}

// TestGoneSessionAnswers: how a call whose cookie names no live session is
// answered, by why the session is gone. Only the member's own "End
// session" or "End all other sessions" from another device gives the
// session_ended_elsewhere errorKey, on the session check and on a member
// call alike; an idle, unknown or absent cookie is the plain 403.
func TestGoneSessionAnswers(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		login := func(t *testing.T, ua string) *apitest.Client {
			t.Helper()
			c, status := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, ua)
			if status != http.StatusNoContent {
				t.Fatalf("login: %d", status)
			}
			return c
		}
		tests := []struct {
			name    string
			gone    func(t *testing.T) *apitest.Client // a client whose session is gone
			wantKey string
		}{
			{"ended from another device (End session)", func(t *testing.T) *apitest.Client {
				phone := login(t, uaIPhoneSafari)
				desk := login(t, uaWindowsChrome)
				// the first case: the phone's is the one other session
				var others []string
				for _, s := range sessionsOf(t, desk) {
					if !s.Current {
						others = append(others, s.ID)
					}
				}
				if len(others) != 1 {
					t.Fatalf("other sessions %v, want the phone's", others)
				}
				id := others[0]
				if r := desk.Do(http.MethodDelete, "/api/security/sessions/"+id, nil); r.Status != http.StatusNoContent {
					t.Fatalf("end session %q: %d", id, r.Status)
				}
				return phone
			}, auth.EndedElsewhereKey},
			{"ended from another device (End all other sessions)", func(t *testing.T) *apitest.Client {
				phone := login(t, uaIPhoneSafari)
				desk := login(t, uaWindowsChrome)
				if r := desk.Do(http.MethodDelete, "/api/security/sessions", nil); r.Status != http.StatusNoContent {
					t.Fatalf("end others: %d", r.Status)
				}
				return phone
			}, auth.EndedElsewhereKey},
			{"idle past the timeout", func(t *testing.T) *apitest.Client {
				phone := login(t, uaIPhoneSafari)
				env.Clock.Advance(auth.IdleTimeout + time.Minute)
				return phone
			}, ""},
			{"unknown cookie", func(t *testing.T) *apitest.Client {
				c := env.Client(t)
				c.SetCookie("members_session", "not-a-session-token-at-all")
				return c
			}, ""},
			{"no cookie", func(t *testing.T) *apitest.Client { return env.Client(t) }, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c := tt.gone(t)
				for _, path := range []string{"/api/session", "/api/user"} {
					r := c.Get(path)
					if r.Status != http.StatusForbidden {
						t.Fatalf("%s: %d %s, want 403", path, r.Status, r.Body)
					}
					got, _ := r.Map(t)["errorKey"].(string)
					if got != tt.wantKey {
						t.Errorf("%s: errorKey %q, want %q", path, got, tt.wantKey)
					}
				}
			})
		}
	})
}
