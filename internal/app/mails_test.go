package app

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/coupon"
	"members/internal/flightops"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/notify"
	"members/internal/pass"
	"members/internal/points"
)

// memOutbox keeps the mails in memory.
type memOutbox struct {
	mu   sync.Mutex
	msgs []mail.Message
}

func (o *memOutbox) Add(_ context.Context, m mail.Message, _ mail.Status, _ time.Time) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.msgs = append(o.msgs, m)
	return "m", nil
}
func (o *memOutbox) MarkSent(context.Context, string, time.Time) error { return nil }
func (o *memOutbox) MarkAttempt(context.Context, string, int, mail.Status, time.Time, string) error {
	return nil
}
func (o *memOutbox) Claim(context.Context, time.Time, time.Time, int) ([]mail.Stored, error) {
	return nil, nil
}
func (o *memOutbox) List(context.Context, int) ([]mail.Stored, error)    { return nil, nil }
func (o *memOutbox) Get(context.Context, string) (mail.Stored, error)    { return mail.Stored{}, nil }
func (o *memOutbox) PurgeSent(context.Context, time.Time) (int64, error) { return 0, nil }
func (o *memOutbox) Forget(context.Context) error                        { return nil }
func (o *memOutbox) ForgetFailed(context.Context, time.Time) (int64, error) {
	return 0, nil
}
func (o *memOutbox) Requeue(context.Context, string, time.Time) (bool, error) { return false, nil }
func (o *memOutbox) Failed(context.Context, time.Time, time.Time) ([]mail.Stored, error) {
	return nil, nil
}

func (o *memOutbox) last(t *testing.T) mail.Message {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.msgs) == 0 {
		t.Fatal("no mail")
	}
	return o.msgs[len(o.msgs)-1]
}

var isoDate = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// Every mail the app's senders build, in English, Japanese and Thai: no
// ISO date in the subject, text or HTML, the Buddhist-era year in Thai,
// amounts written the language's one way, counts in the right plural,
// the member's name in the language's order, and no "if you did not make
// this change" line under a purchase, an itinerary or a flight change.
func TestMailsWriteDatesAmountsAndNamesTheLanguagesWay(t *testing.T) {
	cat, tpl := mailtest.Templates(t)
	box := &memOutbox{}
	now := func() time.Time { return time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC) }
	mailer := mail.New(box, nil, "noreply@example.com", now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	settings, err := notify.NewService(nil, [][]byte{[]byte("0123456789abcdef0123456789abcdef")}, "https://members.example", now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pm := &passMailer{cat: cat, tpl: tpl, mailer: mailer}
	fm := &flightMailer{cat: cat, tpl: tpl, mailer: mailer, publicURL: "https://members.example", settings: settings}
	im := &itineraryMailer{cat: cat, tpl: tpl, mailer: mailer}
	ptm := &pointsMailer{cat: cat, tpl: tpl, mailer: mailer, settings: settings}
	dep := time.Date(2026, 12, 24, 1, 30, 0, 0, time.UTC)
	name := map[i18n.Lang]string{i18n.EN: "Hanako Yamada", i18n.JP: "Yamada Hanako", i18n.TH: "Hanako Yamada"}
	money := map[i18n.Lang]string{i18n.EN: "JPY 47,600", i18n.JP: "47,600円", i18n.TH: "JPY 47,600"}
	pax := map[i18n.Lang]string{i18n.EN: "1 passenger", i18n.JP: "1名", i18n.TH: "1 คน"}
	days := map[i18n.Lang]string{i18n.EN: "1 day from now", i18n.JP: "あと1日", i18n.TH: "อีก 1 วัน"}
	notice := func(l i18n.Lang) string { return cat.T(l, "mail.security_notice") }

	for _, lang := range []i18n.Lang{i18n.EN, i18n.JP, i18n.TH} {
		purchaser := coupon.Purchaser{Lastname: "Yamada", Firstname: "Hanako"}
		c := coupon.Coupon{Name: "Kansai Discovery Pass", CurrencyCode: "JPY", PurchasedPrice: 47600, RefundAmount: 47600, Purchaser: purchaser,
			AvailablePeriodToBoard: pass.Range{Begin: "2026-12-01", End: "2027-02-28"}}
		cases := []struct {
			kind string
			send func() error
			want []string
		}{
			{"coupon purchased", func() error {
				return pm.SendCouponMail(ctx, coupon.Mail{Kind: coupon.MailPurchased, To: coupon.Holder{Purchaser: purchaser, Email: "h@example.com", Lang: string(lang)}, Coupon: c})
			}, []string{money[lang], pax[lang], i18n.FormatDate(lang, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), false)}},
			{"coupon refunded", func() error {
				return pm.SendCouponMail(ctx, coupon.Mail{Kind: coupon.MailRefunded, To: coupon.Holder{Purchaser: purchaser, Email: "h@example.com", Lang: string(lang)}, Coupon: c})
			}, []string{money[lang]}},
			{"pass lottery won", func() error {
				until := i18n.FormatDateTime(lang, time.Date(2026, 12, 3, 23, 59, 0, 0, booking.JST)) + " (UTC+09:00)"
				return pm.SendPassMail(ctx, pass.Mail{Kind: pass.MailLotteryWon, To: pass.Holder{Email: "h@example.com", Firstname: "Hanako", Lastname: "Yamada", Lang: string(lang)},
					Name: "Unlimited pass", Until: until, Period: pass.Range{Begin: "2026-12-01", End: "2027-02-28"}})
			}, nil},
			{"flight change", func() error {
				return fm.SendFlightChange(ctx, flightops.ChangeMail{MemberID: "m1",
					To: flightops.Recipient{Email: "h@example.com", Firstname: "Hanako", Lastname: "Yamada", Lang: string(lang), PNRs: []string{"QX7PDF"}},
					State: flightops.State{Flight: "MM801", Date: "2026-12-24", Origin: "KIX", Destination: "BKK", OriginalDepartAt: dep, DepartAt: dep.Add(time.Hour),
						ArrivalAt: dep.Add(7 * time.Hour), FlightStatus: booking.FlightNotYetDepartedWithDelay, LastKind: flightops.KindDelay}})
			}, []string{i18n.FormatDate(lang, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC), false)}},
			{"itinerary", func() error {
				return im.SendItinerary(ctx, booking.ItineraryMail{To: booking.Contact{Email: "h@example.com", Firstname: "Hanako", Lastname: "Yamada"}, Lang: lang, PNR: "QX7PDF",
					Flights: []string{"MM801 KIX-BKK " + i18n.FormatDateTime(lang, dep.In(booking.JST))}, PDF: []byte("%PDF-")})
			}, nil},
			{"points issued", func() error {
				return ptm.SendPoints(ctx, points.Mail{Kind: "issued", To: points.Contact{MemberID: "m1", Email: "h@example.com", Firstname: "Hanako", Lastname: "Yamada", Lang: string(lang)},
					Voucher: points.Voucher{Number: "1234567890", Currency: "JPY", Balance: 47600, ExpireDate: "2027-11-30"}, Pin: "1234"})
			}, []string{money[lang], i18n.FormatISODate(lang, "2027-11-30")}},
			{"points reminder", func() error {
				return ptm.SendPoints(ctx, points.Mail{Kind: "reminder", To: points.Contact{MemberID: "m1", Email: "h@example.com", Firstname: "Hanako", Lastname: "Yamada", Lang: string(lang)},
					Voucher: points.Voucher{Number: "1234567890", Currency: "JPY", Balance: 47600, ExpireDate: "2026-11-21"}, Days: 1})
			}, []string{money[lang], days[lang]}},
		}
		for _, tc := range cases {
			t.Run(string(lang)+"/"+tc.kind, func(t *testing.T) {
				if err := tc.send(); err != nil {
					t.Fatal(err)
				}
				m := box.last(t)
				if testing.Verbose() && lang != i18n.EN {
					t.Log(m.Subject + "\n" + m.Text)
				}
				for part, s := range map[string]string{"subject": m.Subject, "text": m.Text, "html": m.HTML} {
					if d := isoDate.FindString(s); d != "" {
						t.Errorf("%s has the ISO date %s:\n%s", part, d, s)
					}
					if lang == i18n.TH && strings.Contains(s, "2026") {
						t.Errorf("Thai %s has a Gregorian year:\n%s", part, s)
					}
				}
				// A count is held to its unit by a no-break space or a word
				// joiner (internal/i18n's TestCountsKeepTheirUnit); the words
				// are looked for as a reader sees them.
				plain := strings.NewReplacer("\u00a0", " ", "\u2060", "")
				for _, w := range append([]string{name[lang]}, tc.want...) {
					if !strings.Contains(plain.Replace(m.Text), w) || !strings.Contains(plain.Replace(m.HTML), w) {
						t.Errorf("%q missing:\n%s", w, m.Text)
					}
				}
				if strings.Contains(m.Text, notice(lang)) {
					t.Errorf("the account-change notice under a %s mail:\n%s", tc.kind, m.Text)
				}
				if lang == i18n.TH && (tc.kind == "flight change" || tc.kind == "points issued") && !strings.Contains(m.Text, "25") {
					t.Errorf("no Buddhist-era year:\n%s", m.Text)
				}
			})
		}
	}
}
