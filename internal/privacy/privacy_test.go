package privacy_test

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/demo"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/privacy"
	"members/internal/store"
)

// holdings is what the member would lose, as the payment features say.
type holdings struct {
	pending *privacy.PendingPayment
	coupons []privacy.LostCoupon
	points  []privacy.LostPoints
}

func (h *holdings) PendingPayment(context.Context, string) (*privacy.PendingPayment, error) {
	return h.pending, nil
}

func (h *holdings) RefundableCoupons(context.Context, string, i18n.Lang) ([]privacy.LostCoupon, error) {
	return h.coupons, nil
}

func (h *holdings) PointBalances(context.Context, string, i18n.Lang) ([]privacy.LostPoints, error) {
	return h.points, nil
}

// cards records whose saved cards were forgotten at the gateway.
type cards struct{ forgot []string }

func (c *cards) ForgetAll(_ context.Context, memberID string) error {
	c.forgot = append(c.forgot, memberID)
	return nil
}

type fixture struct {
	svc      *privacy.Service
	members  *store.PrivacyStore
	mails    *apitest.Mails
	holdings *holdings
	cards    *cards
	clock    *apitest.Clock
}

func newPrivacy(t *testing.T, engine store.Engine) fixture {
	t.Helper()
	db, hasher := apitest.OpenDemoDB(t, engine)
	_, tpl := mailtest.Templates(t)
	f := fixture{members: store.NewPrivacyStore(db), mails: &apitest.Mails{}, holdings: &holdings{}, cards: &cards{}, clock: apitest.NewClock(db.Now())}
	f.svc = privacy.NewService(privacy.Deps{
		Store: f.members, Cards: f.cards, Holdings: f.holdings, Passwords: hasher, Counters: store.NewCounters(db),
		Mailer: f.mails, Templates: tpl, PublicURL: "https://members.example.com/", Now: f.clock.Now,
		Logger: apitest.Quiet(),
		Parts: []privacy.Part{
			{Key: "profile", Export: func(_ context.Context, id string) (any, error) { return map[string]string{"id": id}, nil }},
			{Key: "bookings", Export: func(context.Context, string) (any, error) { return []string{}, nil }},
		},
	})
	return f
}

var linkRe = regexp.MustCompile(`https://members\.example\.com/delete-account/([A-Za-z0-9_-]{43})\?lang=(\w+)`)

// requestDeletion asks with the right password and returns the mailed token.
func (f fixture) requestDeletion(t *testing.T, memberID string) string {
	t.Helper()
	res, err := f.svc.RequestDeletion(context.Background(), memberID, privacy.DeletionRequest{Password: demo.Password}, i18n.EN)
	if err != nil || !res.MailSent {
		t.Fatalf("request: %+v %v", res, err)
	}
	mails := f.mails.List()
	m := mails[len(mails)-1]
	link := linkRe.FindStringSubmatch(m.Text)
	if link == nil {
		t.Fatalf("no deletion link in the mail:\n%s", m.Text)
	}
	return link[1]
}

func TestRequestDeletion(t *testing.T) {
	ctx := context.Background()
	f := newPrivacy(t, store.SQLite)
	if _, err := f.svc.RequestDeletion(ctx, demo.Member1, privacy.DeletionRequest{}, i18n.EN); apperr.As(err) == nil || apperr.As(err).Fields["password"].Key == "" {
		t.Errorf("no password: %v", err)
	}
	// wrong passwords are counted; after five even the right one waits
	for i := range 5 {
		_, err := f.svc.RequestDeletion(ctx, demo.Member1, privacy.DeletionRequest{Password: "Wrong1234"}, i18n.EN)
		if e := apperr.As(err); e == nil || e.Fields["password"].Key != "security.deletion.password_wrong" {
			t.Fatalf("wrong password %d: %v", i+1, err)
		}
	}
	if _, err := f.svc.RequestDeletion(ctx, demo.Member1, privacy.DeletionRequest{Password: demo.Password}, i18n.EN); apperr.CodeOf(err) != apperr.TooMany {
		t.Fatalf("after five wrong passwords: %v", err)
	}
	if n := len(f.mails.List()); n != 0 {
		t.Fatalf("mails before a right password: %d", n)
	}
	// another member is not held back
	token := f.requestDeletion(t, demo.Member2)
	if m := f.mails.List()[0]; m.To != demo.Email2 || m.Kind != privacy.KindDeletion {
		t.Errorf("mail %s to %s", m.Kind, m.To)
	}
	if err := f.svc.ValidateDeletion(ctx, demo.Member2, token); err != nil {
		t.Errorf("the mailed link: %v", err)
	}
}

func TestDeletionLink(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		f := newPrivacy(t, engine)
		first := f.requestDeletion(t, demo.Member1)
		token := f.requestDeletion(t, demo.Member1)
		for name, c := range map[string]struct{ member, token string }{
			"a replaced link":   {demo.Member1, first},
			"another member's":  {demo.Member2, token},
			"a malformed token": {demo.Member1, "abc"},
			"an unknown token":  {demo.Member1, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
		} {
			if err := f.svc.ValidateDeletion(ctx, c.member, c.token); apperr.CodeOf(err) != apperr.NotFound {
				t.Errorf("%s: %v, want 404", name, err)
			}
		}
		if err := f.svc.ValidateDeletion(ctx, demo.Member1, token); err != nil {
			t.Fatalf("the latest link: %v", err)
		}
		f.clock.Advance(privacy.DeletionTTL + time.Second)
		if err := f.svc.ValidateDeletion(ctx, demo.Member1, token); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a link after %s: %v, want 404", privacy.DeletionTTL, err)
		}
	})
}

func TestDelete(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		f := newPrivacy(t, engine)
		token := f.requestDeletion(t, demo.Member1)

		f.holdings.pending = &privacy.PendingPayment{PaymentProcessID: "pp1", ProductType: "peachpoints"}
		if err := f.svc.Delete(ctx, demo.Member1, privacy.Confirmation{Token: token}, i18n.EN); !errors.Is(err, privacy.ErrPaymentPending) {
			t.Fatalf("with a pending payment: %v", err)
		}
		f.holdings.pending = nil
		f.holdings.coupons = []privacy.LostCoupon{{ID: "c1", Name: "Kansai", CurrencyCode: "JPY", RefundAmount: 47600}}
		f.holdings.points = []privacy.LostPoints{{CurrencyCode: "JPY", Currency: "JPY", Amount: 3000}}
		losses, err := f.svc.Losses(ctx, demo.Member1, i18n.EN)
		if err != nil || len(losses.Coupons) != 1 || losses.Coupons[0].Ack != "coupon:c1" || losses.Points[0].Ack != "points:JPY" {
			t.Fatalf("losses %+v %v", losses, err)
		}
		// every loss must be accepted, one that came since the page included
		if err := f.svc.Delete(ctx, demo.Member1, privacy.Confirmation{Token: token, Acknowledged: []string{"coupon:c1"}}, i18n.EN); !errors.Is(err, privacy.ErrUnconfirmedLosses) {
			t.Fatalf("points not accepted: %v", err)
		}
		if len(f.cards.forgot) != 0 {
			t.Fatal("cards forgotten before the deletion was confirmed")
		}
		if _, err := f.members.Member(ctx, demo.Member1); err != nil {
			t.Fatalf("member gone before the deletion: %v", err)
		}
		if err := f.svc.Delete(ctx, demo.Member1, privacy.Confirmation{Token: token, Acknowledged: []string{"coupon:c1", "points:JPY"}}, i18n.EN); err != nil {
			t.Fatal(err)
		}
		if len(f.cards.forgot) != 1 || f.cards.forgot[0] != demo.Member1 {
			t.Errorf("cards forgotten for %v", f.cards.forgot)
		}
		if _, err := f.members.Member(ctx, demo.Member1); !errors.Is(err, privacy.ErrNotFound) {
			t.Errorf("the deleted member: %v", err)
		}
		// the link is spent with the account; the other member is untouched
		if err := f.svc.Delete(ctx, demo.Member1, privacy.Confirmation{Token: token, Acknowledged: []string{"coupon:c1", "points:JPY"}}, i18n.EN); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("a second deletion: %v", err)
		}
		if _, err := f.members.Member(ctx, demo.Member2); err != nil {
			t.Errorf("member 2: %v", err)
		}
	})
}

func TestExport(t *testing.T) {
	f := newPrivacy(t, store.SQLite)
	f.clock.Set(time.Date(2026, 11, 28, 23, 30, 0, 0, time.UTC))
	e, err := f.svc.Export(context.Background(), demo.Member1)
	if err != nil {
		t.Fatal(err)
	}
	if e.MemberID != demo.Member1 || len(e.Parts) != 2 || e.Parts["profile"].(map[string]string)["id"] != demo.Member1 {
		t.Errorf("export %+v", e)
	}
	// dated on the Japan calendar: 23:30 UTC is the next day there
	if e.FileName() != "members-data-2026-11-29.json" {
		t.Errorf("file name %s", e.FileName())
	}
	if keys := f.svc.PartKeys(); len(keys) != 2 || keys[0] != "profile" || keys[1] != "bookings" {
		t.Errorf("part keys %v", keys)
	}
}

// The goodbye mail exists in every language, with its own text (no
// fallback to English, no catalogue key), and no link.
func TestGoodbyeMailInEveryLanguage(t *testing.T) {
	_, tpl := mailtest.Templates(t)
	en, err := tpl.Standard(privacy.KindDeleted, i18n.EN, "a@example.com", mail.Data{Given: "Hanako", Family: "Yamada"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]i18n.Lang{}
	for _, l := range i18n.Langs {
		m, err := tpl.Standard(privacy.KindDeleted, l, "a@example.com", mail.Data{Given: "Hanako", Family: "Yamada"})
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject == "" || regexp.MustCompile(`mail\.account_deleted`).MatchString(m.Subject+m.Text) || !regexp.MustCompile(`Yamada`).MatchString(m.Text) {
			t.Errorf("%s: %q %s", l, m.Subject, m.Text)
		}
		if l != i18n.EN && l != i18n.SG && m.Text == en.Text {
			t.Errorf("%s: the English text", l)
		}
		if prev, dup := seen[m.Subject]; dup && !(l == i18n.SG && prev == i18n.EN) && !(l == i18n.HK && prev == i18n.TW) {
			t.Errorf("%s: the subject of %s", l, prev)
		}
		seen[m.Subject] = l
	}
}
