package notify

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"members/internal/i18n"
)

type fakeStore map[string]Stored

func (f fakeStore) Settings(_ context.Context, id string) (Stored, error) {
	st, ok := f[id]
	if !ok {
		return Stored{}, ErrNotFound
	}
	return st, nil
}

func (f fakeStore) Save(_ context.Context, id string, fc, pr bool, lang string, _ time.Time) error {
	st, ok := f[id]
	if !ok {
		return ErrNotFound
	}
	st.Saved, st.FlightChanges, st.PointsReminders, st.MailLang = true, fc, pr, lang
	f[id] = st
	return nil
}

func (f fakeStore) SwitchOff(_ context.Context, id string, k Kind, _ time.Time) error {
	st, ok := f[id]
	if !ok {
		return ErrNotFound
	}
	if !st.Saved {
		st.Saved, st.FlightChanges, st.PointsReminders = true, true, true
	}
	switch k {
	case FlightChanges:
		st.FlightChanges = false
	case PointsReminders:
		st.PointsReminders = false
	}
	f[id] = st
	return nil
}

func newService(t *testing.T, st Store, keys ...[]byte) *Service {
	t.Helper()
	s, err := NewService(st, keys, "https://members.example.com/", time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Stored
		want Settings
	}{
		{"nothing saved", Stored{AccountLang: "th"}, Settings{FlightChanges: true, PointsReminders: true, MailLang: i18n.Lang("th")}},
		{"saved, no language", Stored{Saved: true, FlightChanges: false, PointsReminders: true, AccountLang: "kr"}, Settings{false, true, i18n.Lang("kr"), false}},
		{"language chosen", Stored{Saved: true, FlightChanges: true, MailLang: "jp", AccountLang: "en"}, Settings{true, false, i18n.Lang("jp"), true}},
		{"bad account language", Stored{AccountLang: "xx"}, Settings{true, true, i18n.Default, false}},
	} {
		if got := tc.in.Apply(); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	s := Settings{FlightChanges: false, PointsReminders: false}
	if s.Allows(FlightChanges) || s.Allows(PointsReminders) || !s.Allows(Security) {
		t.Error("security alerts must always be allowed, the others as set")
	}
}

// Links: signed for one member and kind; a forged, altered or foreign-key
// link is refused; the previous key still verifies during a change.
func TestUnsubscribeLinks(t *testing.T) {
	ctx := context.Background()
	oldKey, newKey, otherKey := []byte("0123456789abcdef0123456789abcdef"), []byte("fedcba9876543210fedcba9876543210"), []byte("x123456789abcdef0123456789abcdef")
	st := fakeStore{"m1": {AccountLang: "jp"}, "m2": {AccountLang: "en"}}
	before := newService(t, st, oldKey)
	during := newService(t, st, newKey, oldKey)
	stranger := newService(t, st, otherKey)

	q := func(s *Service, id string, k Kind) url.Values {
		u, err := url.Parse(s.UnsubscribeURL(id, k))
		if err != nil || u.Host != "members.example.com" || u.Path != UnsubscribePath {
			t.Fatalf("url %v %v", u, err)
		}
		return u.Query()
	}
	old := q(before, "m1", FlightChanges)
	for _, tc := range []struct {
		name         string
		m, k, s      string
		svc          *Service
		wantErr      error
		wantLangIsJP bool
	}{
		{"own key", "m1", "flight_changes", q(during, "m1", FlightChanges).Get("s"), during, nil, true},
		{"previous key", "m1", "flight_changes", old.Get("s"), during, nil, true},
		{"new link, old server", "m1", "flight_changes", q(during, "m1", FlightChanges).Get("s"), before, ErrBadLink, false},
		{"another server's key", "m1", "flight_changes", q(stranger, "m1", FlightChanges).Get("s"), during, ErrBadLink, false},
		{"another member", "m2", "flight_changes", old.Get("s"), during, ErrBadLink, false},
		{"another kind", "m1", "points_reminders", old.Get("s"), during, ErrBadLink, false},
		{"security", "m1", "security", q(during, "m1", Security).Get("s"), during, ErrBadLink, false},
		{"empty signature", "m1", "flight_changes", "", during, ErrBadLink, false},
		{"unknown member", "m9", "flight_changes", q(during, "m9", FlightChanges).Get("s"), during, ErrNotFound, false},
	} {
		l, err := tc.svc.CheckLink(ctx, tc.m, tc.k, tc.s)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.wantErr)
		}
		if tc.wantLangIsJP && l.Lang != i18n.Lang("jp") {
			t.Errorf("%s: page language %q", tc.name, l.Lang)
		}
	}
	if h := during.Headers("m1", Security); h != nil {
		t.Errorf("security mails carry %v", h)
	}
	h := during.Headers("m1", PointsReminders)
	if h["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" || h["List-Unsubscribe"] != "<"+during.UnsubscribeURL("m1", PointsReminders)+">" {
		t.Errorf("headers %v", h)
	}

	// Unsubscribe switches only its kind off; a forged one changes nothing.
	if _, err := during.Unsubscribe(ctx, "m1", "points_reminders", old.Get("s")); !errors.Is(err, ErrBadLink) {
		t.Fatalf("forged: %v", err)
	}
	if st["m1"].Saved {
		t.Fatal("a forged link changed the settings")
	}
	if _, err := during.Unsubscribe(ctx, "m1", "flight_changes", old.Get("s")); err != nil {
		t.Fatal(err)
	}
	if got := st["m1"].Apply(); got.FlightChanges || !got.PointsReminders {
		t.Errorf("after unsubscribe: %+v", got)
	}
}

func TestUpdateRules(t *testing.T) {
	ctx := context.Background()
	st := fakeStore{"m1": {AccountLang: "en"}}
	s := newService(t, st, []byte("0123456789abcdef0123456789abcdef"))
	yes, no := true, false
	for _, tc := range []struct {
		name string
		in   Input
		ok   bool
	}{
		{"valid", Input{FlightChanges: &no, PointsReminders: &yes, MailLang: "tw"}, true},
		{"security on", Input{FlightChanges: &yes, PointsReminders: &yes, SecurityAlerts: &yes, MailLang: "hk"}, true},
		{"security off", Input{FlightChanges: &yes, PointsReminders: &yes, SecurityAlerts: &no, MailLang: "hk"}, false},
		{"language unknown", Input{FlightChanges: &yes, PointsReminders: &yes, MailLang: "ja"}, false},
		{"switch missing", Input{PointsReminders: &yes, MailLang: "jp"}, false},
	} {
		_, err := s.Update(ctx, "m1", tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if got, _ := s.Get(ctx, "m1"); got.MailLang != "hk" || !got.FlightChanges {
		t.Errorf("last valid change not kept: %+v", got)
	}
	// "" goes back to the account's language (same as the site).
	if got, err := s.Update(ctx, "m1", Input{FlightChanges: &yes, PointsReminders: &yes, MailLang: ""}); err != nil || got.MailLang != "en" || got.MailLangChosen {
		t.Errorf("back to the site's language: %+v %v", got, err)
	}
	if _, err := s.Update(ctx, "nobody", Input{FlightChanges: &yes, PointsReminders: &yes, MailLang: "jp"}); err == nil {
		t.Error("unknown member updated")
	}
}
