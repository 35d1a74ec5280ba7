package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/store"
)

// With --handover-secret (and a previous key during a change) the server
// signs with the given key, not the database's; a sign-on token of the
// previous key is still accepted, one of the database's key or any other
// is not.
func TestHandoverSecretFromOutside(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		current := bytes.Repeat([]byte{1}, 32)
		previous := bytes.Repeat([]byte{2}, 32)
		env := apitest.New(t, engine, func(c *app.Config) {
			c.HandoverSecret = base64.StdEncoding.EncodeToString(current)
			c.HandoverSecretPrevious = []string{base64.StdEncoding.EncodeToString(previous)}
		})
		stored, err := env.App.Secret(t.Context(), "booking-handover")
		if err != nil {
			t.Fatal(err)
		}
		now := env.Clock.Now()
		for _, tc := range []struct {
			name   string
			key    []byte
			status int
		}{
			{"current key", current, http.StatusNoContent},
			{"previous key", previous, http.StatusNoContent},
			{"the database's key", stored, http.StatusUnauthorized},
			{"unknown key", bytes.Repeat([]byte{3}, 32), http.StatusUnauthorized},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tok, err := booking.NewHandover(tc.key, "https://x").IssueLogin(demo.Member1, i18n.EN, now)
				if err != nil {
					t.Fatal(err)
				}
				if r := env.Client(t).Do(http.MethodPost, "/api/session/complete", map[string]string{"token": tok}); r.Status != tc.status {
					t.Errorf("sign-on = %d %s, want %d", r.Status, r.Body, tc.status)
				}
			})
		}
	})
}
