package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"members/internal/mail"
	"members/internal/mail/mailtest"
)

// moveStore answers the calls an ending makes: Move says whether this
// caller's status change took effect (false: another instance, a webhook
// or the worker moved the process first) and records whether it owed a
// mail (Changes.Notify), Process what the process is then, MarkNotified
// counts the mails marked sent.
type moveStore struct {
	Store // nil: a call not listed here is a test failure (panic)
	moved bool
	after Process

	owed    bool
	marked  int
	contact error // the member's address not read
}

func (s *moveStore) Move(_ context.Context, _ string, _, _ Status, c Changes, _ time.Time) (bool, error) {
	s.owed = c.Notify
	return s.moved, nil
}

func (s *moveStore) MarkNotified(context.Context, string) error {
	s.marked++
	return nil
}

func (s *moveStore) Process(context.Context, string) (Process, error) { return s.after, nil }

func (s *moveStore) Contact(context.Context, string) (string, string, string, string, error) {
	if s.contact != nil {
		return "", "", "", "", s.contact
	}
	return "taro@example.com", "Taro", "Peach", "", nil
}

// sentMails records what is sent; with err set, Send answers it (a mail
// stored and not delivered: mail.ErrNotSent wrapped; one not even
// stored: any other error) and records nothing.
type sentMails struct {
	got []mail.Message
	err error
}

func (m *sentMails) Send(_ context.Context, msg mail.Message) error {
	if m.err != nil {
		return m.err
	}
	m.got = append(m.got, msg)
	return nil
}

// A slip that ends unpaid is mailed by the caller whose own status change
// took effect, and only then: a caller that lost the race to another one
// (its conditional move changed nothing) sends none, so the member gets
// one mail however many instances, webhooks and workers end it. A payment
// without a slip, or one that failed rather than being cancelled, is not
// mailed here.
func TestSlipEndedMailOnlyWhenMoved(t *testing.T) {
	_, tmpl := mailtest.Templates(t)
	slip := json.RawMessage(`{"receiptNumber":"R-123456"}`)
	expire := func(e *Engine, p *Process) error { return e.expire(context.Background(), p) }
	cancel := func(e *Engine, p *Process) error { return e.fail(context.Background(), p, FailCanceled) }
	decline := func(e *Engine, p *Process) error { return e.fail(context.Background(), p, "declined") }
	for _, tc := range []struct {
		name    string
		end     func(*Engine, *Process) error
		moved   bool
		slip    json.RawMessage
		owed    bool   // the move records a mail as owed
		subject string // "": no mail
	}{
		{"expired by this caller", expire, true, slip, true, "Your payment slip has expired"},
		{"expired by another caller first", expire, false, slip, true, ""},
		{"cancelled by this caller", cancel, true, slip, true, "Your payment slip has been cancelled"},
		{"cancelled by another caller first", cancel, false, slip, true, ""},
		{"a QR payment expired", expire, true, nil, false, ""},
		{"a QR payment cancelled", cancel, true, nil, false, ""},
		{"a slip the gateway failed", decline, true, slip, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Process{ID: "pp-1", MemberID: "m-1", ProductType: "peachpoints", Status: Pending, Lang: "en",
				Description: "Peach Points (JPY)", Amount: 3000, Currency: "JPY", Slip: tc.slip,
				ExpiresAt: time.Date(2026, 12, 1, 14, 59, 0, 0, time.UTC)}
			st := &moveStore{moved: tc.moved, after: p}
			st.after.Status = Expired
			sent := &sentMails{}
			e := NewEngine(st, nil, Config{Mailer: sent, MailTemplates: tmpl, ReturnBase: "https://members.example"},
				func() time.Time { return p.ExpiresAt }, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err := tc.end(e, &p); err != nil {
				t.Fatal(err)
			}
			// the ending records the mail as owed, in its own change, and
			// the caller that moved marks it sent: a crash between the two
			// leaves it to the worker's sweep
			if st.owed != tc.owed {
				t.Errorf("the move owed a mail: %v, want %v", st.owed, tc.owed)
			}
			if wantMarked := len(sent.got); st.marked != wantMarked {
				t.Errorf("marked sent %d times, want %d", st.marked, wantMarked)
			}
			if tc.subject == "" {
				if len(sent.got) != 0 {
					t.Fatalf("mailed %q, want no mail", sent.got[0].Subject)
				}
				return
			}
			if len(sent.got) != 1 {
				t.Fatalf("%d mails, want 1", len(sent.got))
			}
			m := sent.got[0]
			for _, want := range []string{"R-123456", "Nothing was charged", "JPY 3,000", "https://members.example/payment/peachpoints/pp-1/result?lang=en"} {
				if !strings.Contains(m.Text, want) {
					t.Errorf("mail lacks %q:\n%s", want, m.Text)
				}
			}
			if !strings.HasPrefix(m.Subject, tc.subject) || m.To != "taro@example.com" {
				t.Errorf("mail to %q, subject %q; want %q…", m.To, m.Subject, tc.subject)
			}
		})
	}
}

// A slip's ending mail is marked sent once the mailer has stored it (or it
// can never be sent): one that was not stored (the outbox's database
// failed, or the member's address could not be read) stays owed, and the
// worker's sweep sends it later. A stored mail the SMTP server refused is
// the outbox's to retry: leaving it owed would send it twice.
func TestSlipEndedMailOwedUntilStored(t *testing.T) {
	_, tmpl := mailtest.Templates(t)
	for _, tc := range []struct {
		name    string
		send    error
		contact error
		marked  int
	}{
		{"stored and delivered", nil, nil, 1},
		{"stored, delivery failed", fmt.Errorf("%w: 451 try later", mail.ErrNotSent), nil, 1},
		{"not stored", errors.New("mail: store: database is locked"), nil, 0},
		{"the address not read", nil, errors.New("connection reset"), 0},
		{"the member is gone", nil, ErrNotFound, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Process{ID: "pp-1", MemberID: "m-1", ProductType: "peachpoints", Status: Pending, Lang: "en",
				Description: "Peach Points (JPY)", Amount: 3000, Currency: "JPY", Slip: json.RawMessage(`{"receiptNumber":"R-1"}`),
				ExpiresAt: time.Date(2026, 12, 1, 14, 59, 0, 0, time.UTC)}
			st := &moveStore{moved: true, contact: tc.contact}
			e := NewEngine(st, nil, Config{Mailer: &sentMails{err: tc.send}, MailTemplates: tmpl, ReturnBase: "https://members.example"},
				func() time.Time { return p.ExpiresAt }, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err := e.fail(context.Background(), &p, FailCanceled); err != nil {
				t.Fatal(err)
			}
			if st.marked != tc.marked {
				t.Errorf("marked sent %d times, want %d", st.marked, tc.marked)
			}
		})
	}
}
