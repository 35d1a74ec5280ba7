package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/store"
)

// POST /api/session/complete: the booking site's one-time sign-on
// token opens a session for the member it names, once; anything else is a
// 401 that leaves the caller logged out.
func TestSessionComplete(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		secret, err := env.App.Secret(context.Background(), "booking-handover")
		if err != nil {
			t.Fatal(err)
		}
		site := booking.NewHandover(secret, "https://booking.example.com")
		now := env.Clock.Now()
		login := func(member string, at time.Time) string {
			tok, err := site.IssueLogin(member, i18n.EN, at)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		outbound, err := site.Issue(demo.Member1, "", i18n.EN, now)
		if err != nil {
			t.Fatal(err)
		}
		other, err := booking.NewHandover([]byte("another secret"), "https://x").IssueLogin(demo.Member1, i18n.EN, now)
		if err != nil {
			t.Fatal(err)
		}
		used := login(demo.Member1, now)
		if r := env.Client(t).Do(http.MethodPost, "/api/session/complete", map[string]string{"token": used}); r.Status != http.StatusNoContent {
			t.Fatalf("first use = %d %s", r.Status, r.Body)
		}

		for _, tc := range []struct {
			name   string
			body   any
			status int
		}{
			{"no token", map[string]string{}, http.StatusBadRequest},
			{"blank token", map[string]string{"token": "  "}, http.StatusBadRequest},
			{"garbage", map[string]string{"token": "abc.def"}, http.StatusUnauthorized},
			{"tampered", map[string]string{"token": login(demo.Member1, now) + "x"}, http.StatusUnauthorized},
			{"expired", map[string]string{"token": login(demo.Member1, now.Add(-booking.HandoverTTL))}, http.StatusUnauthorized},
			{"used before", map[string]string{"token": used}, http.StatusUnauthorized},
			{"outbound hand-over token", map[string]string{"token": outbound.Token}, http.StatusUnauthorized},
			{"signed with another secret", map[string]string{"token": other}, http.StatusUnauthorized},
			{"member who does not exist", map[string]string{"token": login("no-such-member", now)}, http.StatusUnauthorized},
			{"unknown field", map[string]string{"token": login(demo.Member1, now), "memberId": demo.Member2}, http.StatusBadRequest},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c := env.Client(t)
				r := c.Do(http.MethodPost, "/api/session/complete", tc.body, "X-Lang", "en")
				if r.Status != tc.status {
					t.Fatalf("status = %d %s, want %d", r.Status, r.Body, tc.status)
				}
				if tc.status == http.StatusUnauthorized && !bytes.Contains(r.Body, []byte("Login failed because an error has occurred. Please retry.")) {
					t.Errorf("body = %s", r.Body)
				}
				if c.Cookie(httpapi.SessionCookie) != "" {
					t.Error("a session cookie was set")
				}
				if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
					t.Errorf("session after a refused sign-on = %d", r.Status)
				}
			})
		}

		t.Run("replaces the caller's session", func(t *testing.T) {
			c := env.Member2(t)
			old := c.Cookie(httpapi.SessionCookie)
			if r := c.Do(http.MethodPost, "/api/session/complete", map[string]string{"token": login(demo.Member1, now)}); r.Status != http.StatusNoContent {
				t.Fatalf("complete = %d %s", r.Status, r.Body)
			}
			if c.Cookie(httpapi.SessionCookie) == old {
				t.Fatal("session id reused")
			}
			var u struct {
				Email string `json:"email"`
			}
			c.Get("/api/user").JSON(t, &u)
			if u.Email != apitest.DemoEmail {
				t.Errorf("logged in as %q, want %q", u.Email, apitest.DemoEmail)
			}
			stale := env.Client(t)
			stale.SetCookie(httpapi.SessionCookie, old)
			if r := stale.Get("/api/session"); r.Status != http.StatusForbidden {
				t.Errorf("old session still alive: %d", r.Status)
			}
		})

		t.Run("needs the CSRF token", func(t *testing.T) {
			c := env.Client(t)
			r := c.Do(http.MethodPost, "/api/session/complete", map[string]string{"token": login(demo.Member1, now)}, "X-Csrf-Token", "wrong")
			if r.Status != http.StatusForbidden {
				t.Errorf("without CSRF = %d", r.Status)
			}
		})
	})
}
