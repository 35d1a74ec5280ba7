// Package security is the member's security centre: the sessions signed in
// to the account (device and browser from the user agent, client address,
// sign-in and last activity) with sign-out of one or all others, the recent
// security events kept for EventRetention, and the mails on a sign-in from
// a new device and on changes of password and e-mail. It imports neither
// SQL nor HTTP.
package security

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/mileusna/useragent"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/mail"
)

// EventRetention is how long security events are kept (then purged).
const EventRetention = 90 * 24 * time.Hour

// MaxEvents caps the events listed at once.
const MaxEvents = 200

// Event kinds.
const (
	KindSignIn          = "sign_in"
	KindSignInNewDevice = "sign_in_new_device"
	KindSignInFailed    = "sign_in_failed"
	KindSessionEnded    = "session_ended"
	KindSessionsEnded   = "other_sessions_ended"
	KindPasswordChanged = "password_changed"
	KindPasswordReset   = "password_reset"
	KindEmailChanged    = "email_changed"
	KindEmailRestored   = "email_restored"
	KindDataExported    = "data_exported"
	KindPasskeyAdded    = "passkey_added"
	KindPasskeyRemoved  = "passkey_removed"
)

// ErrNotFound is what a Store returns for a missing member or session.
var ErrNotFound = errors.New("security: not found")

// Event is one recorded security event.
type Event struct {
	Kind       string
	At         time.Time
	ClientAddr string
	UserAgent  string
	// Device is the device key of sign-ins ("Chrome|Windows|desktop"),
	// compared to find a device not seen before.
	Device string
}

// Contact is where the security mails go.
type Contact struct {
	Email string
	Name  string
	Lang  i18n.Lang
}

// Store keeps events and reads the member's sessions.
type Store interface {
	AddEvent(ctx context.Context, memberID string, e Event) error
	// Events returns the member's events at or after since, newest first.
	Events(ctx context.Context, memberID string, since time.Time, limit int) ([]Event, error)
	// HasSignIn reports whether the member signed in at or after since
	// (from device, when device is not empty).
	HasSignIn(ctx context.Context, memberID, device string, since time.Time) (bool, error)
	// PurgeEvents deletes events older than before.
	PurgeEvents(ctx context.Context, before time.Time) (int64, error)
	// Sessions returns the member's sessions, newest activity first.
	Sessions(ctx context.Context, memberID string) ([]auth.Session, error)
	// DeleteSession deletes one session of the member; ErrNotFound when
	// it is not the member's.
	DeleteSession(ctx context.Context, memberID, idHash string) error
	// DeleteOtherSessions deletes every session of the member but keepHash.
	DeleteOtherSessions(ctx context.Context, memberID, keepHash string) error
	// Contact returns the member's address, name and language; ErrNotFound.
	Contact(ctx context.Context, memberID string) (Contact, error)
}

// Mailer sends mail (stored in the outbox first).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Service is the security centre.
type Service struct {
	store     Store
	mailer    Mailer
	tpl       *mail.Templates
	publicURL string
	now       func() time.Time
	log       *slog.Logger
}

// NewService builds the service; publicURL makes the mails' link to the
// security centre.
func NewService(s Store, m Mailer, t *mail.Templates, publicURL string, now func() time.Time, log *slog.Logger) *Service {
	return &Service{store: s, mailer: m, tpl: t, publicURL: strings.TrimRight(publicURL, "/"), now: now, log: log}
}

var _ auth.Observer = (*Service)(nil)

// CentreURL is the security centre's address in mails.
func (s *Service) CentreURL(lang i18n.Lang) string {
	return s.publicURL + "/security?lang=" + string(lang)
}

// Device describes a user agent: browser, operating system and the kind
// of device, each empty when unknown.
type Device struct {
	Browser string `json:"browser"`
	OS      string `json:"os"`
	// Kind is desktop, mobile, tablet, bot or unknown.
	Kind string `json:"kind"`
}

// ParseDevice reads a user agent.
func ParseDevice(ua string) Device {
	if strings.TrimSpace(ua) == "" {
		return Device{Kind: "unknown"}
	}
	p := useragent.Parse(ua)
	d := Device{Browser: p.Name, OS: p.OS, Kind: "unknown"}
	switch {
	case p.Bot:
		d.Kind = "bot"
	case p.Tablet:
		d.Kind = "tablet"
	case p.Mobile:
		d.Kind = "mobile"
	case p.Desktop:
		d.Kind = "desktop"
	}
	if p.Version != "" && d.Browser != "" {
		d.Browser += " " + majorVersion(p.Version)
	}
	return d
}

// deviceKey groups sign-ins by browser family, operating system and kind
// (not version: an update is not a new device).
func deviceKey(ua string) string {
	p := useragent.Parse(ua)
	kind := ParseDevice(ua).Kind
	return strings.ToLower(p.Name + "|" + p.OS + "|" + kind)
}

func majorVersion(v string) string {
	if i := strings.IndexByte(v, '.'); i > 0 {
		return v[:i]
	}
	return v
}

// Network classifies a client address: the approximate place the centre
// can tell without a geolocation database.
func Network(addr string) string {
	ip, err := netip.ParseAddr(addr)
	switch {
	case err != nil:
		return "unknown"
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate() || ip.IsLinkLocalUnicast():
		return "private"
	default:
		return "public"
	}
}

// SignedIn records a sign-in and mails the member when it comes from a
// device not seen in the retention window (and the member had signed in
// before: a first sign-in is not news).
func (s *Service) SignedIn(ctx context.Context, sess auth.Session) {
	now := s.now()
	since := now.Add(-EventRetention)
	key := deviceKey(sess.UserAgent)
	seen, err := s.store.HasSignIn(ctx, sess.MemberID, key, since)
	if err != nil {
		s.log.Error("security: sign-in history", "err", err)
		return
	}
	before, err := s.store.HasSignIn(ctx, sess.MemberID, "", since)
	if err != nil {
		s.log.Error("security: sign-in history", "err", err)
		return
	}
	kind := KindSignIn
	if !seen && before {
		kind = KindSignInNewDevice
	}
	s.add(ctx, sess.MemberID, Event{Kind: kind, At: now, ClientAddr: sess.ClientAddr, UserAgent: sess.UserAgent, Device: key})
	if kind == KindSignInNewDevice {
		d := ParseDevice(sess.UserAgent)
		s.mail(ctx, sess.MemberID, "security_new_device", []any{"browser", orDash(d.Browser), "os", orDash(d.OS), "address", orDash(sess.ClientAddr)}, now)
	}
}

// SignInFailed records a wrong password for an existing member.
func (s *Service) SignInFailed(ctx context.Context, memberID, clientAddr, userAgent string) {
	s.add(ctx, memberID, Event{Kind: KindSignInFailed, At: s.now(), ClientAddr: clientAddr, UserAgent: userAgent})
}

// Changed records a change of the account's security made elsewhere
// (password, e-mail) and mails the member with a link to the centre.
// mailKind empty: the feature that made the change has mailed already.
func (s *Service) Changed(ctx context.Context, memberID, kind, mailKind string) {
	now := s.now()
	s.add(ctx, memberID, Event{Kind: kind, At: now})
	if mailKind != "" {
		s.mail(ctx, memberID, mailKind, nil, now)
	}
}

// Record records an event of another feature (a passkey added or
// removed) with the client that made it, and mails the member mailKind
// with args (catalogue mail.<mailKind>.*) and the link to the centre.
func (s *Service) Record(ctx context.Context, memberID string, e Event, mailKind string, args ...any) {
	if e.At.IsZero() {
		e.At = s.now()
	}
	s.add(ctx, memberID, e)
	if mailKind != "" {
		s.mail(ctx, memberID, mailKind, args, e.At)
	}
}

func (s *Service) add(ctx context.Context, memberID string, e Event) {
	if err := s.store.AddEvent(ctx, memberID, e); err != nil {
		s.log.Error("security: record event", "kind", e.Kind, "err", err)
	}
}

// mail sends one of the centre's mails in the member's language.
func (s *Service) mail(ctx context.Context, memberID, kind string, args []any, at time.Time) {
	c, err := s.store.Contact(ctx, memberID)
	if err != nil {
		s.log.Error("security: contact", "err", err)
		return
	}
	jst := at.In(time.FixedZone("JST", 9*3600))
	args = append(args, "time", i18n.FormatDateTime(c.Lang, jst)+" (UTC+09:00)")
	msg, err := s.tpl.Standard(kind, c.Lang, c.Email, mail.Data{Name: c.Name, Args: args, URL: s.CentreURL(c.Lang)})
	if err != nil {
		s.log.Error("security: render mail", "kind", kind, "err", err)
		return
	}
	if err := s.mailer.Send(ctx, msg); err != nil {
		s.log.Warn("security: mail not sent", "kind", kind, "err", err)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// SessionView is a session on the security centre page.
type SessionView struct {
	ID             string    `json:"id"`
	Device         Device    `json:"device"`
	ClientAddress  string    `json:"clientAddress"`
	Network        string    `json:"network"`
	SignedInAt     time.Time `json:"signedInAt"`
	LastActivityAt time.Time `json:"lastActivityAt"`
	Current        bool      `json:"current"`
}

// PublicID names a session on the page without giving away the hash that
// finds it in the database (which would let a stolen page forge nothing,
// but keeps the two apart).
func PublicID(idHash string) string {
	sum := sha256.Sum256([]byte("session-public:" + idHash))
	return hex.EncodeToString(sum[:12])
}

// Sessions lists the member's live sessions, the current one first.
func (s *Service) Sessions(ctx context.Context, current auth.Session) ([]SessionView, error) {
	list, err := s.store.Sessions(ctx, current.MemberID)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	out := make([]SessionView, 0, len(list))
	now := s.now()
	for _, ss := range list {
		if auth.Expired(ss, now) {
			continue
		}
		v := SessionView{
			ID: PublicID(ss.IDHash), Device: ParseDevice(ss.UserAgent), ClientAddress: ss.ClientAddr,
			Network: Network(ss.ClientAddr), SignedInAt: ss.CreatedAt.UTC(), LastActivityAt: ss.LastSeenAt.UTC(),
			Current: ss.IDHash == current.IDHash,
		}
		if v.Current {
			out = append([]SessionView{v}, out...)
		} else {
			out = append(out, v)
		}
	}
	return out, nil
}

var notFound = apperr.New(apperr.NotFound, "error.not_found")

// EndSession signs out one of the member's sessions by its public id;
// another member's, an unknown or the current one is a 404 (the current
// session signs out with the ordinary logout).
func (s *Service) EndSession(ctx context.Context, current auth.Session, id string) error {
	list, err := s.store.Sessions(ctx, current.MemberID)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	for _, ss := range list {
		if PublicID(ss.IDHash) != id || ss.IDHash == current.IDHash {
			continue
		}
		if err := s.store.DeleteSession(ctx, current.MemberID, ss.IDHash); errors.Is(err, ErrNotFound) {
			return notFound
		} else if err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		s.add(ctx, current.MemberID, Event{Kind: KindSessionEnded, At: s.now(), ClientAddr: ss.ClientAddr, UserAgent: ss.UserAgent})
		return nil
	}
	return notFound
}

// EndOthers signs out every session of the member but the current one.
func (s *Service) EndOthers(ctx context.Context, current auth.Session) error {
	if err := s.store.DeleteOtherSessions(ctx, current.MemberID, current.IDHash); err != nil {
		return fmt.Errorf("end other sessions: %w", err)
	}
	s.add(ctx, current.MemberID, Event{Kind: KindSessionsEnded, At: s.now(), ClientAddr: current.ClientAddr, UserAgent: current.UserAgent})
	return nil
}

// EventView is an event on the page.
type EventView struct {
	Kind          string    `json:"kind"`
	At            time.Time `json:"at"`
	ClientAddress string    `json:"clientAddress"`
	Device        Device    `json:"device"`
}

// Events lists the member's events of the retention window, newest first.
func (s *Service) Events(ctx context.Context, memberID string) ([]EventView, error) {
	list, err := s.store.Events(ctx, memberID, s.now().Add(-EventRetention), MaxEvents)
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	out := make([]EventView, 0, len(list))
	for _, e := range list {
		out = append(out, EventView{Kind: e.Kind, At: e.At.UTC(), ClientAddress: e.ClientAddr, Device: ParseDevice(e.UserAgent)})
	}
	return out, nil
}

// Purge deletes events older than the retention window.
func (s *Service) Purge(ctx context.Context) (int64, error) {
	return s.store.PurgeEvents(ctx, s.now().Add(-EventRetention))
}
