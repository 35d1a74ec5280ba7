package mail_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

// A mail's secrets live in the outbox while it waits: every retry sends
// them; a mail given up keeps them until `members mail resend` sends it
// (then they go) or the retention ends; a mail held without SMTP keeps
// them (the outbox is its only destination).
func TestSecretsLiveUntilSentOrGivenUp(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		db, clock, srv, outbox, newMailer := overSMTP(t, engine)
		m := newMailer()
		const token = "Tok3n-of-a-single-use-link_0123456789abcdef"
		_, tpl := mailtest.Templates(t)
		msg, err := tpl.Standard(mail.KindPasswordReset, i18n.EN, "later@example.com",
			mail.Data{Name: "Hanako", Args: []any{"minutes", 60}, URL: "http://127.0.0.1:8080/reset-password/" + token + "?lang=en", Secrets: []string{token}})
		if err != nil {
			t.Fatal(err)
		}
		srv.Refuse(true)
		if err := m.Send(ctx, msg); !errors.Is(err, mail.ErrNotSent) {
			t.Fatalf("send with the server down: %v", err)
		}
		list, _ := outbox.List(ctx, 10)
		if len(list) != 1 || !strings.Contains(list[0].Text, token) || !strings.Contains(list[0].HTML, token) {
			t.Fatalf("a pending mail shows its link: %+v", list)
		}
		var stored string
		if err := db.QueryRowContext(ctx, `SELECT text_body || html_body FROM mail_outbox`).Scan(&stored); err != nil || strings.Contains(stored, token) {
			t.Fatalf("the token is in the mail's row (%v)", err)
		}
		// A retry that works sends the link as it was.
		srv.Refuse(false)
		clock.Advance(mail.Backoff(1))
		if n, err := m.DeliverDue(ctx); err != nil || n != 1 {
			t.Fatalf("retry: %d %v", n, err)
		}
		if got := srv.WaitFor("later@example.com").Decode(t); !strings.Contains(string(got.Parts["text/plain"]), "/reset-password/"+token+"?lang=en") {
			t.Fatalf("retried mail: %s", got.Parts["text/plain"])
		}
		if s, _ := outbox.Get(ctx, list[0].ID); s.Status != mail.Sent || strings.Contains(s.Text, token) {
			t.Fatalf("after sending: %s %q", s.Status, s.Text)
		}

		// Given up after the last attempt (about two hours of outage): an
		// ERROR of its own, the mail shown as never sent, its secrets kept.
		var logged bytes.Buffer
		m = mail.New(outbox, tr(t, srv), mail.DefaultFrom, clock.Now, slog.New(slog.NewJSONHandler(&logged, nil)))
		srv.Refuse(true)
		msg.To = "never@example.com"
		_ = m.Send(ctx, msg)
		for i := 1; i < mail.MaxAttempts; i++ {
			clock.Advance(mail.Backoff(i))
			if _, err := m.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		list, _ = outbox.List(ctx, 10)
		given := list[0]
		if given.To != "never@example.com" || given.Status != mail.Failed || !strings.Contains(given.Text, token) {
			t.Fatalf("given up: %s %s %q", given.To, given.Status, given.Text)
		}
		if why := mail.NeverSent(given); !strings.Contains(why, "never sent") || !strings.Contains(why, "mail resend "+given.ID) {
			t.Errorf("never sent: %q", why)
		}
		if errs := strings.Count(logged.String(), `"level":"ERROR"`); errs != 1 || !strings.Contains(logged.String(), `"msg":"mail: given up, never sent"`) ||
			strings.Contains(logged.String(), token) {
			t.Errorf("%d ERROR lines:\n%s", errs, logged.String())
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_secrets`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d secrets kept (%v), want the failed mail's", n, err)
		}

		// Sent again once SMTP is back: with its link; then its secrets go.
		srv.Refuse(false)
		res, err := mail.Resend(ctx, outbox, []string{given.ID, list[1].ID, "nosuch"}, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 3 || res[0].Outcome != mail.ResendQueued || res[1].Outcome != mail.ResendNotFailed || res[2].Outcome != mail.ResendNotFound {
			t.Fatalf("resend: %+v", res)
		}
		if n, err := m.DeliverDue(ctx); err != nil || n != 1 {
			t.Fatalf("deliver the resent mail: %d %v", n, err)
		}
		if got := srv.WaitFor("never@example.com").Decode(t); !strings.Contains(string(got.Parts["text/plain"]), "/reset-password/"+token+"?lang=en") {
			t.Fatalf("resent mail: %s", got.Parts["text/plain"])
		}
		if s, _ := outbox.Get(ctx, given.ID); s.Status != mail.Sent || strings.Contains(s.Text, token) || mail.NeverSent(s) != "" {
			t.Fatalf("after the resend: %s %q", s.Status, s.Text)
		}
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_secrets`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d secrets left (%v)", n, err)
		}

		// A failed mail past the retention loses its secrets, and is no
		// longer sent again (it would carry a dead link).
		srv.Refuse(true)
		msg.To = "late@example.com"
		_ = m.Send(ctx, msg)
		for i := 1; i < mail.MaxAttempts; i++ {
			clock.Advance(mail.Backoff(i))
			if _, err := m.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		list, _ = outbox.List(ctx, 1)
		late := list[0]
		if late.To != "late@example.com" || late.Status != mail.Failed {
			t.Fatalf("late: %+v", late)
		}
		m.KeepSent(mail.DefaultRetention, store.NewJobs(db), "test")
		clock.Advance(mail.DefaultRetention)
		if _, err := m.PurgeDue(ctx); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_secrets`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d secrets past the retention (%v)", n, err)
		}
		late, _ = outbox.Get(ctx, late.ID)
		if late.Status != mail.Failed || strings.Contains(late.Text, token) || !strings.Contains(mail.NeverSent(late), "cannot be sent again") {
			t.Fatalf("past the retention: %s %q %q", late.Status, late.Text, mail.NeverSent(late))
		}
		if res, err := mail.Resend(ctx, outbox, []string{late.ID}, clock.Now()); err != nil || res[0].Outcome != mail.ResendSecretsGone {
			t.Fatalf("resend past the retention: %+v %v", res, err)
		}

		// Without SMTP the outbox keeps the mail whole.
		held := mail.New(outbox, nil, mail.DefaultFrom, clock.Now, apitest.Quiet())
		msg.To = "held@example.com"
		if err := held.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
		list, _ = outbox.List(ctx, 1)
		if list[0].Status != mail.Held || !strings.Contains(list[0].Text, token) {
			t.Fatalf("held: %s %q", list[0].Status, list[0].Text)
		}
	})
}

// A secret the mail does not carry is refused: the outbox would keep the
// value under another spelling.
func TestSealRefusesASecretNotInTheMail(t *testing.T) {
	m := mail.Message{Kind: "x", Subject: "s", Text: "PIN: 12345678", HTML: "<p>PIN: 12345678</p>", Secrets: []string{"12345678", "87654321"}}
	if _, _, err := mail.Seal(m); err == nil {
		t.Fatal("sealed a secret that is not in the mail")
	}
	m.Secrets = m.Secrets[:1]
	m.Headers = map[string]string{"X-Pin": "12345678"}
	sealed, secrets, err := mail.Seal(m)
	if err != nil || len(secrets) != 1 {
		t.Fatal(err)
	}
	if strings.Contains(sealed.Text+sealed.HTML+sealed.Headers["X-Pin"], "12345678") || m.Headers["X-Pin"] != "12345678" {
		t.Fatalf("sealed %+v (original headers %v)", sealed, m.Headers)
	}
	back := mail.Unseal(sealed, secrets)
	if back.Text != m.Text || back.HTML != m.HTML || back.Headers["X-Pin"] != "12345678" {
		t.Fatalf("unsealed %+v", back)
	}
}

// Sent mails older than the retention are purged by one instance an
// hour (the lease of store.Jobs); newer, pending, failed and held mails
// stay.
func TestRetentionPurgesOldSentMailsOnOneInstance(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		db, clock, _, outbox, newMailer := overSMTP(t, engine)
		a, b := newMailer(), newMailer()
		a.KeepSent(30*24*time.Hour, store.NewJobs(db), "a")
		b.KeepSent(30*24*time.Hour, store.NewJobs(db), "b")
		send := func(to string) {
			if err := a.Send(ctx, mail.Message{To: to, Lang: i18n.EN, Subject: "s", Text: "t"}); err != nil {
				t.Fatal(err)
			}
		}
		send("old@example.com")
		if _, err := outbox.Add(ctx, mail.Message{To: "held@example.com", Lang: i18n.EN, Subject: "s", Text: "t"}, mail.Held, clock.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := outbox.Add(ctx, mail.Message{To: "failed@example.com", Lang: i18n.EN, Subject: "s", Text: "t"}, mail.Failed, clock.Now()); err != nil {
			t.Fatal(err)
		}
		clock.Advance(20 * 24 * time.Hour)
		send("new@example.com")
		clock.Advance(11 * 24 * time.Hour)

		left := func() string {
			list, _ := outbox.List(ctx, 10)
			var to []string
			for _, s := range list {
				to = append(to, s.To)
			}
			return strings.Join(to, " ")
		}
		n, err := a.PurgeDue(ctx)
		if err != nil || n != 1 {
			t.Fatalf("purge: %d %v", n, err)
		}
		if got := left(); got != "new@example.com failed@example.com held@example.com" && got != "new@example.com held@example.com failed@example.com" {
			t.Fatalf("left: %s", got)
		}
		// The other instance finds the job done for the hour.
		send("x@example.com")
		if _, err := db.ExecContext(ctx, `UPDATE mail_outbox SET created_at = 0 WHERE to_addr = 'x@example.com'`); err != nil {
			t.Fatal(err)
		}
		if n, err := b.PurgeDue(ctx); err != nil || n != 0 {
			t.Fatalf("second instance purged %d, %v", n, err)
		}
		clock.Advance(time.Hour)
		if n, err := b.PurgeDue(ctx); err != nil || n != 1 {
			t.Fatalf("an hour later: %d, %v", n, err)
		}
	})
}

// tr is a transport to srv.
func tr(t *testing.T, srv *mailtest.Server) mail.Transport {
	t.Helper()
	tr, _, err := mail.ParseSMTPURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
