package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"members/internal/app"
	"members/internal/mail"
	"members/internal/store"
)

const mailUsage = `usage: members mail list [--limit N] | members mail show [--html] ID
       members mail resend [--smtp URL] ID… | members mail resend [--smtp URL] --since TIME [--until TIME]
  list    the newest messages of the outbox (id, time, status, to, subject)
  show    one message: headers, text part (or the HTML part with --html), attachments
  resend  makes failed mails (given up after their last SMTP attempt) pending again, by id or
          made in [--since, --until) (RFC 3339, or YYYY-MM-DD in UTC; --until defaults to now);
          a serving instance's delivery worker sends them on its next pass (30 s), or this
          command at once with --smtp (env MEMBERS_SMTP_URL). A mail whose secrets are erased
          (a link, a PIN) is not sent again. Exit 1 when a mail given was not queued.
All take --db (env MEMBERS_DB).
`

// mailCmd reads the mail outbox and sends failed mails again: mail list |
// mail show ID | mail resend ID… | mail resend --since T [--until T].
func mailCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" {
		fmt.Fprint(stdout, mailUsage)
		return nil
	}
	name, rest := args[0], args[1:]
	fs := flag.NewFlagSet("mail "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := dbFlag(fs)
	limit := 50
	html := false
	var since, until, smtpURL string
	switch name {
	case "list":
		fs.IntVar(&limit, "limit", 50, "how many messages")
	case "show":
		fs.BoolVar(&html, "html", false, "print the HTML part instead of the text part")
	case "resend":
		fs.StringVar(&since, "since", "", "resend the failed mails made from this time (RFC 3339 or YYYY-MM-DD, UTC)")
		fs.StringVar(&until, "until", "", "… up to this time, excluded (default now)")
		fs.StringVar(&smtpURL, "smtp", os.Getenv("MEMBERS_SMTP_URL"), "deliver at once through this SMTP server (env MEMBERS_SMTP_URL)")
	default:
		fmt.Fprint(stderr, mailUsage)
		return fmt.Errorf("mail: unknown command %q", name)
	}
	ids, err := parseArgs(fs, rest, stderr)
	if err != nil {
		return err
	}
	if name == "show" && len(ids) != 1 {
		return errors.New("mail show: give one message ID")
	}
	if name == "list" && len(ids) > 0 {
		return fmt.Errorf("mail list: unexpected argument %q", ids[0])
	}
	if name == "resend" && (len(ids) > 0) == (since != "") {
		return errors.New("mail resend: give message IDs or --since (with --until), one of the two")
	}
	if name == "resend" && until != "" && since == "" {
		return errors.New("mail resend: --until needs --since")
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	outbox := store.NewMailOutbox(a.DB)
	if name == "resend" {
		return mailResend(ctx, a, outbox, ids, since, until, smtpURL, stdout)
	}
	if name == "list" {
		list, err := outbox.List(ctx, limit)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tCREATED (UTC)\tSTATUS\tKIND\tTO\tSUBJECT")
		for _, m := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", m.ID, m.CreatedAt.Format(time.DateTime), m.Status, m.Kind, m.To, m.Subject)
		}
		return tw.Flush()
	}
	m, err := outbox.Get(ctx, ids[0])
	if errors.Is(err, mail.ErrNotFound) {
		return fmt.Errorf("mail show: no message %q", ids[0])
	}
	if err != nil {
		return err
	}
	status := fmt.Sprintf("%s (attempts %d)", m.Status, m.Attempts)
	if why := mail.NeverSent(m); why != "" {
		status += ": " + why
	}
	fmt.Fprintf(stdout, "ID:       %s\nCreated:  %s\nStatus:   %s\nKind:     %s\nTo:       %s\nLanguage: %s\nSubject:  %s\n",
		m.ID, m.CreatedAt.Format(time.RFC3339), status, m.Kind, m.To, m.Lang, m.Subject)
	if m.LastError != "" {
		fmt.Fprintf(stdout, "Error:    %s\n", m.LastError)
	}
	for _, name := range slices.Sorted(maps.Keys(m.Headers)) {
		fmt.Fprintf(stdout, "%s: %s\n", name, m.Headers[name])
	}
	for _, at := range m.Attachments {
		fmt.Fprintf(stdout, "Attached: %s (%s, %d bytes)\n", at.Name, at.ContentType, len(at.Data))
	}
	body := m.Text
	if html {
		body = m.HTML
	}
	fmt.Fprintf(stdout, "\n%s", body)
	return nil
}

// mailResend queues failed mails again (by id, or made in [since,
// until)), prints one line per mail, and with smtpURL delivers the due
// mails at once. An id that was not queued makes the command fail (exit 1).
func mailResend(ctx context.Context, a *app.App, outbox *store.MailOutbox, ids []string, since, until, smtpURL string, stdout io.Writer) error {
	now := a.DB.Now()
	var res []mail.Resent
	var err error
	if since != "" {
		from, err := parseWhen(since)
		if err != nil {
			return fmt.Errorf("mail resend: --since: %w", err)
		}
		to := now
		if until != "" {
			if to, err = parseWhen(until); err != nil {
				return fmt.Errorf("mail resend: --until: %w", err)
			}
		}
		res, err = mail.ResendBetween(ctx, outbox, from, to, now)
		if err != nil {
			return err
		}
		if len(res) == 0 {
			fmt.Fprintf(stdout, "no failed mail made from %s to %s\n", from.Format(time.RFC3339), to.Format(time.RFC3339))
			return nil
		}
	} else if res, err = mail.Resend(ctx, outbox, ids, now); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCREATED (UTC)\tKIND\tTO\tRESULT")
	queued, refused := 0, 0
	for _, r := range res {
		created := ""
		if !r.CreatedAt.IsZero() {
			created = r.CreatedAt.UTC().Format(time.DateTime)
		}
		outcome := r.Outcome
		switch r.Outcome {
		case mail.ResendQueued:
			queued++
		case mail.ResendNotFailed:
			outcome += " (" + string(r.Status) + "): left as it is"
			refused++
		case mail.ResendSecretsGone:
			outcome += ": not sent again (its link or PIN is gone)"
			refused++
		default:
			refused++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, created, r.Kind, r.To, outcome)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if queued > 0 {
		if smtpURL == "" {
			fmt.Fprintf(stdout, "%d queued: the delivery worker of a serving instance with --smtp sends them on its next pass\n", queued)
		} else {
			m, err := a.Mailer(app.Config{SMTPURL: smtpURL})
			if err != nil {
				return err
			}
			sent, err := m.DeliverDue(ctx)
			if err != nil {
				return fmt.Errorf("mail resend: deliver: %w", err)
			}
			if err := m.ForgetSent(ctx); err != nil {
				return fmt.Errorf("mail resend: %w", err)
			}
			fmt.Fprintf(stdout, "%d queued, %d delivered now (the others stay pending for the delivery worker; `members mail show ID`)\n", queued, sent)
		}
	}
	if refused > 0 && since == "" {
		return fmt.Errorf("mail resend: %d of %d not queued", refused, len(res))
	}
	return nil
}

// parseWhen reads an RFC 3339 time or a date (midnight UTC).
func parseWhen(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither RFC 3339 (2026-12-07T09:00:00Z) nor a date (2026-12-07)", s)
	}
	return t, nil
}
