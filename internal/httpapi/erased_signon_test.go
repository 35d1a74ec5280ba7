package httpapi_test

import (
	"context"
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// An erased member has no way back into a session: a password and a
// passkey each get the answer of an unknown member,
// and a session that was open is dead. Two states are walked: the erasure
// as it leaves the row (no address, password or passkey left), and the
// race in which a sign-in checked the credentials just before the erasure
// committed (the row erased, the credentials still there as that sign-in
// saw them).
func TestErasedMemberCannotSignOn(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := context.Background()
		password := func(email string) *apitest.Response {
			return env.Client(t).Do(http.MethodPost, "/api/session", map[string]string{"email": email, "password": apitest.DemoPassword})
		}
		passkey := func(k *softKey) *apitest.Response {
			c := env.Client(t)
			o := options(t, c, "/api/passkeys/login/options")
			return c.Do(http.MethodPost, "/api/passkeys/login", map[string]any{"challengeId": o.ChallengeID, "credential": k.assert(t, o)})
		}
		same := func(t *testing.T, what string, got, unknown *apitest.Response) {
			t.Helper()
			if got.Status != http.StatusUnauthorized || got.Status != unknown.Status || string(got.Body) != string(unknown.Body) {
				t.Errorf("%s: %d %s; an unknown member gets %d %s", what, got.Status, got.Body, unknown.Status, unknown.Body)
			}
		}

		// Member 1: the race. Member 2: the whole erasure.
		for _, tc := range []struct {
			name   string
			member string
			email  string
			erase  func(t *testing.T, member string)
		}{
			{"credentials checked before the erasure committed", demo.Member1, apitest.DemoEmail, func(t *testing.T, member string) {
				if _, err := env.App.DB.ExecContext(ctx, `UPDATE members SET deleted_at = $1 WHERE id = $2`, env.Clock.Now().UnixMilli(), member); err != nil {
					t.Fatal(err)
				}
			}},
			{"erased", demo.Member2, apitest.Demo2Email, func(t *testing.T, member string) {
				if err := store.NewPrivacyStore(env.App.DB).Erase(ctx, member, env.Clock.Now()); err != nil {
					t.Fatal(err)
				}
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c := env.Client(t)
				c.Login(tc.email, apitest.DemoPassword)
				key := newSoftKey(tc.member)
				registerPasskey(t, env, c, key, "Phone")
				// Each way in works before.
				if r := password(tc.email); r.Status != http.StatusNoContent {
					t.Fatalf("password before: %d %s", r.Status, r.Body)
				}
				if r := passkey(key); r.Status != http.StatusNoContent {
					t.Fatalf("passkey before: %d %s", r.Status, r.Body)
				}

				tc.erase(t, tc.member)

				same(t, "password", password(tc.email), password("nobody@example.com"))
				same(t, "passkey", passkey(key), passkey(newSoftKey("no-such-member")))
				if r := c.Get("/api/session"); r.Status != http.StatusForbidden {
					t.Errorf("the open session after erasure: %d", r.Status)
				}
				var n int
				if err := env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE member_id = $1 AND created_at > $2`,
					tc.member, env.Clock.Now().UnixMilli()).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if n != 0 {
					t.Errorf("%d sessions made after the erasure", n)
				}
			})
		}
	})
}
