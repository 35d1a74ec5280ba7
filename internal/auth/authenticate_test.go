package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"members/internal/apperr"
)

// sessionStore is the part of Store that Authenticate uses; the embedded
// interface is nil, so any other call fails the test by panicking.
type sessionStore struct {
	Store
	live     map[string]Session
	ended    map[string]string
	endedErr error
	deleted  []string
}

func (s *sessionStore) SessionByHash(_ context.Context, h string) (Session, error) {
	if sess, ok := s.live[h]; ok {
		return sess, nil
	}
	return Session{}, ErrNoSession
}

func (s *sessionStore) SessionEnding(_ context.Context, h string) (string, error) {
	return s.ended[h], s.endedErr
}

func (s *sessionStore) DeleteSession(_ context.Context, h string) error {
	s.deleted = append(s.deleted, h)
	return nil
}

func (s *sessionStore) TouchSession(context.Context, string, time.Time) error { return nil }

// TestAuthenticateTellsWhySessionIsGone: only a session the member ended
// from another device (the security centre) answers ErrEndedElsewhere; an
// expired, unknown or absent cookie is the plain "error.session", so the
// answer says nothing beyond what the cookie's holder did.
func TestAuthenticateTellsWhySessionIsGone(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	fresh := Session{MemberID: "m1", CreatedAt: now.Add(-time.Hour), LastSeenAt: now.Add(-time.Minute)}
	idle := Session{MemberID: "m1", CreatedAt: now.Add(-time.Hour), LastSeenAt: now.Add(-IdleTimeout)}
	old := Session{MemberID: "m1", CreatedAt: now.Add(-AbsoluteLifetime), LastSeenAt: now.Add(-time.Minute)}
	storeErr := errors.New("disk on fire")
	tests := []struct {
		name       string
		token      string
		live       map[string]Session
		ended      map[string]string
		endedErr   error
		wantKey    string // the errorKey, "" for the plain answer
		wantMsg    string // "" when the session is returned
		wantErr    error  // a store failure, wrapped
		wantDelete bool
	}{
		{name: "live", token: "t-live", live: map[string]Session{HashToken("t-live"): fresh}},
		{name: "ended by the member from another device", token: "t-ended", ended: map[string]string{HashToken("t-ended"): EndedElsewhere},
			wantKey: EndedElsewhereKey, wantMsg: "error.session_ended_elsewhere"},
		{name: "ended on purpose (a password change, the account deleted)", token: "t-ended", ended: map[string]string{HashToken("t-ended"): EndedOnPurpose},
			wantKey: EndedKey, wantMsg: "error.session"},
		{name: "another token was ended, not this one", token: "t-unknown", ended: map[string]string{HashToken("t-ended"): EndedElsewhere},
			wantMsg: "error.session"},
		{name: "unknown cookie", token: "t-unknown", wantMsg: "error.session"},
		{name: "no cookie", token: "", wantMsg: "error.session"},
		{name: "idle too long", token: "t-idle", live: map[string]Session{HashToken("t-idle"): idle},
			wantMsg: "error.session", wantDelete: true},
		{name: "past its lifetime", token: "t-old", live: map[string]Session{HashToken("t-old"): old},
			wantMsg: "error.session", wantDelete: true},
		{name: "the ended record cannot be read", token: "t-x", endedErr: storeErr, wantErr: storeErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &sessionStore{live: tt.live, ended: tt.ended, endedErr: tt.endedErr}
			s := &Service{store: st, now: func() time.Time { return now }}
			sess, err := s.Authenticate(context.Background(), tt.token)
			if tt.wantDelete != (len(st.deleted) == 1) {
				t.Errorf("deleted %v, want a delete: %v", st.deleted, tt.wantDelete)
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || apperr.CodeOf(err) == apperr.Forbidden {
					t.Errorf("err = %v, want the store's error (not a 403)", err)
				}
				return
			}
			if tt.wantMsg == "" {
				if err != nil || sess.MemberID != "m1" {
					t.Fatalf("Authenticate = %+v, %v; want the live session", sess, err)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v, want an apperr.Error", err)
			}
			if ae.Code != apperr.Forbidden || ae.MsgKey != tt.wantMsg || ae.ErrorKey != tt.wantKey {
				t.Errorf("err = {%v %q %q}, want {Forbidden %q %q}", ae.Code, ae.MsgKey, ae.ErrorKey, tt.wantMsg, tt.wantKey)
			}
			if got := errors.Is(err, ErrEndedElsewhere); got != (tt.wantKey == EndedElsewhereKey) {
				t.Errorf("errors.Is(err, ErrEndedElsewhere) = %v", got)
			}
		})
	}
}
