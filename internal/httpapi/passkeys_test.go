package httpapi_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// The tests' relying party: from the default public URL http://127.0.0.1:8080
// (apitest sets none), whose loopback address becomes localhost.
var testRP = virtualwebauthn.RelyingParty{ID: "localhost", Name: "members", Origin: "http://localhost:8080"}

// softKey is a software authenticator holding one discoverable credential
// of a member: it answers the server's options with real attestations and
// assertions (ECDSA P-256, packed format) as a browser would.
type softKey struct {
	auth virtualwebauthn.Authenticator
	cred virtualwebauthn.Credential
}

func newSoftKey(memberID string) *softKey {
	a := virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte(memberID)})
	k := &softKey{auth: a, cred: virtualwebauthn.NewCredentialWithImportedKey(virtualwebauthn.KeyTypeEC2, p256KeyFullWidth())}
	k.auth.AddCredential(k.cred)
	return k
}

// p256KeyFullWidth returns a new P-256 private key (PKCS #8) whose public
// coordinates are both 32 bytes long without padding. virtualwebauthn puts
// each coordinate in the attested key as big.Int.Bytes(), which drops leading
// zero bytes (one key in about 128); go-webauthn then rightly refuses the key
// ("x or y coordinate has invalid length"), and a test failed now and then.
func p256KeyFullWidth() []byte {
	for {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		if len(key.X.Bytes()) != 32 || len(key.Y.Bytes()) != 32 {
			continue
		}
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			panic(err)
		}
		return der
	}
}

type pkOptions struct {
	ChallengeID string          `json:"challengeId"`
	PublicKey   json.RawMessage `json:"publicKey"`
}

func options(t *testing.T, c *apitest.Client, path string) pkOptions {
	t.Helper()
	r := c.Do(http.MethodPost, path, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", path, r.Status, r.Body)
	}
	var o pkOptions
	r.JSON(t, &o)
	return o
}

// attest answers registration options.
func (k *softKey) attest(t *testing.T, o pkOptions) map[string]any {
	t.Helper()
	ao, err := virtualwebauthn.ParseAttestationOptions(string(o.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(virtualwebauthn.CreateAttestationResponse(testRP, k.auth, k.cred, *ao)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// assert answers sign-in or re-authentication options; the counter goes up
// as a real authenticator's does.
func (k *softKey) assert(t *testing.T, o pkOptions) map[string]any {
	t.Helper()
	ao, err := virtualwebauthn.ParseAssertionOptions(string(o.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	k.cred.Counter++
	var m map[string]any
	if err := json.Unmarshal([]byte(virtualwebauthn.CreateAssertionResponse(testRP, k.auth, k.cred, *ao)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

type passkeyView struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

func registerPasskey(t *testing.T, env *apitest.Env, c *apitest.Client, k *softKey, name string) passkeyView {
	t.Helper()
	env.Clock.Advance(time.Second) // events are listed by time
	o := options(t, c, "/api/passkeys/registration/options")
	r := c.Do(http.MethodPost, "/api/passkeys/registration", map[string]any{"challengeId": o.ChallengeID, "name": name, "credential": k.attest(t, o)})
	if r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	var v passkeyView
	r.JSON(t, &v)
	return v
}

func passkeysOf(t *testing.T, c *apitest.Client) []passkeyView {
	t.Helper()
	var out struct{ Passkeys []passkeyView }
	r := c.Get("/api/passkeys")
	if r.Status != http.StatusOK {
		t.Fatalf("passkeys: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &out)
	return out.Passkeys
}

// passkeyLogin signs in a fresh client with the key (discoverable: no
// address) and returns it with the status.
func passkeyLogin(t *testing.T, env *apitest.Env, k *softKey) (*apitest.Client, int) {
	t.Helper()
	c := env.Client(t)
	o := options(t, c, "/api/passkeys/login/options")
	r := c.Do(http.MethodPost, "/api/passkeys/login", map[string]any{"challengeId": o.ChallengeID, "credential": k.assert(t, o)}, "User-Agent", uaWindowsChrome)
	return c, r.Status
}

func TestPasskeys(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		k := newSoftKey(demo.Member1)

		// Register: listed with its name, never its key; a mail and an event.
		v := registerPasskey(t, env, c, k, "Work laptop")
		list := passkeysOf(t, c)
		if len(list) != 1 || list[0].ID != v.ID || list[0].Name != "Work laptop" || list[0].LastUsedAt != nil {
			t.Fatalf("list = %+v", list)
		}
		if body := string(c.Get("/api/passkeys").Body); strings.Contains(body, "publicKey") || strings.Contains(body, "credential") {
			t.Errorf("list shows key material: %s", body)
		}
		if m := mailsOfKind(t, env, "security_passkey_added"); len(m) != 1 || !strings.Contains(m[0], "Work laptop") || !strings.Contains(m[0], "/security?lang=en") {
			t.Errorf("added mails = %q", m)
		}
		if kinds := eventKinds(t, c); len(kinds) == 0 || kinds[0] != "passkey_added" {
			t.Errorf("events = %v", kinds)
		}

		t.Run("registration challenge is single use, short-lived and the member's", func(t *testing.T) {
			k2 := newSoftKey(demo.Member1)
			o := options(t, c, "/api/passkeys/registration/options")
			body := map[string]any{"challengeId": o.ChallengeID, "credential": k2.attest(t, o)}
			m2 := env.Member2(t)
			if r := m2.Do(http.MethodPost, "/api/passkeys/registration", body); r.Status != http.StatusBadRequest {
				t.Errorf("another member's challenge: %d %s", r.Status, r.Body)
			}
			// The other member's try used the challenge up.
			if r := c.Do(http.MethodPost, "/api/passkeys/registration", body); r.Status != http.StatusBadRequest {
				t.Errorf("challenge after another member's try: %d", r.Status)
			}
			o = options(t, c, "/api/passkeys/registration/options")
			body = map[string]any{"challengeId": o.ChallengeID, "credential": k2.attest(t, o)}
			env.Clock.Advance(6 * time.Minute)
			if r := c.Do(http.MethodPost, "/api/passkeys/registration", body); r.Status != http.StatusBadRequest {
				t.Errorf("expired challenge: %d %s", r.Status, r.Body)
			}
			if n := len(passkeysOf(t, c)); n != 1 {
				t.Errorf("%d passkeys after refused registrations", n)
			}
		})

		t.Run("sign in with the passkey, discoverable", func(t *testing.T) {
			before := len(mailsOfKind(t, env, "security_new_device"))
			pc, st := passkeyLogin(t, env, k)
			if st != http.StatusNoContent {
				t.Fatalf("passkey login: %d", st)
			}
			// The session is a real one: the security centre lists it as
			// current, from the user agent that signed in.
			sess := sessionsOf(t, pc)
			if len(sess) < 2 || !sess[0].Current || sess[0].Device.Browser == "" {
				t.Fatalf("sessions = %+v", sess)
			}
			if kinds := eventKinds(t, pc); kinds[0] != "sign_in_new_device" {
				t.Errorf("events = %v", kinds)
			}
			if n := len(mailsOfKind(t, env, "security_new_device")); n != before+1 {
				t.Errorf("new-device mails %d → %d", before, n)
			}
			if l := passkeysOf(t, pc); l[0].LastUsedAt == nil {
				t.Errorf("last use not recorded: %+v", l)
			}
			// Non-GET calls of that session need its CSRF token like any other.
			pc.NoCSRF = true
			if r := pc.Do(http.MethodPost, "/api/passkeys/registration/options", nil); r.Status != http.StatusForbidden {
				t.Errorf("no CSRF: %d", r.Status)
			}
		})

		t.Run("replayed, expired or foreign sign-in assertions fail", func(t *testing.T) {
			a := env.Client(t)
			o := options(t, a, "/api/passkeys/login/options")
			body := map[string]any{"challengeId": o.ChallengeID, "credential": k.assert(t, o)}
			if r := a.Do(http.MethodPost, "/api/passkeys/login", body); r.Status != http.StatusNoContent {
				t.Fatalf("first use: %d %s", r.Status, r.Body)
			}
			b := env.Client(t)
			if r := b.Do(http.MethodPost, "/api/passkeys/login", body); r.Status != http.StatusUnauthorized {
				t.Errorf("replay: %d %s", r.Status, r.Body)
			}
			o = options(t, b, "/api/passkeys/login/options")
			body = map[string]any{"challengeId": o.ChallengeID, "credential": k.assert(t, o)}
			env.Clock.Advance(6 * time.Minute)
			if r := b.Do(http.MethodPost, "/api/passkeys/login", body); r.Status != http.StatusUnauthorized {
				t.Errorf("expired: %d %s", r.Status, r.Body)
			}
			// A key the site never registered.
			stranger := newSoftKey(demo.Member1)
			if _, st := passkeyLogin(t, env, stranger); st != http.StatusUnauthorized {
				t.Errorf("unknown credential: %d", st)
			}
			// A registered key claiming another member's user handle.
			forged := &softKey{auth: k.auth, cred: k.cred}
			forged.auth.Options.UserHandle = []byte(demo.Member2)
			if _, st := passkeyLogin(t, env, forged); st != http.StatusUnauthorized {
				t.Errorf("wrong user handle: %d", st)
			}
			if r := b.Get("/api/security/sessions"); r.Status != http.StatusForbidden {
				t.Errorf("refused sign-ins opened a session: %d", r.Status)
			}
		})

		t.Run("CSRF on every change", func(t *testing.T) {
			n := env.Client(t)
			n.NoCSRF = true
			if r := n.Do(http.MethodPost, "/api/passkeys/login/options", nil); r.Status != http.StatusForbidden {
				t.Errorf("login options without CSRF: %d", r.Status)
			}
			if r := n.Do(http.MethodPost, "/api/passkeys/login", map[string]any{"challengeId": "x", "credential": map[string]any{"id": "x"}}); r.Status != http.StatusForbidden {
				t.Errorf("login without CSRF: %d", r.Status)
			}
			c.NoCSRF = true
			defer func() { c.NoCSRF = false }()
			for _, call := range []struct{ method, path string }{
				{http.MethodPut, "/api/passkeys/" + v.ID},
				{http.MethodPost, "/api/passkeys/" + v.ID + "/removal"},
				{http.MethodPost, "/api/passkeys/registration"},
				{http.MethodPost, "/api/passkeys/reauth/options"},
			} {
				if r := c.Do(call.method, call.path, map[string]any{"name": "x", "currentPassword": apitest.DemoPassword}); r.Status != http.StatusForbidden {
					t.Errorf("%s %s without CSRF: %d", call.method, call.path, r.Status)
				}
			}
			if len(passkeysOf(t, c)) != 1 {
				t.Error("a call without CSRF changed the passkeys")
			}
		})

		t.Run("another member's passkey is 404", func(t *testing.T) {
			m2 := env.Member2(t)
			for _, call := range []struct {
				method, path string
				body         any
			}{
				{http.MethodPut, "/api/passkeys/" + v.ID, map[string]any{"name": "mine now"}},
				{http.MethodPost, "/api/passkeys/" + v.ID + "/removal", map[string]any{"currentPassword": apitest.DemoPassword}},
				{http.MethodPut, "/api/passkeys/unknown", map[string]any{"name": "x"}},
			} {
				if r := m2.Do(call.method, call.path, call.body); r.Status != http.StatusNotFound {
					t.Errorf("%s %s as member 2: %d %s", call.method, call.path, r.Status, r.Body)
				}
			}
			if l := passkeysOf(t, m2); len(l) != 0 {
				t.Errorf("member 2 lists %+v", l)
			}
			if l := passkeysOf(t, c); l[0].Name != "Work laptop" {
				t.Errorf("renamed by member 2: %+v", l)
			}
		})

		t.Run("rename", func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				status int
			}{
				{"", http.StatusBadRequest},
				{strings.Repeat("x", 61), http.StatusBadRequest},
				{"  Phone  ", http.StatusOK},
			} {
				if r := c.Do(http.MethodPut, "/api/passkeys/"+v.ID, map[string]any{"name": tc.name}); r.Status != tc.status {
					t.Errorf("rename %q: %d %s", tc.name, r.Status, r.Body)
				}
			}
			if l := passkeysOf(t, c); l[0].Name != "Phone" {
				t.Errorf("after rename: %+v", l)
			}
		})

		t.Run("removal needs re-authentication", func(t *testing.T) {
			path := "/api/passkeys/" + v.ID + "/removal"
			for _, tc := range []struct {
				what string
				body any
			}{
				{"nothing", map[string]any{}},
				{"wrong password", map[string]any{"currentPassword": "Wrong9999"}},
				{"sign-in challenge as re-authentication", func() any {
					o := options(t, env.Client(t), "/api/passkeys/login/options")
					return map[string]any{"assertion": map[string]any{"challengeId": o.ChallengeID, "credential": k.assert(t, o)}}
				}()},
			} {
				if r := c.Do(http.MethodPost, path, tc.body); r.Status != http.StatusBadRequest {
					t.Errorf("%s: %d %s", tc.what, r.Status, r.Body)
				}
			}
			if len(passkeysOf(t, c)) != 1 {
				t.Fatal("removed without re-authentication")
			}
			// A fresh assertion with the passkey itself.
			o := options(t, c, "/api/passkeys/reauth/options")
			reauth := map[string]any{"assertion": map[string]any{"challengeId": o.ChallengeID, "credential": k.assert(t, o)}}
			env.Clock.Advance(time.Second)
			if r := c.Do(http.MethodPost, path, reauth); r.Status != http.StatusNoContent {
				t.Fatalf("remove with passkey: %d %s", r.Status, r.Body)
			}
			if len(passkeysOf(t, c)) != 0 {
				t.Error("still listed")
			}
			if m := mailsOfKind(t, env, "security_passkey_removed"); len(m) != 1 || !strings.Contains(m[0], "Phone") {
				t.Errorf("removed mails = %q", m)
			}
			if _, st := passkeyLogin(t, env, k); st != http.StatusUnauthorized {
				t.Errorf("sign-in with a removed passkey: %d", st)
			}
			// With the current password.
			k3 := newSoftKey(demo.Member1)
			v3 := registerPasskey(t, env, c, k3, "")
			if v3.Name == "" {
				t.Error("no default name")
			}
			env.Clock.Advance(time.Second)
			if r := c.Do(http.MethodPost, "/api/passkeys/"+v3.ID+"/removal", map[string]any{"currentPassword": apitest.DemoPassword}); r.Status != http.StatusNoContent {
				t.Fatalf("remove with password: %d %s", r.Status, r.Body)
			}
			kinds := eventKinds(t, c)
			if len(kinds) < 3 || kinds[0] != "passkey_removed" || kinds[1] != "passkey_added" || kinds[2] != "passkey_removed" {
				t.Errorf("events = %v", kinds)
			}
			// The password keeps working after the passkeys are gone.
			if _, st := loginWith(t, env, apitest.DemoEmail, apitest.DemoPassword, uaWindowsChrome); st != http.StatusNoContent {
				t.Errorf("password login: %d", st)
			}
		})

		t.Run("export holds names and times, never keys; deletion erases", func(t *testing.T) {
			registerPasskey(t, env, c, newSoftKey(demo.Member1), "Tablet")
			r := c.Get("/api/me/export")
			var exp struct {
				Parts map[string]json.RawMessage `json:"parts"`
			}
			r.JSON(t, &exp)
			var pk []map[string]any
			if err := json.Unmarshal(exp.Parts["passkeys"], &pk); err != nil || len(pk) != 1 || pk[0]["name"] != "Tablet" {
				t.Fatalf("export passkeys = %s (%v)", exp.Parts["passkeys"], err)
			}
			for key := range pk[0] {
				if key != "name" && key != "createdAt" && key != "lastUsedAt" {
					t.Errorf("export has %q", key)
				}
			}
			n := 0
			if err := env.App.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM passkeys WHERE member_id = $1`, demo.Member1).Scan(&n); err != nil || n != 1 {
				t.Fatalf("passkeys before erasure: %d %v", n, err)
			}
		})
	})
}

// Passkey sign-ins go through the login throttles: failures count per
// client address, and an account throttled by wrong passwords from this
// address cannot get in with a passkey either (until the window ends).
func TestPasskeyLoginThrottle(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		k := newSoftKey(demo.Member1)
		registerPasskey(t, env, c, k, "Key")

		for i := range 5 {
			if _, st := loginWith(t, env, apitest.DemoEmail, "Wrong9999", uaWindowsChrome); st != http.StatusUnauthorized {
				t.Fatalf("wrong password %d: %d", i, st)
			}
		}
		if _, st := passkeyLogin(t, env, k); st != http.StatusTooManyRequests {
			t.Errorf("passkey sign-in of a throttled account: %d", st)
		}
		env.Clock.Advance(16 * time.Minute)
		if _, st := passkeyLogin(t, env, k); st != http.StatusNoContent {
			t.Fatalf("passkey sign-in after the window: %d", st)
		}

		// Garbage assertions from one address: the 21st attempt is refused
		// before anything is checked, even a good one.
		env.Clock.Advance(16 * time.Minute)
		a := env.Client(t)
		a.NoContract = true
		for i := range 20 {
			o := options(t, a, "/api/passkeys/login/options")
			r := a.Do(http.MethodPost, "/api/passkeys/login", map[string]any{"challengeId": o.ChallengeID, "credential": map[string]any{"id": "AAAA", "type": "public-key"}})
			if r.Status != http.StatusUnauthorized {
				t.Fatalf("bad assertion %d: %d %s", i, r.Status, r.Body)
			}
		}
		if _, st := passkeyLogin(t, env, k); st != http.StatusTooManyRequests {
			t.Errorf("after 20 failures from the address: %d", st)
		}
	})
}
