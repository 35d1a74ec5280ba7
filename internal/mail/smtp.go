package mail

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTP delivers over SMTP with github.com/wneessen/go-mail.
type SMTP struct {
	host     string
	port     int
	user     string
	password string
	implicit bool // smtps://: TLS from the first byte
	loopback bool
}

// DefaultFrom is the sender when the SMTP URL has no ?from=.
const DefaultFrom = "no-reply@members.example.com"

// ParseSMTPURL reads smtp://user:pass@host:port (STARTTLS when offered)
// or smtps://… (implicit TLS), with an optional ?from=address. It returns
// the transport and the sender address. Credentials go over plain text only
// to a loopback server (tests, a local relay); elsewhere AUTH needs TLS.
func ParseSMTPURL(raw string) (*SMTP, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", fmt.Errorf("smtp url: %w", err)
	}
	s := &SMTP{host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		s.port = 25
	case "smtps":
		s.port, s.implicit = 465, true
	default:
		return nil, "", fmt.Errorf("smtp url: scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if s.host == "" {
		return nil, "", fmt.Errorf("smtp url: no host")
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil || s.port <= 0 || s.port > 65535 {
			return nil, "", fmt.Errorf("smtp url: bad port %q", p)
		}
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	if ip := net.ParseIP(s.host); (ip != nil && ip.IsLoopback()) || s.host == "localhost" {
		s.loopback = true
	}
	from := u.Query().Get("from")
	if from == "" {
		from = DefaultFrom
	}
	return s, from, nil
}

// Deliver sends m.
func (s *SMTP) Deliver(ctx context.Context, from string, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(from); err != nil {
		return fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("to: %w", err)
	}
	msg.Subject(m.Subject)
	for _, name := range slices.Sorted(maps.Keys(m.Headers)) {
		msg.SetGenHeader(gomail.Header(name), m.Headers[name])
	}
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		msg.AttachReadSeeker(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
	}
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(15 * time.Second)}
	if s.implicit {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.user != "" {
		auth := gomail.SMTPAuthPlain
		if s.loopback && !s.implicit {
			auth = gomail.SMTPAuthPlainNoEnc
		}
		opts = append(opts, gomail.WithSMTPAuth(auth), gomail.WithUsername(s.user), gomail.WithPassword(s.password))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp send: %w", err)
	}
	return nil
}
