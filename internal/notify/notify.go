// Package notify holds a member's notification settings: which optional
// mails the member gets (flight changes, points expiry reminders; security
// alerts always go), the language of every mail to the member, and the
// signed one-click unsubscribe links (RFC 8058) carried by the optional
// mails. It imports neither SQL nor HTTP.
package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/validate"
)

// Kind is a kind of mail the settings speak of.
type Kind string

// The kinds of mail.
const (
	// FlightChanges: a booked flight was delayed, cancelled, moved…
	FlightChanges Kind = "flight_changes"
	// PointsReminders: a points voucher expires soon.
	PointsReminders Kind = "points_reminders"
	// Security: a new sign-in, a changed password or e-mail… Always sent.
	Security Kind = "security"
)

// Optional reports whether the member may switch the kind off.
func (k Kind) Optional() bool { return k == FlightChanges || k == PointsReminders }

// ParseKind reads a kind's name; false for an unknown one.
func ParseKind(s string) (Kind, bool) {
	switch k := Kind(s); k {
	case FlightChanges, PointsReminders, Security:
		return k, true
	}
	return "", false
}

// Settings are a member's notification settings as they apply.
type Settings struct {
	FlightChanges   bool
	PointsReminders bool
	// MailLang is the language of every mail to the member: the one the
	// member chose, else the account's language.
	MailLang i18n.Lang
	// MailLangChosen is false while the mails follow the account's
	// language ("same as the site"), true once the member chose one.
	MailLangChosen bool
}

// Allows reports whether a mail of kind goes to the member.
func (s Settings) Allows(k Kind) bool {
	switch k {
	case FlightChanges:
		return s.FlightChanges
	case PointsReminders:
		return s.PointsReminders
	}
	return true
}

// Stored is what the store keeps: Saved false when the member never
// changed a setting (every optional mail on), MailLang empty when the
// member chose no mail language, AccountLang the account's language.
type Stored struct {
	Saved           bool
	FlightChanges   bool
	PointsReminders bool
	MailLang        string
	AccountLang     string
}

// Apply turns what is stored into the settings in force.
func (st Stored) Apply() Settings {
	s := Settings{FlightChanges: true, PointsReminders: true}
	if st.Saved {
		s.FlightChanges, s.PointsReminders = st.FlightChanges, st.PointsReminders
	}
	lang, ok := i18n.Parse(st.MailLang)
	s.MailLangChosen = ok
	if !ok {
		if lang, ok = i18n.Parse(st.AccountLang); !ok {
			lang = i18n.Default
		}
	}
	s.MailLang = lang
	return s
}

// MailLang is the language of a mail to a member: chosen (the mail
// language of the settings, "" for none), else fallback (the page's
// language for a mail the member's own action caused, the account's for a
// mail the server sends by itself).
func MailLang(chosen string, fallback i18n.Lang) i18n.Lang {
	if l, ok := i18n.Parse(chosen); ok {
		return l
	}
	return fallback
}

// ErrNotFound is what the store returns for an unknown or deleted member.
var ErrNotFound = errors.New("notify: member not found")

// Store keeps the settings (internal/store.NotifyStore).
type Store interface {
	// Settings returns what is stored for the member; ErrNotFound for an
	// unknown or deleted member.
	Settings(ctx context.Context, memberID string) (Stored, error)
	// Save stores the member's settings (mailLang "" for none chosen).
	Save(ctx context.Context, memberID string, flightChanges, pointsReminders bool, mailLang string, now time.Time) error
	// SwitchOff turns one optional kind off, keeping the other settings.
	SwitchOff(ctx context.Context, memberID string, k Kind, now time.Time) error
}

// Input is a change of the settings from the member: every field but
// SecurityAlerts is required; SecurityAlerts, when given, must be true
// (security alerts cannot be switched off).
type Input struct {
	FlightChanges   *bool
	PointsReminders *bool
	SecurityAlerts  *bool
	MailLang        string
}

// Service reads and changes the settings and signs unsubscribe links.
type Service struct {
	store     Store
	keys      [][]byte // keys[0] signs; every key verifies
	publicURL string
	now       func() time.Time
	logger    *slog.Logger
}

// NewService returns the service. keys[0] signs the unsubscribe links,
// every key of keys verifies them (the previous keys during a change);
// publicURL is the site's base URL for the links.
func NewService(st Store, keys [][]byte, publicURL string, now func() time.Time, logger *slog.Logger) (*Service, error) {
	if len(keys) == 0 || len(keys[0]) == 0 {
		return nil, errors.New("notify: no unsubscribe key")
	}
	return &Service{store: st, keys: keys, publicURL: strings.TrimRight(publicURL, "/"), now: now, logger: logger}, nil
}

// Get returns the member's settings in force.
func (s *Service) Get(ctx context.Context, memberID string) (Settings, error) {
	st, err := s.store.Settings(ctx, memberID)
	if errors.Is(err, ErrNotFound) {
		return Settings{}, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return Settings{}, fmt.Errorf("notification settings: %w", err)
	}
	return st.Apply(), nil
}

// Update checks and stores the member's settings: the mail language must
// be one of the eight, or "" for none chosen (the mails follow the
// account's language again, "same as the site"); security alerts cannot be
// switched off.
func (s *Service) Update(ctx context.Context, memberID string, in Input) (Settings, error) {
	errs := validate.Errors{}
	errs.Check("flightChanges", in.FlightChanges != nil, "validation.required")
	errs.Check("pointsReminders", in.PointsReminders != nil, "validation.required")
	if in.MailLang != "" {
		_, ok := i18n.Parse(in.MailLang)
		errs.Check("mailLang", ok, "notify.validation.mail_lang")
	}
	if in.SecurityAlerts != nil && !*in.SecurityAlerts {
		errs.Add("securityAlerts", "notify.validation.security_locked")
	}
	if !errs.Empty() {
		return Settings{}, apperr.FromFields(errs)
	}
	if err := s.store.Save(ctx, memberID, *in.FlightChanges, *in.PointsReminders, in.MailLang, s.now()); err != nil {
		if errors.Is(err, ErrNotFound) {
			return Settings{}, apperr.New(apperr.NotFound, "error.not_found")
		}
		return Settings{}, fmt.Errorf("save notification settings: %w", err)
	}
	return s.Get(ctx, memberID)
}

// Allows reports whether a mail of kind may go to the member now. Senders
// ask it right before they write the mail, so a kind switched off after
// the mail was owed (inside a flight change's coalescing window) is
// honoured. An unknown member gets nothing.
func (s *Service) Allows(ctx context.Context, memberID string, k Kind) (bool, error) {
	st, err := s.store.Settings(ctx, memberID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("notification settings: %w", err)
	}
	return st.Apply().Allows(k), nil
}

// MailLang is the language of the mails to the member; fallback when the
// member is unknown.
func (s *Service) MailLang(ctx context.Context, memberID string, fallback i18n.Lang) i18n.Lang {
	st, err := s.store.Settings(ctx, memberID)
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			s.logger.Warn("notify: mail language", "err", err)
		}
		return fallback
	}
	return st.Apply().MailLang
}

// UnsubscribePath is where the one-click unsubscribe links point.
const UnsubscribePath = "/mail/unsubscribe"

// sign is the link's signature for member and kind under key.
func sign(key []byte, memberID string, k Kind) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("members-unsubscribe\x00" + memberID + "\x00" + string(k)))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// UnsubscribeSecret is the signature in UnsubscribeURL: a mail that
// carries the link names it among its secrets (mail.Data.Secrets), so the
// outbox keeps it only until the mail is sent.
func (s *Service) UnsubscribeSecret(memberID string, k Kind) string {
	return sign(s.keys[0], memberID, k)
}

// UnsubscribeURL is the signed one-click link that switches kind off for
// the member. It does not expire: a mail may be read months later.
func (s *Service) UnsubscribeURL(memberID string, k Kind) string {
	q := url.Values{"m": {memberID}, "k": {string(k)}, "s": {sign(s.keys[0], memberID, k)}}
	return s.publicURL + UnsubscribePath + "?" + q.Encode()
}

// Headers are the extra headers of an optional mail of kind to the
// member: List-Unsubscribe with the signed link and List-Unsubscribe-Post
// for the one-click POST of RFC 8058. None for a kind that cannot be
// switched off.
func (s *Service) Headers(memberID string, k Kind) map[string]string {
	if !k.Optional() {
		return nil
	}
	return map[string]string{
		"List-Unsubscribe":      "<" + s.UnsubscribeURL(memberID, k) + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}
}

// Errors of an unsubscribe link.
var (
	// ErrBadLink: the kind is not one that can be switched off, or the
	// signature is not the server's.
	ErrBadLink = errors.New("notify: unsubscribe link not valid")
)

// Link is a checked unsubscribe link.
type Link struct {
	MemberID string
	Kind     Kind
	// Lang is the member's mail language (the page speaks it).
	Lang i18n.Lang
}

// CheckLink verifies an unsubscribe link's signature with every key and
// returns it; ErrBadLink for a forged or altered link, ErrNotFound for a
// member who no longer exists.
func (s *Service) CheckLink(ctx context.Context, memberID, kind, sig string) (Link, error) {
	k, ok := ParseKind(kind)
	if !ok || !k.Optional() || memberID == "" || len(memberID) > 100 {
		return Link{}, ErrBadLink
	}
	valid := false
	for _, key := range s.keys {
		if hmac.Equal([]byte(sign(key, memberID, k)), []byte(sig)) {
			valid = true
		}
	}
	if !valid {
		return Link{}, ErrBadLink
	}
	st, err := s.store.Settings(ctx, memberID)
	if err != nil {
		return Link{}, err
	}
	return Link{MemberID: memberID, Kind: k, Lang: st.Apply().MailLang}, nil
}

// Unsubscribe switches the link's kind off (no session: the signed link is
// the proof). Repeating it changes nothing.
func (s *Service) Unsubscribe(ctx context.Context, memberID, kind, sig string) (Link, error) {
	l, err := s.CheckLink(ctx, memberID, kind, sig)
	if err != nil {
		return Link{}, err
	}
	if err := s.store.SwitchOff(ctx, l.MemberID, l.Kind, s.now()); err != nil {
		return Link{}, fmt.Errorf("unsubscribe: %w", err)
	}
	s.logger.Info("notify: unsubscribed by link", "member", l.MemberID, "kind", string(l.Kind))
	return l, nil
}
