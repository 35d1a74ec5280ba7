// Package mailtest runs an in-process SMTP server (github.com/emersion/go-smtp)
// for tests, records what it receives and decodes subjects and bodies.
package mailtest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Username and Password are what the server accepts with AUTH PLAIN.
const (
	Username = "mailer"
	Password = "secret"
)

// Received is one delivered message.
type Received struct {
	From string
	To   []string
	Raw  []byte
}

// Server is a running SMTP server on 127.0.0.1.
type Server struct {
	t    testing.TB
	addr string
	mu   sync.Mutex
	got  []Received
	srv  *smtp.Server
	// refusing makes every delivery fail with a temporary error while the
	// server keeps its port (Stop frees it, and another test's server may
	// take it meanwhile).
	refusing bool
}

// Start starts a server on a free loopback port; it stops at cleanup.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

func (s *Server) serve(ln net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// URL is the --smtp value for this server.
func (s *Server) URL() string {
	return fmt.Sprintf("smtp://%s:%s@%s?from=no-reply@members.test", Username, Password, s.addr)
}

// Stop closes the server (deliveries then fail).
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// Refuse makes every delivery fail (SMTP 451, try again later) until
// Refuse(false): an unreachable server without giving up the address.
func (s *Server) Refuse(on bool) {
	s.mu.Lock()
	s.refusing = on
	s.mu.Unlock()
}

// Restart listens again on the same address.
func (s *Server) Restart() {
	s.t.Helper()
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.serve(ln)
}

// Messages returns what was received so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// WaitFor waits up to 5 s for a message to addr and returns the last one.
func (s *Server) WaitFor(to string) Received {
	s.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		msgs := s.Messages()
		for i := len(msgs) - 1; i >= 0; i-- {
			for _, r := range msgs[i].To {
				if strings.EqualFold(r, to) {
					return msgs[i]
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("no mail to %s received", to)
	return Received{}
}

type session struct {
	s    *Server
	from string
	to   []string
	auth bool
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != Username || password != Password {
			return errors.New("invalid credentials")
		}
		ss.auth = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if !ss.auth {
		return smtp.ErrAuthRequired
	}
	ss.s.mu.Lock()
	refusing := ss.s.refusing
	ss.s.mu.Unlock()
	if refusing {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	ss.s.got = append(ss.s.got, Received{From: ss.from, To: ss.to, Raw: b})
	ss.s.mu.Unlock()
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// Decoded is a parsed message: the decoded subject and each part's
// decoded body by content type (text/plain, text/html, application/pdf…).
type Decoded struct {
	Subject string
	Parts   map[string][]byte
	// Filenames lists attachment names.
	Filenames []string
}

// Decode parses a received message.
func (r Received) Decode(t testing.TB) Decoded {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(r.Raw))
	if err != nil {
		t.Fatalf("parse mail: %v", err)
	}
	var dec mime.WordDecoder
	subj, err := dec.DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("subject: %v", err)
	}
	d := Decoded{Subject: subj, Parts: map[string][]byte{}}
	walk(t, &d, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), "", m.Body)
	return d
}

func walk(t testing.TB, d *Decoded, ctype, cte, disp string, body io.Reader) {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("multipart: %v", err)
			}
			walk(t, d, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p.Header.Get("Content-Disposition"), p)
		}
	}
	switch strings.ToLower(cte) {
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, &stripNewlines{r: body})
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("read part: %v", err)
	}
	if _, p, err := mime.ParseMediaType(disp); err == nil && p["filename"] != "" {
		d.Filenames = append(d.Filenames, p["filename"])
	}
	d.Parts[mt] = b
}

type stripNewlines struct{ r io.Reader }

func (s *stripNewlines) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	j := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			p[j] = c
			j++
		}
	}
	return j, err
}
