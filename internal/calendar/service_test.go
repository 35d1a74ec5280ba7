package calendar_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/calendar"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

func newCalendarService(t *testing.T, engine store.Engine) (*calendar.Service, *apitest.Clock) {
	t.Helper()
	db, _ := apitest.OpenDemoDB(t, engine)
	cat, _ := mailtest.Templates(t)
	clock := apitest.NewClock(db.Now())
	w := calendar.NewWriter(cat, "members.example.com", "https://members.example.com/bookings")
	return calendar.NewService(store.NewCalendarStore(db), store.NewBookingStore(db), w, cat, "https://members.example.com/", clock.Now), clock
}

func TestBookingFileIsTheMembersOwn(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		svc, _ := newCalendarService(t, engine)
		f, err := svc.Booking(ctx, demo.Member1, " "+strings.ToLower(demo.DemoPNRFuture)+" ", i18n.EN)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != "booking-"+demo.DemoPNRFuture+".ics" || strings.Count(f.Body, "BEGIN:VEVENT") != 2 {
			t.Errorf("file %s with %d events", f.Name, strings.Count(f.Body, "BEGIN:VEVENT"))
		}
		// another member's booking, an unknown one and a malformed number: one 404
		for _, pnr := range []string{demo.DemoPNRMember2, "ZZZ999", "../etc", strings.Repeat("A", 40)} {
			if _, err := svc.Booking(ctx, demo.Member1, pnr, i18n.EN); apperr.CodeOf(err) != apperr.NotFound {
				t.Errorf("%q: %v, want 404", pnr, err)
			}
		}
	})
}

func TestSubscription(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		svc, clock := newCalendarService(t, engine)
		if st, err := svc.Status(ctx, demo.Member1); err != nil || st.Active {
			t.Fatalf("before: %+v %v", st, err)
		}
		feed, err := svc.Renew(ctx, demo.Member1, i18n.JP)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(feed.URL)
		if err != nil || u.Host != "members.example.com" || u.Path != calendar.FeedPath || u.Query().Get("lang") != "jp" {
			t.Fatalf("feed URL %q", feed.URL)
		}
		token := u.Query().Get("token")
		clock.Advance(time.Minute)
		body, err := svc.Subscription(ctx, token, i18n.JP)
		if err != nil {
			t.Fatal(err)
		}
		// member 1's bookings still to fly or flown within the window, never member 2's
		if !strings.Contains(body, demo.DemoPNRFuture) || strings.Contains(body, demo.DemoPNRMember2) || strings.Contains(body, demo.DemoPNROutdated) {
			t.Errorf("feed holds the wrong bookings:\n%s", body)
		}
		if st, _ := svc.Status(ctx, demo.Member1); !st.Active || st.LastUsedAt == nil {
			t.Errorf("status after a fetch: %+v", st)
		}

		// a new URL ends the old one at once
		if _, err := svc.Renew(ctx, demo.Member1, i18n.EN); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Subscription(ctx, token, i18n.EN); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a renewed token: %v, want 404", err)
		}
		for _, bad := range []string{"", "short", strings.Repeat("A", 43)} {
			if _, err := svc.Subscription(ctx, bad, i18n.EN); apperr.CodeOf(err) != apperr.NotFound {
				t.Errorf("token %q: %v, want 404", bad, err)
			}
		}
		if err := svc.Stop(ctx, demo.Member1); err != nil {
			t.Fatal(err)
		}
		if st, _ := svc.Status(ctx, demo.Member1); st.Active {
			t.Error("still subscribed after stop")
		}
		// only the token's hash is kept
		if calendar.HashToken(token) == token || len(calendar.HashToken(token)) != 64 {
			t.Error("the token is not hashed")
		}
	})
}
