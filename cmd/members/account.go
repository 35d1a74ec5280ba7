package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"text/tabwriter"
	"time"

	"members/internal/app"
	"members/internal/mail"
	"members/internal/store"
)

const mailUsage = `usage: members mail list [--limit N] | members mail show [--html] ID
  list   the newest messages of the outbox (id, time, status, to, subject)
  show   one message: headers, text part (or the HTML part with --html), attachments
Both take --db (env MEMBERS_DB).
`

// mailCmd reads the mail outbox: mail list | mail show ID.
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
	switch name {
	case "list":
		fs.IntVar(&limit, "limit", 50, "how many messages")
	case "show":
		fs.BoolVar(&html, "html", false, "print the HTML part instead of the text part")
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
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	outbox := store.NewMailOutbox(a.DB)
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
	fmt.Fprintf(stdout, "ID:       %s\nCreated:  %s\nStatus:   %s (attempts %d)\nKind:     %s\nTo:       %s\nLanguage: %s\nSubject:  %s\n",
		m.ID, m.CreatedAt.Format(time.RFC3339), m.Status, m.Attempts, m.Kind, m.To, m.Lang, m.Subject)
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
