package passkey_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/demo"
	"members/internal/passkey"
	"members/internal/security"
	"members/internal/store"
)

func TestRelyingParty(t *testing.T) {
	for _, c := range []struct {
		publicURL, rpID, origin string
		err                     error
	}{
		{"https://members.example.com", "members.example.com", "https://members.example.com", nil},
		{"https://members.example.com:8443/base", "members.example.com", "https://members.example.com:8443", nil},
		// browsers take no IP address as a relying party: loopback is localhost
		{"http://127.0.0.1:8080", "localhost", "http://localhost:8080", nil},
		{"http://[::1]:8080", "localhost", "http://localhost:8080", nil},
		{"https://203.0.113.7", "", "", passkey.ErrNoDomain},
		{"ftp://members.example.com", "", "", errors.New("not http(s)")},
		{"members.example.com", "", "", errors.New("not absolute")},
	} {
		rpID, origins, err := passkey.RelyingParty(c.publicURL)
		switch {
		case c.err == nil && err != nil:
			t.Errorf("%s: %v", c.publicURL, err)
		case c.err != nil && err == nil:
			t.Errorf("%s: no error, want %v", c.publicURL, c.err)
		case errors.Is(c.err, passkey.ErrNoDomain) && !errors.Is(err, passkey.ErrNoDomain):
			t.Errorf("%s: %v, want ErrNoDomain", c.publicURL, err)
		case c.err == nil && (rpID != c.rpID || len(origins) != 1 || origins[0] != c.origin):
			t.Errorf("%s: %q %v, want %q [%s]", c.publicURL, rpID, origins, c.rpID, c.origin)
		}
	}
}

// events records what the service tells the security centre.
type events struct {
	mu   sync.Mutex
	list []string // kind mailKind name
}

func (e *events) Record(_ context.Context, memberID string, ev security.Event, mailKind string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	name := ""
	if len(args) == 2 {
		name, _ = args[1].(string)
	}
	e.list = append(e.list, memberID+" "+ev.Kind+" "+mailKind+" "+name)
}

var rp = virtualwebauthn.RelyingParty{ID: "localhost", Name: "members", Origin: "http://localhost:8080"}

type fixture struct {
	svc    *passkey.Service
	clock  *apitest.Clock
	events *events
}

// newService builds the service on a real database with the demo members.
func newService(t *testing.T, engine store.Engine) fixture {
	t.Helper()
	db, hasher := apitest.OpenDemoDB(t, engine)
	clock := apitest.NewClock(time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC))
	ev := &events{}
	svc, err := passkey.NewService(passkey.Deps{
		Store:     store.NewPasskeyStore(db),
		Config:    passkey.Config{RPID: rp.ID, RPName: rp.Name, Origins: []string{rp.Origin}, ChallengeID: store.NewID},
		Passwords: hasher, Counters: store.NewCounters(db), Notifier: ev,
		Now: clock.Now, Logger: apitest.Quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{svc: svc, clock: clock, events: ev}
}

// softKey is a software authenticator with one discoverable credential.
type softKey struct {
	auth virtualwebauthn.Authenticator
	cred virtualwebauthn.Credential
}

func newSoftKey(memberID string) *softKey {
	k := &softKey{auth: virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte(memberID)})}
	for {
		// virtualwebauthn drops a coordinate's leading zero byte, which
		// go-webauthn rightly refuses: take a key whose both are full width
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		if len(key.X.Bytes()) == 32 && len(key.Y.Bytes()) == 32 {
			der, err := x509.MarshalPKCS8PrivateKey(key)
			if err != nil {
				panic(err)
			}
			k.cred = virtualwebauthn.NewCredentialWithImportedKey(virtualwebauthn.KeyTypeEC2, der)
			break
		}
	}
	k.auth.AddCredential(k.cred)
	return k
}

// attest answers registration options as the browser would.
func (k *softKey) attest(t *testing.T, o passkey.Options) []byte {
	t.Helper()
	pk, err := json.Marshal(o.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	ao, err := virtualwebauthn.ParseAttestationOptions(string(pk))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(virtualwebauthn.CreateAttestationResponse(rp, k.auth, k.cred, *ao))
}

func codeOf(err error) apperr.Code { return apperr.CodeOf(err) }

func TestRegistration(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		f := newService(t, engine)
		key := newSoftKey(demo.Member1)
		client := passkey.Client{Addr: "192.0.2.1", UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"}

		o, err := f.svc.BeginRegistration(ctx, demo.Member1)
		if err != nil {
			t.Fatal(err)
		}
		answer := key.attest(t, o)
		// another member cannot finish this member's ceremony, and the
		// attempt uses the ceremony up
		if _, err := f.svc.FinishRegistration(ctx, demo.Member2, passkey.RegisterInput{ChallengeID: o.ChallengeID, Credential: answer}, client); codeOf(err) != apperr.Invalid {
			t.Fatalf("another member's finish: %v", err)
		}
		if _, err := f.svc.FinishRegistration(ctx, demo.Member1, passkey.RegisterInput{ChallengeID: o.ChallengeID, Credential: answer}, client); codeOf(err) != apperr.Invalid {
			t.Fatalf("a used ceremony: %v", err)
		}

		o, err = f.svc.BeginRegistration(ctx, demo.Member1)
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.svc.FinishRegistration(ctx, demo.Member1, passkey.RegisterInput{ChallengeID: o.ChallengeID, Credential: key.attest(t, o)}, client)
		if err != nil {
			t.Fatal(err)
		}
		// no name given: the browser and system of the client
		if !strings.Contains(v.Name, "Safari") || !strings.Contains(v.Name, "iOS") {
			t.Errorf("default name %q", v.Name)
		}
		list, err := f.svc.List(ctx, demo.Member1)
		if err != nil || len(list) != 1 || list[0].ID != v.ID {
			t.Fatalf("list: %v %v", list, err)
		}
		if other, _ := f.svc.List(ctx, demo.Member2); len(other) != 0 {
			t.Errorf("member 2 has %v", other)
		}
		if want := demo.Member1 + " " + security.KindPasskeyAdded + " " + passkey.MailAdded + " " + v.Name; len(f.events.list) != 1 || f.events.list[0] != want {
			t.Errorf("events %v, want [%s]", f.events.list, want)
		}

		// the same authenticator again: a duplicate
		o, err = f.svc.BeginRegistration(ctx, demo.Member1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.FinishRegistration(ctx, demo.Member1, passkey.RegisterInput{ChallengeID: o.ChallengeID, Credential: key.attest(t, o)}, client); err == nil {
			t.Error("the same credential was registered twice")
		}

		// a ceremony answered after its time
		o, err = f.svc.BeginRegistration(ctx, demo.Member1)
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(passkey.ChallengeTTL)
		if _, err := f.svc.FinishRegistration(ctx, demo.Member1, passkey.RegisterInput{ChallengeID: o.ChallengeID, Credential: newSoftKey(demo.Member1).attest(t, o)}, client); codeOf(err) != apperr.Invalid {
			t.Errorf("an expired ceremony: %v", err)
		}
		// a name too long is a field error, before the ceremony is used
		if _, err := f.svc.FinishRegistration(ctx, demo.Member1, passkey.RegisterInput{ChallengeID: "x", Name: strings.Repeat("n", passkey.MaxNameLen+1)}, client); apperr.As(err) == nil || apperr.As(err).Fields["name"].Key == "" {
			t.Errorf("long name: %v", err)
		}
	})
}

func TestRenameAndRemove(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		f := newService(t, engine)
		o, err := f.svc.BeginRegistration(ctx, demo.Member1)
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.svc.FinishRegistration(ctx, demo.Member1, passkey.RegisterInput{ChallengeID: o.ChallengeID, Name: "Phone", Credential: newSoftKey(demo.Member1).attest(t, o)}, passkey.Client{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			member, id, name string
			want             apperr.Code
		}{
			{demo.Member2, v.ID, "Mine now", apperr.NotFound}, // another member's passkey: 404 before the name
			{demo.Member1, "nope", "Laptop", apperr.NotFound},
			{demo.Member1, v.ID, "  ", apperr.Invalid},
			{demo.Member1, v.ID, strings.Repeat("x", passkey.MaxNameLen+1), apperr.Invalid},
		} {
			if _, err := f.svc.Rename(ctx, c.member, c.id, c.name); codeOf(err) != c.want {
				t.Errorf("rename %q by %s: %v, want %s", c.name, c.member[len(c.member)-1:], err, c.want)
			}
		}
		if r, err := f.svc.Rename(ctx, demo.Member1, v.ID, "  Work laptop "); err != nil || r.Name != "Work laptop" {
			t.Fatalf("rename: %v %v", r, err)
		}

		// removal asks for the password or a passkey
		if err := f.svc.Remove(ctx, demo.Member2, v.ID, passkey.RemoveInput{CurrentPassword: demo.Password}, passkey.Client{}); codeOf(err) != apperr.NotFound {
			t.Errorf("another member's removal: %v", err)
		}
		if err := f.svc.Remove(ctx, demo.Member1, v.ID, passkey.RemoveInput{}, passkey.Client{}); codeOf(err) != apperr.Invalid {
			t.Errorf("removal without re-authentication: %v", err)
		}
		if err := f.svc.Remove(ctx, demo.Member1, v.ID, passkey.RemoveInput{CurrentPassword: "wrong-password"}, passkey.Client{}); err == nil {
			t.Error("a wrong password removed the passkey")
		}
		if err := f.svc.Remove(ctx, demo.Member1, v.ID, passkey.RemoveInput{CurrentPassword: demo.Password}, passkey.Client{}); err != nil {
			t.Fatal(err)
		}
		if list, _ := f.svc.List(ctx, demo.Member1); len(list) != 0 {
			t.Errorf("left: %v", list)
		}
		if last := f.events.list[len(f.events.list)-1]; last != demo.Member1+" "+security.KindPasskeyRemoved+" "+passkey.MailRemoved+" Work laptop" {
			t.Errorf("last event %q", last)
		}
	})
}

func TestCeremoniesAreThrottledAndOffWithoutARelyingParty(t *testing.T) {
	ctx := context.Background()
	f := newService(t, store.SQLite)
	for i := range passkey.OptionsPerWindow {
		if _, err := f.svc.BeginRegistration(ctx, demo.Member1); err != nil {
			t.Fatalf("ceremony %d: %v", i+1, err)
		}
	}
	if _, err := f.svc.BeginRegistration(ctx, demo.Member1); codeOf(err) != apperr.TooMany {
		t.Errorf("one ceremony over the limit: %v", err)
	}
	if _, err := f.svc.BeginRegistration(ctx, demo.Member2); err != nil {
		t.Errorf("another member's ceremony: %v", err)
	}

	off := passkey.Disabled(passkey.Deps{})
	if off.Enabled() {
		t.Fatal("disabled service enabled")
	}
	if _, err := off.BeginRegistration(ctx, demo.Member1); codeOf(err) != apperr.Unavailable {
		t.Errorf("registration while off: %v", err)
	}
	if _, err := off.BeginLogin(ctx, "192.0.2.1"); codeOf(err) != apperr.Unavailable {
		t.Errorf("sign-in while off: %v", err)
	}
}
