package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"members/internal/apperr"
	"members/internal/ratelimit"
)

// Attempt is one sign-in with a proof other than the password (a passkey
// assertion). It goes through the same throttles as a password login and
// ends in the same session, observer and all:
//   - Begin reserves the client address's attempt before anything is
//     checked (the address limit of the password login);
//   - Member, once the proof names a member, reserves the account's limits
//     (account + address, and the account's ceiling) under the same keys
//     the password login uses, so guesses by password and by passkey count
//     together;
//   - Fail keeps the reservations (they are the failure's count) and tells
//     the observer of a failure for a known member;
//   - Succeed gives the reservations back as a successful login does and
//     opens the session.
type Attempt struct {
	s          *Service
	clientAddr string
	userAgent  string
	addr       ratelimit.Limit
	account    []ratelimit.Limit // acct-addr, acct; nil until Member
	memberID   string
	done       bool
}

// BeginAttempt reserves the client address's attempt. Error: TooMany.
func (s *Service) BeginAttempt(ctx context.Context, clientAddr, userAgent string) (*Attempt, error) {
	a := &Attempt{
		s: s, clientAddr: clientAddr, userAgent: truncate(userAgent, 300),
		addr: ratelimit.Limit{Window: s.window(MaxFailsPerAddr), Key: "login:addr:" + clientAddr},
	}
	if full, err := ratelimit.ReserveAll(ctx, a.addr); err != nil {
		return nil, fmt.Errorf("sign-in throttle: %w", err)
	} else if full >= 0 {
		return nil, apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	return a, nil
}

// Member names the member the proof claims to be, and reserves that
// account's attempts. Errors: TooMany (the account is throttled, as for a
// password login), Unauthenticated (no such member).
func (a *Attempt) Member(ctx context.Context, memberID string) error {
	if a.account != nil {
		if memberID != a.memberID {
			return apperr.New(apperr.Unauthenticated, "auth.login_failed")
		}
		return nil
	}
	email, err := a.s.store.EmailOf(ctx, memberID)
	if errors.Is(err, ErrNoMember) || (err == nil && email == "") {
		return apperr.New(apperr.Unauthenticated, "auth.login_failed")
	}
	if err != nil {
		return fmt.Errorf("sign-in member: %w", err)
	}
	email = strings.ToLower(strings.TrimSpace(email))
	limits := []ratelimit.Limit{
		{Window: a.s.window(MaxFailsPerAccount), Key: "login:acct-addr:" + a.clientAddr + "|" + email},
		{Window: a.s.window(MaxFailsPerAccountCeiling), Key: "login:acct:" + email},
	}
	if full, err := ratelimit.ReserveAll(ctx, limits...); err != nil {
		return fmt.Errorf("sign-in throttle: %w", err)
	} else if full >= 0 {
		return apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	a.account, a.memberID = limits, memberID
	return nil
}

// Fail ends a failed attempt: the reservations stay (they count), and a
// failure for a known member is recorded by the observer.
func (a *Attempt) Fail(ctx context.Context) {
	if a.done {
		return
	}
	a.done = true
	if a.memberID != "" && a.s.observer != nil {
		a.s.observer.SignInFailed(ctx, a.memberID, a.clientAddr, a.userAgent)
	}
}

// Succeed ends a successful attempt for the member named by Member: the
// failures of this account from this address are forgotten, the address's
// and the ceiling's reservations given back, and a new session opened (the
// cookie token is returned, never stored).
func (a *Attempt) Succeed(ctx context.Context) (string, Session, error) {
	if a.done || a.account == nil {
		return "", Session{}, errors.New("sign-in attempt: no member or already ended")
	}
	a.done = true
	if err := a.s.counters.Reset(ctx, a.account[0].Key); err != nil {
		return "", Session{}, fmt.Errorf("sign-in throttle reset: %w", err)
	}
	for _, l := range []ratelimit.Limit{a.addr, a.account[1]} {
		if err := l.Window.Release(ctx, l.Key); err != nil {
			return "", Session{}, fmt.Errorf("sign-in throttle release: %w", err)
		}
	}
	token, sess, err := a.s.open(ctx, a.memberID, a.clientAddr, a.userAgent)
	if errors.Is(err, ErrNoMember) {
		// Erased since the proof was checked: the answer of an unknown member.
		return "", Session{}, apperr.New(apperr.Unauthenticated, "auth.login_failed")
	}
	if err == nil && a.s.observer != nil {
		a.s.observer.SignedIn(ctx, sess)
	}
	return token, sess, err
}
