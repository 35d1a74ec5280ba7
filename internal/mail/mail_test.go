package mail_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

// overSMTP is a mail test's set-up on engine: a fresh database, its
// outbox, a clock at apitest.Start, an in-process SMTP server, and
// newMailer, which makes a mailer on them that sends to that server.
func overSMTP(t *testing.T, engine store.Engine) (db *store.DB, clock *apitest.Clock, srv *mailtest.Server, outbox *store.MailOutbox, newMailer func() *mail.Mailer) {
	t.Helper()
	db = apitest.OpenDB(t, engine)
	clock = apitest.NewClock(apitest.Start)
	srv = mailtest.Start(t)
	tr, from, err := mail.ParseSMTPURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	outbox = store.NewMailOutbox(db)
	return db, clock, srv, outbox, func() *mail.Mailer { return mail.New(outbox, tr, from, clock.Now, apitest.Quiet()) }
}

var kinds = []string{
	mail.KindProfileUpdated, mail.KindPasswordChanged, mail.KindPasswordReset,
	mail.KindPassengerAdded, mail.KindPassengerChanged, mail.KindPassengerDeleted,
}

func TestEveryTemplateInEveryLanguage(t *testing.T) {
	_, tpl := mailtest.Templates(t)
	for _, kind := range kinds {
		for _, lang := range i18n.Langs {
			d := mail.Data{Name: "Hanako Yamada", Args: []any{"passenger", "Taro Yamada", "minutes", 60}}
			if kind == mail.KindPasswordReset {
				d.URL = "https://members.example.com/reset-password/tok?lang=" + string(lang)
			}
			m, err := tpl.Standard(kind, lang, "a@example.com", d)
			if err != nil {
				t.Fatalf("%s/%s: %v", kind, lang, err)
			}
			for what, s := range map[string]string{"subject": m.Subject, "text": m.Text, "html": m.HTML} {
				if s == "" || strings.Contains(s, "mail."+kind) || strings.Contains(s, "{") && !strings.Contains(s, "<style") && what != "html" {
					t.Errorf("%s/%s %s not filled: %q", kind, lang, what, s)
				}
			}
			if !strings.Contains(m.Text, "Hanako Yamada") || !strings.Contains(m.HTML, "Hanako Yamada") {
				t.Errorf("%s/%s: greeting lacks the name", kind, lang)
			}
			if d.URL != "" && (!strings.Contains(m.Text, d.URL) || !strings.Contains(m.HTML, `href="`+d.URL+`"`)) {
				t.Errorf("%s/%s: link missing", kind, lang)
			}
		}
	}
}

func TestHTMLIsEscaped(t *testing.T) {
	_, tpl := mailtest.Templates(t)
	m, err := tpl.Standard(mail.KindPassengerAdded, i18n.EN, "a@example.com",
		mail.Data{Name: `<script>alert(1)</script>`, Args: []any{"passenger", `Bob "&" <b>`}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.HTML, "<script>") || strings.Contains(m.HTML, "<b>") {
		t.Fatalf("HTML not escaped: %s", m.HTML)
	}
	if !strings.Contains(m.HTML, "&lt;script&gt;") {
		t.Fatalf("escaped name missing: %s", m.HTML)
	}
}

func TestBackoff(t *testing.T) {
	for attempts, want := range map[int]time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 7: time.Hour, 20: time.Hour} {
		if got := mail.Backoff(attempts); got != want {
			t.Errorf("Backoff(%d) = %v, want %v", attempts, got, want)
		}
	}
}

func TestParseSMTPURL(t *testing.T) {
	for _, bad := range []string{"http://x", "smtp://", "smtp://host:99999", "::"} {
		if _, _, err := mail.ParseSMTPURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	_, from, err := mail.ParseSMTPURL("smtp://u:p@127.0.0.1:2525")
	if err != nil || from != mail.DefaultFrom {
		t.Fatalf("got %q %v", from, err)
	}
}

// TestSMTPDeliveryAndRetry sends over real SMTP to an in-process server,
// then with the server down (stored pending, ErrNotSent), then lets the
// worker deliver it once the server is back.
func TestSMTPDeliveryAndRetry(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		_, clock, srv, outbox, newMailer := overSMTP(t, engine)
		m := newMailer()
		_, tpl := mailtest.Templates(t)

		msg, err := tpl.Standard(mail.KindPasswordReset, i18n.JP, "hanako@example.com",
			mail.Data{Name: "Hanako", Args: []any{"minutes", 60}, URL: "http://127.0.0.1:8080/reset-password/abc?lang=jp"})
		if err != nil {
			t.Fatal(err)
		}
		msg.Attachments = []mail.Attachment{{Name: "itinerary.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4 test")}}
		if err := m.Send(ctx, msg); err != nil {
			t.Fatalf("send: %v", err)
		}
		got := srv.WaitFor("hanako@example.com").Decode(t)
		if got.Subject != "パスワードの再設定" {
			t.Errorf("subject %q", got.Subject)
		}
		if !strings.Contains(string(got.Parts["text/plain"]), "http://127.0.0.1:8080/reset-password/abc?lang=jp") ||
			!strings.Contains(string(got.Parts["text/plain"]), "新しいパスワード") {
			t.Errorf("text body %q", got.Parts["text/plain"])
		}
		if !strings.Contains(string(got.Parts["text/html"]), "新しいパスワードを設定する") {
			t.Errorf("html body %q", got.Parts["text/html"])
		}
		if string(got.Parts["application/pdf"]) != "%PDF-1.4 test" {
			t.Errorf("attachment %q %v", got.Parts["application/pdf"], got.Filenames)
		}
		list, _ := outbox.List(ctx, 10)
		if len(list) != 1 || list[0].Status != mail.Sent || list[0].SentAt.IsZero() || len(list[0].Attachments) != 1 {
			t.Fatalf("outbox after delivery: %+v", list)
		}

		// Server down: the message is kept pending and Send says so.
		srv.Stop()
		msg.To = "later@example.com"
		if err := m.Send(ctx, msg); !errors.Is(err, mail.ErrNotSent) {
			t.Fatalf("send with server down: %v", err)
		}
		list, _ = outbox.List(ctx, 10)
		var pending mail.Stored
		for _, s := range list {
			if s.To == "later@example.com" {
				pending = s
			}
		}
		if pending.Status != mail.Pending || pending.Attempts != 1 || pending.LastError == "" {
			t.Fatalf("pending message: %+v", pending)
		}
		// Not due yet: nothing happens.
		srv.Restart()
		if n, err := m.DeliverDue(ctx); err != nil || n != 0 {
			t.Fatalf("early pass delivered %d, %v", n, err)
		}
		clock.Advance(mail.Backoff(1))
		if n, err := m.DeliverDue(ctx); err != nil || n != 1 {
			t.Fatalf("retry delivered %d, %v", n, err)
		}
		srv.WaitFor("later@example.com")
		s, err := outbox.Get(ctx, pending.ID)
		if err != nil || s.Status != mail.Sent {
			t.Fatalf("after retry: %+v %v", s, err)
		}
		if _, err := outbox.Get(ctx, "nope"); !errors.Is(err, mail.ErrNotFound) {
			t.Fatalf("get unknown: %v", err)
		}
	})
}

func TestWithoutSMTPTheOutboxHoldsTheMail(t *testing.T) {
	db := apitest.OpenDB(t, store.SQLite)
	outbox := store.NewMailOutbox(db)
	m := mail.New(outbox, nil, mail.DefaultFrom, time.Now, apitest.Quiet())
	if err := m.Send(context.Background(), mail.Message{To: "x@example.com", Lang: i18n.EN, Subject: "s", Text: "t"}); err != nil {
		t.Fatal(err)
	}
	list, _ := outbox.List(context.Background(), 10)
	if len(list) != 1 || list[0].Status != mail.Held {
		t.Fatalf("%+v", list)
	}
}

// The "if you did not make this change" line is under the account-change
// mails only; the greeting writes the family name first in Japanese; the
// new-device details (device, browser, place, time) are each on a line of
// their own in the text and the HTML part.
func TestNoticeNameOrderAndDetailLines(t *testing.T) {
	_, tpl := mailtest.Templates(t)
	cat := tpl.Catalog()
	for _, lang := range []i18n.Lang{i18n.EN, i18n.JP, i18n.TH} {
		notice := cat.T(lang, "mail.security_notice")
		for kind, want := range map[string]bool{mail.KindProfileUpdated: true, mail.KindPasswordChanged: true, mail.KindPassengerAdded: true, "itinerary": false, "coupon_ticket_purchased": false, "points_issued": false} {
			m, err := tpl.Standard(kind, lang, "h@example.com", mail.Data{Given: "Hanako", Family: "Yamada", Args: []any{"pass", "P", "pnr", "QX7PDF"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(m.Text, notice) && strings.Contains(m.HTML, notice); got != want {
				t.Errorf("%s %s: notice %v, want %v\n%s", lang, kind, got, want, m.Text)
			}
			if strings.Contains(cat.T(lang, "mail.footer"), notice) {
				t.Errorf("%s: the footer still carries the notice", lang)
			}
			wantName := "Hanako Yamada"
			if lang == i18n.JP {
				wantName = "Yamada Hanako 様"
			}
			if !strings.Contains(m.Text, wantName) {
				t.Errorf("%s %s: greeting without %q:\n%s", lang, kind, wantName, m.Text)
			}
		}
		m, err := tpl.Standard("security_new_device", lang, "h@example.com", mail.Data{Name: "Hanako Yamada",
			Args: []any{"browser", "Firefox", "os", "Linux", "address", "192.0.2.1", "time", "T-I-M-E"}, URL: "https://members.example/security"})
		if err != nil {
			t.Fatal(err)
		}
		order := []string{"Linux", "Firefox", "192.0.2.1", "T-I-M-E"}
		for i, v := range order {
			line := lineWith(m.Text, v)
			if line == "" || strings.Count(line, ":")+strings.Count(line, "：") != 1 {
				t.Errorf("%s: %q not on a line of its own: %q", lang, v, line)
			}
			if i > 0 && strings.Index(m.Text, v) < strings.Index(m.Text, order[i-1]) {
				t.Errorf("%s: %s before %s", lang, v, order[i-1])
			}
			if i > 0 {
				a, b := strings.Index(m.HTML, order[i-1]), strings.Index(m.HTML, v)
				if a < 0 || b < a || !strings.Contains(m.HTML[a:b], "<br>") {
					t.Errorf("%s: the HTML part runs %s and %s together", lang, order[i-1], v)
				}
			}
		}
	}
}

func lineWith(s, v string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, v) {
			return l
		}
	}
	return ""
}
