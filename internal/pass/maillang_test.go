package pass_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/pass"
	"members/internal/store"
)

// mailLangHolders are members with a chosen mail language (chosen[id], ""
// for none).
type mailLangHolders map[string]string

func (h mailLangHolders) Holder(_ context.Context, memberID string) (pass.Holder, error) {
	return pass.Holder{Email: memberID + "@example.com", Firstname: "Member", MailLang: h[memberID], Lang: "en"}, nil
}

// The pass's mails speak the member's mail language, else the language of
// the page where the member did what the mail is about (the exchange, the
// lottery entry), and name the plan and the buying deadline in it: never
// the entry's language when the member chose another.
func TestPassMailsSpeakTheMailLanguage(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		db, _ := apitest.OpenDemoDB(t, engine)
		box := &outbox{}
		clock := apitest.NewClock(db.Now())
		chosen := mailLangHolders{demo.Member1: "", demo.Member2: "kr"}
		svc := pass.NewService(pass.Deps{
			Store: store.NewPassStore(db), Status: &switches{}, Members: chosen, Mailer: box,
			// the catalogue's text of a key, marked with its language
			Translate: func(lang, key string) string { return lang + ":" + key },
			Counters:  store.NewCounters(db), Now: clock.Now, NewID: store.NewID, Logger: apitest.Quiet(),
		})
		for _, tc := range []struct {
			name, member, page, want string
			do                       func(member, page string) error
		}{
			{"exchange, none chosen", demo.Member1, "th", "th", func(member, page string) error {
				_, err := svc.Exchange(ctx, member, page, pass.ExchangeInput{Code: demo.DemoExchangeCodes[0], Password: demo.DemoExchangePassword})
				return err
			}},
			{"exchange, chosen", demo.Member2, "jp", "kr", func(member, page string) error {
				_, err := svc.Exchange(ctx, member, page, pass.ExchangeInput{Code: demo.DemoExchangeCodes[1], Password: demo.DemoExchangePassword})
				return err
			}},
			{"lottery result, chosen", demo.Member2, "th", "kr", func(member, page string) error {
				e := pass.Entry{ID: store.NewID(), MemberID: member, PlanID: demo.DemoPlanWeekday, PeriodID: demo.DemoPeriodWeekday,
					FareType: pass.FareHapplus, Lang: page, Result: pass.ResultPending, CreatedAt: clock.Now().UTC().Truncate(time.Millisecond)}
				if err := store.NewPassStore(db).InsertEntry(ctx, e); err != nil {
					return err
				}
				_, err := svc.Draw(ctx, "seed", 48*time.Hour)
				return err
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := len(box.List())
				if err := tc.do(tc.member, tc.page); err != nil {
					t.Fatal(err)
				}
				// the member's mails (the demo has other entries, the member's too)
				var ms []pass.Mail
				for _, m := range box.List()[before:] {
					if m.To.Email == tc.member+"@example.com" {
						ms = append(ms, m)
					}
				}
				if len(ms) == 0 {
					t.Fatal("no mail")
				}
				for _, m := range ms {
					if m.To.Lang != tc.want || !strings.HasPrefix(m.Name, tc.want+":") {
						t.Errorf("mail in %s naming the plan %q, want %s throughout", m.To.Lang, m.Name, tc.want)
					}
					if m.Kind != pass.MailIssued && (m.Until == "" || strings.Contains(m.Until, "2026-") || strings.Contains(m.Until, "2027-")) {
						t.Errorf("deadline %q", m.Until)
					}
				}
			})
		}
	})
}
