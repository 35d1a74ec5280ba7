// Package account is the member's own data: the profile (spec §3 member
// profile) with its rules (spec §5), password change and reset, the saved
// passengers, and the notification mails each change sends. It holds the
// domain types, the rules and the service; the SQL is in internal/store
// (AccountStore) and the HTTP in internal/httpapi/account.go.
//
// Password-reset links are single-use and expire ResetLinkLifetime (one
// hour) after they are issued; only the SHA-256 of the token is stored.
package account

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/notify"
	"members/internal/ratelimit"
)

// Passenger types.
const (
	TypeAdult  = "ADULT"
	TypeChild  = "CHILD"
	TypeInfant = "INFANT"
)

// Member is the stored member record (no derived fields).
type Member struct {
	ID                       string
	Email                    string
	Firstname                string
	Lastname                 string
	Gender                   string
	Birth                    string
	Tel                      string
	AddressCountryCode       string
	AddressPostalCode        string
	AddressStateAndCity      string
	Address1                 string
	PassportNo               string
	PassportNationalityCode  string
	PassportIssueCountryCode string
	PassportExpirationDate   string
	Optin1                   bool
	AutoLoginIsActive        bool
	AutoLoginNoticeMail      bool
	IsEmployee               bool
	OnlineShopAccountStatus  string
	Lang                     string
	// MailLang is the mail language the member chose in the notification
	// settings; empty when none was chosen.
	MailLang string
}

// Name is how mails greet the member.
func (m Member) Name() string { return strings.TrimSpace(m.Firstname + " " + m.Lastname) }

// MailLanguage is the language of a mail to the member: the one chosen in
// the notification settings, else fallback (the language of the page whose
// action caused the mail).
func (m Member) MailLanguage(fallback i18n.Lang) i18n.Lang {
	return notify.MailLang(m.MailLang, fallback)
}

// Passenger is a saved passenger of a member: the checked form and its id.
type Passenger struct {
	ID string `json:"id"`
	PassengerInput
	// The country names of the passport codes in the reader's language
	// (read-only, as on the member's profile; not stored).
	PassportNationality  string `json:"passportNationality"`
	PassportIssueCountry string `json:"passportIssueCountry"`
}

// Name is the passenger's display name in mails.
func (p Passenger) Name() string { return strings.TrimSpace(p.Firstname + " " + p.Lastname) }

// Store is the storage the account service needs (internal/store.AccountStore).
type Store interface {
	// Member returns ErrNotFound when there is no such member.
	Member(ctx context.Context, id string) (Member, error)
	// MemberByEmail returns ErrNotFound when no member has the address.
	MemberByEmail(ctx context.Context, email string) (Member, error)
	// UpdateMember saves the editable fields; ErrEmailTaken when another
	// member has the address.
	UpdateMember(ctx context.Context, m Member, now time.Time) error
	// PasswordHash returns ErrNotFound for an unknown member.
	PasswordHash(ctx context.Context, memberID string) (string, error)
	SetPasswordHash(ctx context.Context, memberID, hash string, now time.Time) error
	// SetOnlineShopStatus records the online-shop link; ErrNotFound for an unknown member.
	SetOnlineShopStatus(ctx context.Context, memberID, status string, now time.Time) error

	Passengers(ctx context.Context, memberID string) ([]Passenger, error)
	// Passenger returns ErrNotFound unless the passenger is the member's.
	Passenger(ctx context.Context, memberID, id string) (Passenger, error)
	// AddPassenger returns ErrTooManyPassengers when the member has max already.
	AddPassenger(ctx context.Context, memberID string, p Passenger, max int, now time.Time) error
	// UpdatePassenger and DeletePassenger return ErrNotFound unless the
	// passenger is the member's.
	UpdatePassenger(ctx context.Context, memberID string, p Passenger, now time.Time) error
	DeletePassenger(ctx context.Context, memberID, id string) error

	// CreateReset stores a reset token hash, dropping the member's older ones.
	CreateReset(ctx context.Context, memberID, tokenHash string, now, expires time.Time) error
	// ResetMember returns the member of a usable token, ErrNotFound otherwise.
	ResetMember(ctx context.Context, tokenHash string, now time.Time) (string, error)
	// ConsumeReset marks a usable token used and sets the member's password
	// hash in one transaction; ErrNotFound when the token is not usable.
	ConsumeReset(ctx context.Context, tokenHash string, now time.Time, passwordHash string) (string, error)
}

// Store errors.
var (
	ErrNotFound          = errors.New("account: not found")
	ErrEmailTaken        = errors.New("account: e-mail taken")
	ErrTooManyPassengers = errors.New("account: too many passengers")
)

// Sessions is what the service needs of auth.
type Sessions interface {
	EndOtherSessions(ctx context.Context, memberID string, keep auth.Session) error
	EndAllSessions(ctx context.Context, memberID string) error
}

// Countries validates and names ISO 3166 countries (masters.Countries).
type Countries interface {
	Valid(code string) bool
	Name(lang i18n.Lang, code string) string
}

// Mailer sends mails (mail.Mailer).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Deps are the service's dependencies.
type Deps struct {
	Store     Store
	Sessions  Sessions
	Hasher    *auth.Hasher
	Countries Countries
	Mailer    Mailer
	Templates *mail.Templates
	Counters  ratelimit.Counters
	// EmailChanges keeps e-mail changes waiting for their confirmation.
	EmailChanges EmailChangeStore
	Now          func() time.Time
	Logger       *slog.Logger
	// PublicURL is the site's base URL for links in mails.
	PublicURL string
	// Security records changes of password and e-mail in the member's
	// security centre (and mails where the change did not already); nil
	// when the security centre is not wired.
	Security SecurityRecorder
}

// SecurityRecorder is the security centre as the account feature uses it
// (security.Service).
type SecurityRecorder interface {
	Changed(ctx context.Context, memberID, kind, mailKind string)
}

// recordChange tells the security centre of a change, when it is wired.
func (s *Service) recordChange(ctx context.Context, memberID, kind, mailKind string) {
	if s.Security != nil {
		s.Security.Changed(ctx, memberID, kind, mailKind)
	}
}

// securityCentreURL is the security centre's page, linked from the mails
// that announce a change of the account's security.
func (s *Service) securityCentreURL(lang i18n.Lang) string {
	return s.PublicURL + "/security?lang=" + string(lang)
}

// Service is the account domain service.
type Service struct {
	Deps
	// background mails (password reset) still running
	wg sync.WaitGroup
}

// NewService returns the service.
func NewService(d Deps) *Service {
	d.PublicURL = strings.TrimRight(d.PublicURL, "/")
	return &Service{Deps: d}
}

// Wait blocks until background mails are done (at shutdown and in tests).
func (s *Service) Wait() error {
	s.wg.Wait()
	return nil
}

// notify renders and sends a standard mail; it reports whether the mail
// was sent (or kept in the outbox when no SMTP is configured).
func (s *Service) notify(ctx context.Context, kind string, lang i18n.Lang, to string, d mail.Data) bool {
	msg, err := s.Templates.Standard(kind, lang, to, d)
	if err != nil {
		s.Logger.Error("account: render mail", "kind", kind, "err", err)
		return false
	}
	if err := s.Mailer.Send(ctx, msg); err != nil {
		s.Logger.Warn("account: mail not sent", "kind", kind, "err", err)
		return false
	}
	return true
}
