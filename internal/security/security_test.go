package security_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/mail/mailtest"
	"members/internal/security"
	"members/internal/store"
)

func TestParseDevice(t *testing.T) {
	for _, c := range []struct {
		ua   string
		want security.Device
	}{
		{"", security.Device{Kind: "unknown"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
			security.Device{Browser: "Chrome 131", OS: "Windows", Kind: "desktop"}},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
			security.Device{Browser: "Safari 18", OS: "iOS", Kind: "mobile"}},
		{"Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
			security.Device{Browser: "Safari 17", OS: "iOS", Kind: "tablet"}},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", security.Device{Browser: "Googlebot", Kind: "bot"}},
	} {
		got := security.ParseDevice(c.ua)
		if got.Kind != c.want.Kind || got.OS != c.want.OS || !strings.HasPrefix(got.Browser, c.want.Browser) {
			t.Errorf("%.40q: %+v, want %+v", c.ua, got, c.want)
		}
	}
}

func TestNetwork(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1": "loopback", "::1": "loopback", "10.1.2.3": "private", "192.168.0.10": "private",
		"fe80::1": "private", "203.0.113.9": "public", "2001:db8::1": "public", "": "unknown", "not-an-address": "unknown",
	} {
		if got := security.Network(addr); got != want {
			t.Errorf("%q: %s, want %s", addr, got, want)
		}
	}
}

type centre struct {
	svc      *security.Service
	sessions *store.AuthStore
	mails    *apitest.Mails
	clock    *apitest.Clock
}

func newCentre(t *testing.T, engine store.Engine) centre {
	t.Helper()
	db, _ := apitest.OpenDemoDB(t, engine)
	_, tpl := mailtest.Templates(t)
	c := centre{sessions: store.NewAuthStore(db), mails: &apitest.Mails{}, clock: apitest.NewClock(db.Now())}
	c.svc = security.NewService(store.NewSecurityStore(db), c.mails, tpl, "https://members.example.com/", c.clock.Now,
		apitest.Quiet())
	return c
}

const (
	chromeWindows  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	chromeWindows2 = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36"
	safariPhone    = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
)

func (c centre) session(t *testing.T, memberID, token, ua string) auth.Session {
	t.Helper()
	now := c.clock.Now()
	s := auth.Session{IDHash: auth.HashToken(token), MemberID: memberID, LogID: token, CreatedAt: now, LastSeenAt: now, ClientAddr: "203.0.113.9", UserAgent: ua}
	if err := c.sessions.CreateSession(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewDeviceMail(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		c := newCentre(t, engine)
		// a first sign-in is not news; the same browser after an update
		// is not a new device; another device is, once
		c.svc.SignedIn(ctx, c.session(t, demo.Member1, "t1", chromeWindows))
		c.clock.Advance(time.Hour)
		c.svc.SignedIn(ctx, c.session(t, demo.Member1, "t2", chromeWindows2))
		if len(c.mails.List()) != 0 {
			t.Fatalf("mails %v before a new device", c.mails.List())
		}
		c.clock.Advance(time.Hour)
		c.svc.SignedIn(ctx, c.session(t, demo.Member1, "t3", safariPhone))
		c.clock.Advance(time.Hour)
		c.svc.SignedIn(ctx, c.session(t, demo.Member1, "t4", safariPhone))
		if len(c.mails.List()) != 1 {
			t.Fatalf("%d mails, want one for the new device", len(c.mails.List()))
		}
		m := c.mails.List()[0]
		if m.To != demo.Email1 || !strings.Contains(m.Text, "Safari") || !strings.Contains(m.Text, "https://members.example.com/security?lang=") {
			t.Errorf("new-device mail to %s:\n%s", m.To, m.Text)
		}
		// after an absence longer than the retention window the centre
		// knows no earlier sign-in: the next one is like a first, not news
		c.clock.Advance(security.EventRetention + time.Hour)
		c.svc.SignedIn(ctx, c.session(t, demo.Member1, "t5", chromeWindows))
		if len(c.mails.List()) != 1 {
			t.Errorf("%d mails after a long absence, want none more", len(c.mails.List()))
		}
		if n, err := c.svc.Purge(ctx); err != nil || n < 4 {
			t.Errorf("purge: %d %v, want the four old sign-ins", n, err)
		}
	})
}

func TestEndSession(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		c := newCentre(t, engine)
		current := c.session(t, demo.Member1, "cur", chromeWindows)
		other := c.session(t, demo.Member1, "phone", safariPhone)
		stranger := c.session(t, demo.Member2, "theirs", safariPhone)
		for name, id := range map[string]string{
			"the current session": security.PublicID(current.IDHash),
			"another member's":    security.PublicID(stranger.IDHash),
			"an unknown id":       "0123456789abcdef01234567",
			"the raw hash":        other.IDHash, // the page never sees it, and it does not work
		} {
			if err := c.svc.EndSession(ctx, current, id); apperr.CodeOf(err) != apperr.NotFound {
				t.Errorf("%s: %v, want 404", name, err)
			}
		}
		if err := c.svc.EndSession(ctx, current, security.PublicID(other.IDHash)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.sessions.SessionByHash(ctx, other.IDHash); err == nil {
			t.Error("the ended session still exists")
		}
		if _, err := c.sessions.SessionByHash(ctx, current.IDHash); err != nil {
			t.Errorf("the current session ended too: %v", err)
		}

		c.session(t, demo.Member1, "laptop", chromeWindows2)
		if err := c.svc.EndOthers(ctx, current); err != nil {
			t.Fatal(err)
		}
		if _, err := c.sessions.SessionByHash(ctx, auth.HashToken("laptop")); err == nil {
			t.Error("end others left a session")
		}
		if _, err := c.sessions.SessionByHash(ctx, current.IDHash); err != nil {
			t.Errorf("end others ended the current session: %v", err)
		}
		if _, err := c.sessions.SessionByHash(ctx, stranger.IDHash); err != nil {
			t.Errorf("end others ended another member's session: %v", err)
		}
	})
}
