package account

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// ResetLinkLifetime is how long a password-reset link works.
const ResetLinkLifetime = time.Hour

// Reset request throttling: per address asked for and per client.
const (
	resetWindow       = time.Hour
	maxResetsPerEmail = 5
	maxResetsPerAddr  = 20
)

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RequestReset answers the same whether or not email belongs to a member:
// the lookup, the token and the mail happen in the background. Errors:
// Invalid (blank or malformed address), TooMany (throttled).
func (s *Service) RequestReset(ctx context.Context, email, clientAddr string, lang i18n.Lang) error {
	email = strings.TrimSpace(email)
	e := validate.Errors{}
	checkEmail(e, "email", email, true)
	if !e.Empty() {
		return apperr.FromFields(e)
	}
	win := func(limit int) ratelimit.Window {
		return ratelimit.Window{Counters: s.Counters, Length: resetWindow, Limit: limit, Now: s.Now}
	}
	full, err := ratelimit.ReserveAll(ctx,
		ratelimit.Limit{Window: win(maxResetsPerEmail), Key: "reset:email:" + strings.ToLower(email)},
		ratelimit.Limit{Window: win(maxResetsPerAddr), Key: "reset:addr:" + clientAddr})
	if err != nil {
		return fmt.Errorf("reset throttle: %w", err)
	}
	if full >= 0 {
		return apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := s.sendResetLink(bctx, email, lang); err != nil {
			s.Logger.Error("account: reset link", "err", err)
		}
	}()
	return nil
}

func (s *Service) sendResetLink(ctx context.Context, email string, lang i18n.Lang) error {
	m, err := s.Store.MemberByEmail(ctx, email)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	token, err := auth.RandomToken()
	if err != nil {
		return err
	}
	now := s.Now()
	if err := s.Store.CreateReset(ctx, m.ID, auth.HashToken(token), now, now.Add(ResetLinkLifetime)); err != nil {
		return err
	}
	// The mail language the member chose, else the asking page's.
	lang = m.MailLanguage(lang)
	link := s.PublicURL + "/reset-password/" + url.PathEscape(token) + "?lang=" + string(lang)
	s.notify(ctx, mail.KindPasswordReset, lang, m.Email, mail.Data{
		Given: m.Firstname, Family: m.Lastname, Args: []any{"minutes", int(ResetLinkLifetime.Minutes())}, URL: link,
		Secrets: []string{url.PathEscape(token)},
	})
	return nil
}

// ValidateReset reports NotFound for an unknown, used or expired token.
func (s *Service) ValidateReset(ctx context.Context, token string) error {
	if token == "" || len(token) > 200 {
		return apperr.New(apperr.NotFound, "account.reset_invalid")
	}
	_, err := s.Store.ResetMember(ctx, auth.HashToken(token), s.Now())
	if errors.Is(err, ErrNotFound) {
		return apperr.New(apperr.NotFound, "account.reset_invalid")
	}
	return err
}

// ResetInput is the new-password form of a reset link.
type ResetInput struct {
	Token           string `json:"token"`
	Password        string `json:"password"`
	PasswordReenter string `json:"passwordReenter"`
}

// ResetPassword sets a new password with a reset token (once), ends every
// session of the member and mails them. Errors: Invalid, NotFound.
func (s *Service) ResetPassword(ctx context.Context, in ResetInput, lang i18n.Lang) (bool, error) {
	e := validate.Errors{}
	checkNewPassword(e, "password", in.Password)
	checkReenter(e, "passwordReenter", in.PasswordReenter, in.Password)
	if !e.Empty() {
		return false, apperr.FromFields(e)
	}
	if err := s.ValidateReset(ctx, in.Token); err != nil {
		return false, err
	}
	hash, err := s.Hasher.Hash(in.Password)
	if err != nil {
		return false, err
	}
	memberID, err := s.Store.ConsumeReset(ctx, auth.HashToken(in.Token), s.Now(), hash)
	if errors.Is(err, ErrNotFound) {
		return false, apperr.New(apperr.NotFound, "account.reset_invalid")
	}
	if err != nil {
		return false, fmt.Errorf("reset password: %w", err)
	}
	if err := s.Sessions.EndAllSessions(ctx, memberID); err != nil {
		return false, fmt.Errorf("end sessions: %w", err)
	}
	m, err := s.Store.Member(ctx, memberID)
	if err != nil {
		return false, fmt.Errorf("load member: %w", err)
	}
	s.recordChange(ctx, memberID, "password_reset", "")
	ml := m.MailLanguage(lang)
	return s.notify(ctx, mail.KindPasswordChanged, ml, m.Email, mail.Data{Given: m.Firstname, Family: m.Lastname, URL: s.securityCentreURL(ml)}), nil
}
