// Package passkey lets members register, name, list and remove passkeys
// (WebAuthn credentials) and sign in with one instead of the password,
// discoverable credentials included. The ceremonies are github.com/go-webauthn/webauthn's;
// their challenges live in the database (any instance finishes what
// another began), are taken by the first finish (single use) and expire
// after ChallengeTTL. Sign-ins go through auth's throttles and sessions
// (auth.Attempt); additions and removals are security events with a mail.
// It imports neither SQL nor HTTP.
package passkey

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/ratelimit"
	"members/internal/security"
)

// Limits.
const (
	// ChallengeTTL is how long a ceremony may take between its options
	// and its answer.
	ChallengeTTL = 5 * time.Minute
	// MaxPasskeys per member.
	MaxPasskeys = 20
	// MaxNameLen is the longest passkey name.
	MaxNameLen = 60
	// OptionsPerWindow caps the ceremonies a client address (sign-in) or a
	// member (registration, re-authentication) may begin per auth.ThrottleWindow:
	// every one is a database row.
	OptionsPerWindow = 60
	// MaxWrongPassword is the current-password throttle of a removal,
	// shared with the password change (the same secret is guessed).
	MaxWrongPassword = 5
)

// Ceremony purposes, stored with the challenge.
const (
	PurposeRegister = "register"
	PurposeLogin    = "login"
	PurposeReauth   = "reauth"
)

// Mail kinds (catalogue mail.<kind>.* in passkey.<lang>.json).
const (
	MailAdded   = "security_passkey_added"
	MailRemoved = "security_passkey_removed"
)

// Store errors.
var (
	ErrNotFound  = errors.New("passkey: not found")
	ErrDuplicate = errors.New("passkey: credential already registered")
)

// Passkey is one stored credential of a member.
type Passkey struct {
	ID         string
	MemberID   string
	Name       string
	Credential webauthn.Credential
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// Challenge is a ceremony in progress.
type Challenge struct {
	ID        string
	MemberID  string // empty for a sign-in
	Purpose   string
	Session   webauthn.SessionData
	ExpiresAt time.Time
}

// Member is what a registration shows the authenticator of the member.
type Member struct {
	Email       string
	DisplayName string
}

// Store is the storage the service needs.
type Store interface {
	// List returns the member's passkeys, oldest first.
	List(ctx context.Context, memberID string) ([]Passkey, error)
	// ByCredentialID returns the passkey of a raw credential id; ErrNotFound.
	ByCredentialID(ctx context.Context, credentialID []byte) (Passkey, error)
	// Add stores a new passkey; ErrDuplicate when the credential exists.
	Add(ctx context.Context, p Passkey) error
	// Rename renames one of the member's passkeys; ErrNotFound.
	Rename(ctx context.Context, memberID, id, name string) error
	// Delete deletes one of the member's passkeys; ErrNotFound.
	Delete(ctx context.Context, memberID, id string) error
	// Used stores the credential after an assertion (sign count, flags)
	// and the time of use.
	Used(ctx context.Context, id string, c webauthn.Credential, at time.Time) error
	// SaveChallenge stores a ceremony and purges the expired ones.
	SaveChallenge(ctx context.Context, c Challenge, now time.Time) error
	// TakeChallenge deletes and returns a ceremony (once); ErrNotFound.
	TakeChallenge(ctx context.Context, id string) (Challenge, error)
	// Member returns the member's address and name; ErrNotFound.
	Member(ctx context.Context, memberID string) (Member, error)
	// PasswordHash returns the member's password hash; ErrNotFound.
	PasswordHash(ctx context.Context, memberID string) (string, error)
}

// Notifier records security events and mails the member (the security
// centre).
type Notifier interface {
	Record(ctx context.Context, memberID string, e security.Event, mailKind string, args ...any)
}

// PasswordVerifier checks a password against its hash (auth.Hasher).
type PasswordVerifier interface {
	Verify(password, hash string) bool
}

// Config is the relying party: its id (a registrable domain: the public
// URL's host) and the origins the browser may answer from.
type Config struct {
	RPID        string
	RPName      string
	Origins     []string
	ChallengeID func() string
}

// ErrNoDomain: the public URL's host is an address other than loopback,
// which WebAuthn cannot use as a relying party id (it must be a domain).
var ErrNoDomain = errors.New("passkey: the public URL's host is an IP address; set --passkey-rp-id")

// RelyingParty derives the relying party id and origin from the site's
// public URL (the defaults of --passkey-rp-id and --passkey-origins). A
// loopback address (the development default http://127.0.0.1:8080) gives
// "localhost" and the same port: browsers accept no IP address as a
// relying party id, so passkeys are used at http://localhost:PORT there.
func RelyingParty(publicURL string) (rpID string, origins []string, err error) {
	u, err := url.Parse(strings.TrimSpace(publicURL))
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", nil, fmt.Errorf("passkey: public URL %q is not an absolute http(s) URL", publicURL)
	}
	host := u.Hostname()
	if ip, perr := netip.ParseAddr(host); perr == nil {
		if !ip.IsLoopback() {
			return "", nil, ErrNoDomain
		}
		host = "localhost"
	}
	origin := u.Scheme + "://" + host
	if p := u.Port(); p != "" {
		origin += ":" + p
	}
	return host, []string{origin}, nil
}

// Deps are what the service is built from.
type Deps struct {
	Store     Store
	Config    Config
	Auth      *auth.Service
	Passwords PasswordVerifier
	Counters  ratelimit.Counters
	Notifier  Notifier
	Now       func() time.Time
	Logger    *slog.Logger
}

// Service is the passkeys domain service.
type Service struct {
	d  Deps
	wa *webauthn.WebAuthn // nil: passkeys are off (no relying party)
}

// Disabled returns a service whose ceremonies answer 503 (the public URL
// names no domain and --passkey-rp-id is not set); listing and removing
// passkeys still work.
func Disabled(d Deps) *Service { return &Service{d: d} }

var errUnavailable = apperr.New(apperr.Unavailable, "passkey.unavailable")

// Enabled reports whether ceremonies can run.
func (s *Service) Enabled() bool { return s.wa != nil }

// NewService checks the relying party and builds the service.
func NewService(d Deps) (*Service, error) {
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          d.Config.RPID,
		RPDisplayName: d.Config.RPName,
		RPOrigins:     d.Config.Origins,
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: ChallengeTTL, TimeoutUVD: ChallengeTTL},
			Registration: webauthn.TimeoutConfig{Timeout: ChallengeTTL, TimeoutUVD: ChallengeTTL},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("passkey: relying party: %w", err)
	}
	if d.Config.ChallengeID == nil {
		return nil, errors.New("passkey: no challenge id generator")
	}
	return &Service{d: d, wa: wa}, nil
}

// View is a passkey on the page and in the export: never the key.
type View struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	// Synced: the authenticator says the credential is backed up (synced
	// across the member's devices by a password manager).
	Synced bool `json:"synced"`
}

func view(p Passkey) View {
	v := View{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt.UTC(), Synced: p.Credential.Flags.BackupState}
	if p.LastUsedAt != nil {
		t := p.LastUsedAt.UTC()
		v.LastUsedAt = &t
	}
	return v
}

// Options start a ceremony in the browser: ChallengeID comes back with
// the answer, PublicKey goes to navigator.credentials (through
// @simplewebauthn/browser's optionsJSON).
type Options struct {
	ChallengeID string `json:"challengeId"`
	PublicKey   any    `json:"publicKey"`
}

// user is a member as go-webauthn sees it. The user handle is the member
// id: random, opaque, no personal data.
type user struct {
	id    string
	m     Member
	creds []webauthn.Credential
}

func (u user) WebAuthnID() []byte                         { return []byte(u.id) }
func (u user) WebAuthnName() string                       { return u.m.Email }
func (u user) WebAuthnDisplayName() string                { return u.m.DisplayName }
func (u user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func (s *Service) user(ctx context.Context, memberID string, list []Passkey) (user, error) {
	m, err := s.d.Store.Member(ctx, memberID)
	if errors.Is(err, ErrNotFound) {
		return user{}, apperr.New(apperr.Unauthenticated, "auth.login_failed")
	}
	if err != nil {
		return user{}, fmt.Errorf("passkey member: %w", err)
	}
	u := user{id: memberID, m: m}
	for _, p := range list {
		u.creds = append(u.creds, p.Credential)
	}
	return u, nil
}

// throttle counts one ceremony begun by key.
func (s *Service) throttle(ctx context.Context, key string) error {
	w := ratelimit.Window{Counters: s.d.Counters, Length: auth.ThrottleWindow, Limit: OptionsPerWindow, Now: s.d.Now}
	ok, err := w.Allow(ctx, key)
	if err != nil {
		return fmt.Errorf("passkey throttle: %w", err)
	}
	if !ok {
		return apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	return nil
}

func (s *Service) save(ctx context.Context, memberID, purpose string, sd *webauthn.SessionData, publicKey any) (Options, error) {
	now := s.d.Now()
	c := Challenge{ID: s.d.Config.ChallengeID(), MemberID: memberID, Purpose: purpose, Session: *sd, ExpiresAt: now.Add(ChallengeTTL)}
	if err := s.d.Store.SaveChallenge(ctx, c, now); err != nil {
		return Options{}, fmt.Errorf("save challenge: %w", err)
	}
	return Options{ChallengeID: c.ID, PublicKey: publicKey}, nil
}

var errCeremony = apperr.New(apperr.Invalid, "passkey.ceremony_failed")

// take returns the ceremony of id if it is purpose's, memberID's ("" for a
// sign-in) and not expired; it is gone afterwards whatever the answer.
func (s *Service) take(ctx context.Context, id, purpose, memberID string) (Challenge, bool, error) {
	if id == "" || len(id) > 100 {
		return Challenge{}, false, nil
	}
	c, err := s.d.Store.TakeChallenge(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return Challenge{}, false, nil
	}
	if err != nil {
		return Challenge{}, false, fmt.Errorf("take challenge: %w", err)
	}
	if c.Purpose != purpose || c.MemberID != memberID || !s.d.Now().Before(c.ExpiresAt) {
		return Challenge{}, false, nil
	}
	// The database row's expiry (on the product's clock) is the one that
	// counts; go-webauthn's own check would read the wall clock.
	c.Session.Expires = time.Time{}
	return c, true, nil
}

// List returns the member's passkeys.
func (s *Service) List(ctx context.Context, memberID string) ([]View, error) {
	list, err := s.d.Store.List(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("list passkeys: %w", err)
	}
	out := make([]View, 0, len(list))
	for _, p := range list {
		out = append(out, view(p))
	}
	return out, nil
}

func (s *Service) find(ctx context.Context, memberID, id string) (Passkey, []Passkey, error) {
	list, err := s.d.Store.List(ctx, memberID)
	if err != nil {
		return Passkey{}, nil, fmt.Errorf("list passkeys: %w", err)
	}
	for _, p := range list {
		if p.ID == id {
			return p, list, nil
		}
	}
	return Passkey{}, list, apperr.ErrNotFound
}
