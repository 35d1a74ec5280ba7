package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// Tables a refused call may still touch: the caller's own session
// (last-seen), throttle counters, client error reports and passkey
// sign-in challenges (anonymous by design).
var volatileTables = []string{"sessions", "rate_counters", "exception_reports", "webauthn_challenges"}

// ownedValues are path parameter values that name the first demo member's
// own things, read through the API as that member: another member asking
// for them must get 404.
func ownedValues(t testing.TB, c *apitest.Client) map[string]string {
	v := map[string]string{"PNR": demo.DemoPNRFuture}
	firstString := func(path string, keys ...string) string {
		r := c.Get(path)
		if r.Status != http.StatusOK {
			return ""
		}
		var cur any
		r.JSON(t, &cur)
		for _, k := range keys {
			switch x := cur.(type) {
			case map[string]any:
				cur = x[k]
			case []any:
				if len(x) == 0 {
					return ""
				}
				cur = x[0]
				if k != "" {
					cur = cur.(map[string]any)[k]
				}
			}
		}
		s, _ := cur.(string)
		return s
	}
	if k := firstString("/api/reservations/"+demo.DemoPNRFuture, "segments", "", "key"); k != "" {
		v["key"] = k
	}
	if id := firstString("/api/user/passengers", "passengers", "", "id"); id != "" {
		v["id"] = id
	}
	if tok := firstString("/api/cc", "creditcards", "", "token"); tok != "" {
		v["token"] = tok
	}
	return v
}

// Every operation of api/openapi.yaml, walked as nobody (403 unless the
// call is anonymous by design) and, for operations on one thing named in
// the path, as another member with the first member's ids (404), with
// nothing changed in the database. Operations added later are walked
// without touching this test.
func TestEveryOperationRefusesStrangers(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		owner := env.Member(t)
		owned := ownedValues(t, owner)
		other := env.Member2(t)
		nobody := env.Client(t)
		other.NoContract, nobody.NoContract = true, true
		const fallback = "0123456789abcdef0123456789abcdef"
		before := env.Fingerprint(t, volatileTables...)
		ops := apitest.Operations(t)
		if len(ops) < 30 {
			t.Fatalf("only %d operations in the description", len(ops))
		}
		walked := 0
		for _, op := range ops {
			path := op.Fill(owned, fallback)
			var body any
			if op.HasBody {
				body = map[string]any{}
			}
			anonymous := env.Anonymous[op.Method+" "+op.Path]
			if !anonymous && strings.HasPrefix(op.Path, "/api") {
				if r := nobody.Do(op.Method, path, body); r.Status != http.StatusForbidden {
					t.Errorf("nobody %s %s = %d %.80s, want 403", op.Method, path, r.Status, r.Body)
				}
				walked++
			}
			if len(op.Params) > 0 && !anonymous {
				r := other.Do(op.Method, path, body)
				if r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
					t.Errorf("another member %s %s = %d %.80s, want 404", op.Method, path, r.Status, r.Body)
				}
				walked++
			}
		}
		after := env.Fingerprint(t, volatileTables...)
		for table, h := range before {
			if after[table] != h {
				t.Errorf("table %s changed during the walk", table)
			}
		}
		if other.Get("/api/session").Status != http.StatusNoContent || owner.Get("/api/session").Status != http.StatusNoContent {
			t.Error("a session ended during the walk")
		}
		t.Logf("%d operations, %d refused calls", len(ops), walked)
	})
}
