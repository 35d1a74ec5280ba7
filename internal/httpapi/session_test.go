package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/store"
)

func TestSessionLifecycle(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)
		if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Fatalf("session before login = %d", r.Status)
		}
		c.Login(apitest.DemoEmail, apitest.DemoPassword)
		if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Fatalf("session after login = %d", r.Status)
		}
		if r := c.Get("/api/session"); r.Header.Get("X-Revision") != "test-rev" {
			t.Fatalf("X-Revision = %q", r.Header.Get("X-Revision"))
		}
		// Idle timeout: a refresh keeps it, silence past the limit ends it.
		env.Clock.Advance(auth.IdleTimeout - time.Minute)
		if r := c.Do(http.MethodPost, "/api/session/token", nil); r.Status != http.StatusNoContent {
			t.Fatalf("refresh = %d %s", r.Status, r.Body)
		}
		env.Clock.Advance(auth.IdleTimeout - time.Minute)
		if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Fatalf("session after refresh = %d", r.Status)
		}
		env.Clock.Advance(auth.IdleTimeout)
		if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Fatalf("session after idle timeout = %d", r.Status)
		}
	})
}
