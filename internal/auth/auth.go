// Package auth logs members in and out and keeps their server-side
// sessions: argon2id password hashes, random session tokens stored only as
// hashes, idle and absolute timeouts, and login throttling per account and
// per client address.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// Session lifetimes. The web app refreshes a session when the member comes
// back after 20 idle minutes, so the idle timeout is a little longer.
const (
	IdleTimeout      = 30 * time.Minute
	AbsoluteLifetime = 12 * time.Hour
	// touchEvery limits last-seen writes to one per minute per session.
	touchEvery = time.Minute
)

// Login throttling, per fixed window (docs/security.md):
//   - MaxFailsPerAccount for one account from one client address: the
//     owner's typos and a single attacker's guesses;
//   - MaxFailsPerAddr from one client address, whatever the accounts;
//   - MaxFailsPerAccountCeiling for one account from everywhere, high
//     enough that a stranger alone cannot lock the owner out: only a
//     distributed attack (more than MaxFailsPerAccountCeiling/MaxFailsPerAccount
//     addresses) reaches it.
//
// Each attempt is reserved under all three before the password is checked
// (one statement that counts and compares), so parallel attempts cannot
// pass the limits; a successful login gives its reservation back.
const (
	ThrottleWindow            = 15 * time.Minute
	MaxFailsPerAccount        = 5
	MaxFailsPerAddr           = 20
	MaxFailsPerAccountCeiling = 100
)

// Session is a logged-in member's session.
type Session struct {
	IDHash     string
	MemberID   string
	LogID      string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ClientAddr string
	UserAgent  string
	// BookingsVersion is the member's bookings version read with the
	// session (the lookup of every request), 0 elsewhere: the booking
	// search's answer cache checks a kept answer against it.
	BookingsVersion int64
}

// Credentials is what login needs of a member.
type Credentials struct {
	MemberID     string
	PasswordHash string
}

// Store is the storage auth needs. Methods return store-level not-found
// errors as ErrNoSession / ErrNoMember.
type Store interface {
	// CredentialsByEmail returns ErrNoMember when no member has the address.
	CredentialsByEmail(ctx context.Context, email string) (Credentials, error)
	// ReplacePasswordHash sets the member's hash to newHash if it is still
	// oldHash (a change made meanwhile wins); no error when it was not.
	ReplacePasswordHash(ctx context.Context, memberID, oldHash, newHash string) error
	// EmailOf returns the sign-in address of a member (for the login
	// throttle keys of a sign-in that does not type it); ErrNoMember.
	EmailOf(ctx context.Context, memberID string) (string, error)
	CreateSession(ctx context.Context, s Session) error
	// SessionByHash returns ErrNoSession when none.
	SessionByHash(ctx context.Context, idHash string) (Session, error)
	TouchSession(ctx context.Context, idHash string, at time.Time) error
	DeleteSession(ctx context.Context, idHash string) error
	// EndSession ends a session on purpose (a logout): beside deleting it,
	// what it signed in to elsewhere is told (OpenID Connect back-channel
	// logout) and the tokens it approved are revoked.
	EndSession(ctx context.Context, idHash string) error
	// DeleteMemberSessions ends every session of a member but keepHash ("" for all).
	DeleteMemberSessions(ctx context.Context, memberID, keepHash string) error
	// DeleteStaleSessions removes sessions idle since or created before the
	// times (and the record of sessions ended before createdBefore).
	DeleteStaleSessions(ctx context.Context, idleBefore, createdBefore time.Time) (int64, error)
	// SessionEnding returns why the session of idHash was ended on
	// purpose (EndedElsewhere, EndedOnPurpose), "" when it was not (it ran
	// out, or never was).
	SessionEnding(ctx context.Context, idHash string) (string, error)
}

// Errors the store returns.
var (
	ErrNoSession = errors.New("auth: no session")
	ErrNoMember  = errors.New("auth: no member")
)

// Service is the auth domain service.
type Service struct {
	store    Store
	hasher   *Hasher
	counters ratelimit.Counters
	now      func() time.Time
	// dummyHash is verified for unknown e-mails so both failures take as long.
	dummyHash string
	// observer hears of sign-ins (the security centre); nil: nobody.
	observer Observer
}

// Observer is told of sign-ins and of wrong passwords for an existing
// member, after the fact; it must not fail the sign-in (it logs its own
// errors). The security centre records them and mails on a new device.
type Observer interface {
	SignedIn(ctx context.Context, sess Session)
	SignInFailed(ctx context.Context, memberID, clientAddr, userAgent string)
}

// Observe sets the sign-in observer. It is wired once at start-up, after
// the feature that observes is built (auth is built before the features).
func (s *Service) Observe(o Observer) { s.observer = o }

// NewService wires the service.
func NewService(store Store, hasher *Hasher, counters ratelimit.Counters, now func() time.Time) (*Service, error) {
	d, err := hasher.Hash("not-a-real-password-0")
	if err != nil {
		return nil, err
	}
	return &Service{store: store, hasher: hasher, counters: counters, now: now, dummyHash: d}, nil
}

// Hasher returns the password hasher, shared with the account domain.
func (s *Service) Hasher() *Hasher { return s.hasher }

func (s *Service) window(limit int) ratelimit.Window {
	return ratelimit.Window{Counters: s.counters, Length: ThrottleWindow, Limit: limit, Now: s.now}
}

// LoginInput is what the member typed.
type LoginInput struct {
	Email      string
	Password   string
	ClientAddr string
	UserAgent  string
}

// Login checks credentials and opens a new session. It returns the cookie
// token (never stored) and the session. Errors: Invalid (blank fields),
// TooMany (throttled), Unauthenticated (unknown e-mail or wrong password,
// indistinguishable).
func (s *Service) Login(ctx context.Context, in LoginInput) (string, Session, error) {
	fields := validate.Errors{}
	if fields.Required("email", in.Email) {
		fields.MaxLen("email", in.Email, 100)
	}
	if fields.Required("password", in.Password) {
		fields.MaxLen("password", in.Password, 100)
	}
	if !fields.Empty() {
		return "", Session{}, apperr.FromFields(fields)
	}
	email := strings.ToLower(strings.TrimSpace(in.Email))
	acctAddr := ratelimit.Limit{Window: s.window(MaxFailsPerAccount), Key: "login:acct-addr:" + in.ClientAddr + "|" + email}
	addr := ratelimit.Limit{Window: s.window(MaxFailsPerAddr), Key: "login:addr:" + in.ClientAddr}
	acct := ratelimit.Limit{Window: s.window(MaxFailsPerAccountCeiling), Key: "login:acct:" + email}
	if full, err := ratelimit.ReserveAll(ctx, acctAddr, addr, acct); err != nil {
		return "", Session{}, fmt.Errorf("login throttle: %w", err)
	} else if full >= 0 {
		return "", Session{}, apperr.New(apperr.TooMany, "error.too_many_requests")
	}

	cred, err := s.store.CredentialsByEmail(ctx, strings.TrimSpace(in.Email))
	switch {
	case errors.Is(err, ErrNoMember):
		s.hasher.Verify(in.Password, s.dummyHash)
	case err != nil:
		return "", Session{}, fmt.Errorf("login: %w", err)
	}
	if err != nil || !s.hasher.VerifyAny(in.Password, cred.PasswordHash) {
		if err == nil && s.observer != nil {
			s.observer.SignInFailed(ctx, cred.MemberID, in.ClientAddr, truncate(in.UserAgent, 300))
		}
		// The reservations stay: they are this failure's count.
		return "", Session{}, apperr.New(apperr.Unauthenticated, "auth.login_failed")
	}
	// Success: the owner's failures from this address are forgotten, and
	// this attempt does not count against the address or the ceiling.
	if err := s.counters.Reset(ctx, acctAddr.Key); err != nil {
		return "", Session{}, fmt.Errorf("login throttle reset: %w", err)
	}
	for _, l := range []ratelimit.Limit{addr, acct} {
		if err := l.Window.Release(ctx, l.Key); err != nil {
			return "", Session{}, fmt.Errorf("login throttle release: %w", err)
		}
	}
	if !s.hasher.IsOwnHash(cred.PasswordHash) {
		// An imported (or older) hash is replaced by the product's own at
		// its first successful use: the old one is gone from then on.
		own, err := s.hasher.Hash(in.Password)
		if err != nil {
			return "", Session{}, fmt.Errorf("login rehash: %w", err)
		}
		if err := s.store.ReplacePasswordHash(ctx, cred.MemberID, cred.PasswordHash, own); err != nil {
			return "", Session{}, fmt.Errorf("login rehash: %w", err)
		}
	}
	token, sess, err := s.open(ctx, cred.MemberID, in.ClientAddr, in.UserAgent)
	if errors.Is(err, ErrNoMember) {
		// Erased between the password check and the session: the answer
		// of an unknown address.
		return "", Session{}, apperr.New(apperr.Unauthenticated, "auth.login_failed")
	}
	if err == nil && s.observer != nil {
		s.observer.SignedIn(ctx, sess)
	}
	return token, sess, err
}

// open creates a session with a fresh random token.
func (s *Service) open(ctx context.Context, memberID, addr, ua string) (string, Session, error) {
	token, err := randomToken()
	if err != nil {
		return "", Session{}, err
	}
	logID, err := randomToken()
	if err != nil {
		return "", Session{}, err
	}
	now := s.now()
	sess := Session{
		IDHash: HashToken(token), MemberID: memberID, LogID: logID[:16],
		CreatedAt: now, LastSeenAt: now, ClientAddr: addr, UserAgent: truncate(ua, 300),
	}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return "", Session{}, fmt.Errorf("create session: %w", err)
	}
	return token, sess, nil
}

// EndedElsewhereKey is the errorKey of a call whose session the member
// signed out from another device (the security centre's "End session" or
// "End all other sessions"): the page says so, not "due to inactivity". A
// password change or reset ends sessions too, but the member did that
// knowingly on the device they are on: those stay the plain "error.session".
const EndedElsewhereKey = "session_ended_elsewhere"

// ErrEndedElsewhere is Authenticate's answer for such a session.
var ErrEndedElsewhere = &apperr.Error{Code: apperr.Forbidden, MsgKey: "error.session_ended_elsewhere", ErrorKey: EndedElsewhereKey}

// EndedKey is the errorKey of a call whose session was ended on purpose
// otherwise: a password change or reset, the account's deletion. The
// message stays the plain "error.session"; the device erases the trips it
// keeps (docs/offline.md), which it does not for a session that ran out.
const EndedKey = "session_ended"

// ErrEnded is Authenticate's answer for such a session.
var ErrEnded = &apperr.Error{Code: apperr.Forbidden, MsgKey: "error.session", ErrorKey: EndedKey}

// Why a session was ended on purpose (the store's ended_sessions.reason).
const (
	EndedElsewhere = "elsewhere" // the security centre: one device, or every other one
	EndedOnPurpose = "ended"     // a password change or reset, the account deleted
)

// Authenticate returns the live session of a cookie token and marks it
// seen. Expired sessions are deleted. Error: Forbidden.
func (s *Service) Authenticate(ctx context.Context, token string) (Session, error) {
	if token == "" {
		return Session{}, apperr.New(apperr.Forbidden, "error.session")
	}
	h := HashToken(token)
	sess, err := s.store.SessionByHash(ctx, h)
	if errors.Is(err, ErrNoSession) {
		// Only a token with no session pays for this second look.
		why, eerr := s.store.SessionEnding(ctx, h)
		if eerr != nil {
			return Session{}, fmt.Errorf("authenticate: %w", eerr)
		}
		switch why {
		case EndedElsewhere:
			return Session{}, ErrEndedElsewhere
		case "":
		default:
			return Session{}, ErrEnded
		}
		return Session{}, apperr.New(apperr.Forbidden, "error.session")
	}
	if err != nil {
		return Session{}, fmt.Errorf("authenticate: %w", err)
	}
	now := s.now()
	if Expired(sess, now) {
		if err := s.store.DeleteSession(ctx, h); err != nil {
			return Session{}, fmt.Errorf("delete expired session: %w", err)
		}
		return Session{}, apperr.New(apperr.Forbidden, "error.session")
	}
	if now.Sub(sess.LastSeenAt) >= touchEvery {
		if err := s.store.TouchSession(ctx, h, now); err != nil {
			return Session{}, fmt.Errorf("touch session: %w", err)
		}
		sess.LastSeenAt = now
	}
	return sess, nil
}

// Expired reports whether a session has passed its idle or absolute limit.
func Expired(sess Session, now time.Time) bool {
	return now.Sub(sess.LastSeenAt) >= IdleTimeout || now.Sub(sess.CreatedAt) >= AbsoluteLifetime
}

// Refresh extends the idle timeout of the session (the token refresh call).
func (s *Service) Refresh(ctx context.Context, sess Session) error {
	if err := s.store.TouchSession(ctx, sess.IDHash, s.now()); err != nil {
		return fmt.Errorf("refresh session: %w", err)
	}
	return nil
}

// Logout ends the session on the server (and the sites it signed in to
// are told: EndSession).
func (s *Service) Logout(ctx context.Context, sess Session) error {
	if err := s.store.EndSession(ctx, sess.IDHash); err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	return nil
}

// EndOtherSessions ends every session of the member except keep (after a
// password change); EndAllSessions ends them all (after a reset).
func (s *Service) EndOtherSessions(ctx context.Context, memberID string, keep Session) error {
	return s.store.DeleteMemberSessions(ctx, memberID, keep.IDHash)
}

// EndAllSessions ends every session of the member.
func (s *Service) EndAllSessions(ctx context.Context, memberID string) error {
	return s.store.DeleteMemberSessions(ctx, memberID, "")
}

// PurgeStale deletes expired sessions; the server calls it periodically.
func (s *Service) PurgeStale(ctx context.Context) (int64, error) {
	now := s.now()
	return s.store.DeleteStaleSessions(ctx, now.Add(-IdleTimeout), now.Add(-AbsoluteLifetime))
}

// HashToken is the stored form of a session token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// randomToken returns 256 random bits, URL-safe.
func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// RandomToken is exported for other single-use tokens (password reset).
func RandomToken() (string, error) { return randomToken() }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
