package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

// Mails given up during an SMTP outage: `mail show` says they were never
// sent; `mail resend ID` sends one again with its link (through --smtp
// at once), `mail resend --since` queues those of a time range for the
// delivery worker; a sent mail or an unknown id is not queued (exit 1).
func TestMailResend(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	if _, _, err := call(t, "migrate", "--db", dsn); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	srv := mailtest.Start(t)
	tr, from, err := mail.ParseSMTPURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	outbox := store.NewMailOutbox(a.DB)
	clock := apitest.NewClock(time.Now().Add(-5 * time.Hour))
	m := mail.New(outbox, tr, from, clock.Now, apitest.Quiet())
	_, tpl := mailtest.Templates(t)
	const token = "Tok3n-of-a-link-sent-during-an-outage_0123456789"
	giveUp := func(to string) string {
		t.Helper()
		msg, err := tpl.Standard(mail.KindPasswordReset, "en", to,
			mail.Data{Name: "Hanako", Args: []any{"minutes", 60}, URL: "http://127.0.0.1:8080/reset-password/" + token + "?lang=en", Secrets: []string{token}})
		if err != nil {
			t.Fatal(err)
		}
		srv.Refuse(true)
		if err := m.Send(ctx, msg); !errors.Is(err, mail.ErrNotSent) {
			t.Fatalf("send during the outage: %v", err)
		}
		for i := 1; i < mail.MaxAttempts; i++ {
			clock.Advance(mail.Backoff(i)) // about two hours of retries
			if _, err := m.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		list, _ := outbox.List(ctx, 1)
		if list[0].To != to || list[0].Status != mail.Failed {
			t.Fatalf("given up: %+v", list[0])
		}
		return list[0].ID
	}
	first := giveUp("first@example.com")
	clock.Advance(time.Minute)
	second := giveUp("second@example.com")
	srv.Refuse(false)

	out, _, err := call(t, "mail", "show", first, "--db", dsn)
	if err != nil || !strings.Contains(out, "never sent") || !strings.Contains(out, "members mail resend "+first) {
		t.Fatalf("mail show of a failed mail: %v\n%s", err, out)
	}

	// By id, delivered at once through --smtp, with the link it had.
	out, _, err = call(t, "mail", "resend", first, "--db", dsn, "--smtp", srv.URL())
	if err != nil || !strings.Contains(out, first) || !strings.Contains(out, "1 queued, 1 delivered now") {
		t.Fatalf("resend: %v\n%s", err, out)
	}
	got := srv.WaitFor("first@example.com").Decode(t)
	if !strings.Contains(string(got.Parts["text/plain"]), "/reset-password/"+token+"?lang=en") {
		t.Fatalf("resent mail: %s", got.Parts["text/plain"])
	}
	if out, _, _ := call(t, "mail", "show", first, "--db", dsn); !strings.Contains(out, "Status:   sent") || strings.Contains(out, token) {
		t.Errorf("after the resend:\n%s", out)
	}

	// Again, or an unknown id: nothing queued, exit 1.
	if out, _, err := call(t, "mail", "resend", first, "nosuch", "--db", dsn); err == nil || !strings.Contains(out, "not failed (sent)") || !strings.Contains(out, "not found") {
		t.Errorf("resend of a sent mail: %v\n%s", err, out)
	}

	// By time range, for the delivery worker (no --smtp here).
	since := time.Now().Add(-4 * time.Hour).UTC().Format(time.RFC3339)
	out, _, err = call(t, "mail", "resend", "--since", since, "--db", dsn)
	if err != nil || !strings.Contains(out, second) || strings.Contains(out, first) || !strings.Contains(out, "1 queued") {
		t.Fatalf("resend --since: %v\n%s", err, out)
	}
	if s, err := outbox.Get(ctx, second); err != nil || s.Status != mail.Pending || s.Attempts != 0 || !strings.Contains(s.Text, token) {
		t.Fatalf("queued by range: %+v %v", s.Status, err)
	}
	if out, _, _ := call(t, "mail", "resend", "--since", since, "--db", dsn); !strings.Contains(out, "no failed mail") {
		t.Errorf("an empty range: %s", out)
	}
	for _, args := range [][]string{{"mail", "resend"}, {"mail", "resend", first, "--since", since}, {"mail", "resend", "--until", since}, {"mail", "resend", "--since", "yesterday"}} {
		if _, _, err := call(t, append(args, "--db", dsn)...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
