package account

import (
	"context"
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

// E-mail change (docs/security.md): the new address takes effect only when
// the link mailed to it is followed within EmailChangeLinkLifetime; the old
// address is told at once, with an undo link valid EmailChangeUndoLifetime
// (it cancels a pending change or puts the old address back and ends every
// session).
const (
	EmailChangeLinkLifetime = 24 * time.Hour
	EmailChangeUndoLifetime = 7 * 24 * time.Hour
	// maxEmailChecksPerMember limits how often a member can learn whether an
	// address is registered (the "already registered" answer).
	maxEmailChecksPerMember = 10
	emailCheckWindow        = time.Hour
)

// Mail kinds of the e-mail change.
const (
	KindEmailChangeConfirm = "email_change_confirm"
	KindEmailChangeNotice  = "email_change_notice"
)

// EmailChange is a requested change of a member's address.
type EmailChange struct {
	ID          string
	MemberID    string
	OldEmail    string
	NewEmail    string
	ConfirmHash string
	UndoHash    string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	UndoUntil   time.Time
	Confirmed   bool
}

// EmailChangeStore keeps e-mail changes (internal/store.EmailChangeStore).
type EmailChangeStore interface {
	// CreateEmailChange stores c, replacing the member's pending one.
	CreateEmailChange(ctx context.Context, c EmailChange) error
	// PendingEmailChange returns the member's unconfirmed, unexpired change;
	// ErrNotFound when none.
	PendingEmailChange(ctx context.Context, memberID string, now time.Time) (EmailChange, error)
	// CancelEmailChange drops the member's pending change (no error when none).
	CancelEmailChange(ctx context.Context, memberID string, now time.Time) error
	// ConfirmEmailChange marks a usable change confirmed and sets the
	// member's address in one transaction. ErrNotFound for an unknown,
	// used, undone or expired token (or when the member's address changed
	// meanwhile), ErrEmailTaken when the address was registered meanwhile.
	ConfirmEmailChange(ctx context.Context, confirmHash string, now time.Time) (EmailChange, error)
	// UndoEmailChange marks a change undone and, when it was confirmed,
	// puts the old address back, in one transaction. ErrNotFound for an
	// unknown, used or expired undo token, ErrEmailTaken when the old
	// address now belongs to somebody else.
	UndoEmailChange(ctx context.Context, undoHash string, now time.Time) (EmailChange, error)
}

// PendingEmail is a change waiting for its confirmation, as the account
// page shows it.
type PendingEmail struct {
	Email     string    `json:"email"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// pwKey is the throttle of the current-password check, shared
// with the password change: both guess the same secret.
func pwKey(memberID string) string { return "pwchange:" + memberID }

// checkCurrentPassword verifies the member's password under the
// current-password throttle (reserved before the check). Errors: TooMany,
// Invalid on field.
func (s *Service) checkCurrentPassword(ctx context.Context, memberID, field, password string) error {
	win := ratelimit.Window{Counters: s.Counters, Length: auth.ThrottleWindow, Limit: maxWrongCurrentPassword, Now: s.Now}
	if ok, err := win.Reserve(ctx, pwKey(memberID)); err != nil {
		return fmt.Errorf("password throttle: %w", err)
	} else if !ok {
		return apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	hash, err := s.Store.PasswordHash(ctx, memberID)
	if err != nil {
		return fmt.Errorf("password hash: %w", err)
	}
	if !s.Hasher.Verify(password, hash) {
		return apperr.FromFields(validate.Errors{field: {Key: "account.password_wrong"}})
	}
	if err := s.Counters.Reset(ctx, pwKey(memberID)); err != nil {
		return fmt.Errorf("password throttle: %w", err)
	}
	return nil
}

// requestEmailChange starts a change of m's address to newEmail (checked
// by the caller) after the current password: the address must be free
// (a check that is throttled, since it tells whether an address is
// registered), then the confirmation goes to the new address and the
// notice with the undo link to the old one.
func (s *Service) requestEmailChange(ctx context.Context, m Member, newEmail, password string, lang i18n.Lang) (PendingEmail, bool, error) {
	if strings.TrimSpace(password) == "" {
		return PendingEmail{}, false, apperr.FromFields(validate.Errors{"currentPassword": {Key: "account.email_change_password"}})
	}
	if err := s.checkCurrentPassword(ctx, m.ID, "currentPassword", password); err != nil {
		return PendingEmail{}, false, err
	}
	check := ratelimit.Window{Counters: s.Counters, Length: emailCheckWindow, Limit: maxEmailChecksPerMember, Now: s.Now}
	if ok, err := check.Reserve(ctx, "email-check:"+m.ID); err != nil {
		return PendingEmail{}, false, fmt.Errorf("e-mail check throttle: %w", err)
	} else if !ok {
		return PendingEmail{}, false, apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	switch other, err := s.Store.MemberByEmail(ctx, newEmail); {
	case err == nil && other.ID != m.ID:
		return PendingEmail{}, false, apperr.FromFields(validate.Errors{"email": {Key: "account.email_taken"}})
	case err != nil && !errors.Is(err, ErrNotFound):
		return PendingEmail{}, false, fmt.Errorf("e-mail lookup: %w", err)
	}
	confirm, err := auth.RandomToken()
	if err != nil {
		return PendingEmail{}, false, err
	}
	undo, err := auth.RandomToken()
	if err != nil {
		return PendingEmail{}, false, err
	}
	now := s.Now()
	c := EmailChange{
		ID: newID(), MemberID: m.ID, OldEmail: m.Email, NewEmail: newEmail,
		ConfirmHash: auth.HashToken(confirm), UndoHash: auth.HashToken(undo), CreatedAt: now,
		ExpiresAt: now.Add(EmailChangeLinkLifetime), UndoUntil: now.Add(EmailChangeUndoLifetime),
	}
	if err := s.EmailChanges.CreateEmailChange(ctx, c); err != nil {
		return PendingEmail{}, false, fmt.Errorf("store e-mail change: %w", err)
	}
	lang = m.MailLanguage(lang)
	link := func(kind, token string) string {
		return s.PublicURL + "/email-change/" + kind + "/" + url.PathEscape(token) + "?lang=" + string(lang)
	}
	hours := []any{"hours", int(EmailChangeLinkLifetime.Hours()), "days", int(EmailChangeUndoLifetime.Hours() / 24)}
	sent := s.notify(ctx, KindEmailChangeConfirm, lang, newEmail, mail.Data{
		Given: m.Firstname, Family: m.Lastname, Args: append([]any{"email", newEmail}, hours...), URL: link("confirm", confirm),
		Secrets: []string{url.PathEscape(confirm)},
	})
	sent = s.notify(ctx, KindEmailChangeNotice, lang, m.Email, mail.Data{
		Given: m.Firstname, Family: m.Lastname, Args: append([]any{"email", newEmail}, hours...), URL: link("undo", undo),
		Secrets: []string{url.PathEscape(undo)},
	}) && sent
	return PendingEmail{Email: newEmail, ExpiresAt: c.ExpiresAt}, sent, nil
}

// PendingEmailChange returns the member's change waiting for confirmation
// (nil when none).
func (s *Service) PendingEmailChange(ctx context.Context, memberID string) (*PendingEmail, error) {
	c, err := s.EmailChanges.PendingEmailChange(ctx, memberID, s.Now())
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pending e-mail change: %w", err)
	}
	return &PendingEmail{Email: c.NewEmail, ExpiresAt: c.ExpiresAt}, nil
}

// CancelEmailChange drops the member's pending change.
func (s *Service) CancelEmailChange(ctx context.Context, memberID string) error {
	if err := s.EmailChanges.CancelEmailChange(ctx, memberID, s.Now()); err != nil {
		return fmt.Errorf("cancel e-mail change: %w", err)
	}
	return nil
}

// validLinkToken rejects tokens no link of ours can hold before any lookup.
func validLinkToken(token string) bool {
	return token != "" && len(token) <= 200
}

// followLink checks the token of an e-mail change link, runs the store's
// step (confirm or undo) with its hash and words the store's errors:
// NotFound (unknown, used, cancelled or expired link), Conflict (the
// address was registered meanwhile).
func (s *Service) followLink(ctx context.Context, token, what string, step func(context.Context, string, time.Time) (EmailChange, error)) (EmailChange, error) {
	if !validLinkToken(token) {
		return EmailChange{}, apperr.New(apperr.NotFound, "account.email_change_invalid")
	}
	c, err := step(ctx, auth.HashToken(token), s.Now())
	switch {
	case errors.Is(err, ErrNotFound):
		return EmailChange{}, apperr.New(apperr.NotFound, "account.email_change_invalid")
	case errors.Is(err, ErrEmailTaken):
		return EmailChange{}, apperr.New(apperr.Conflict, "account.email_taken")
	case err != nil:
		return EmailChange{}, fmt.Errorf("%s e-mail change: %w", what, err)
	}
	return c, nil
}

// ConfirmEmailChange applies the change of a confirmation link and returns
// the new address. Errors: NotFound, Conflict (followLink).
func (s *Service) ConfirmEmailChange(ctx context.Context, token string) (string, error) {
	c, err := s.followLink(ctx, token, "confirm", s.EmailChanges.ConfirmEmailChange)
	if err != nil {
		return "", err
	}
	s.recordChange(ctx, c.MemberID, "email_changed", "security_email_changed")
	return c.NewEmail, nil
}

// UndoEmailChange follows the undo link sent to the old address: a pending
// change is cancelled; a confirmed one is reverted and every session of the
// member ends (whoever changed it is logged out). Returns the address in
// force afterwards. Errors: NotFound, Conflict (followLink).
func (s *Service) UndoEmailChange(ctx context.Context, token string) (string, error) {
	c, err := s.followLink(ctx, token, "undo", s.EmailChanges.UndoEmailChange)
	if err != nil {
		return "", err
	}
	if err := s.Sessions.EndAllSessions(ctx, c.MemberID); err != nil {
		return "", fmt.Errorf("end sessions: %w", err)
	}
	s.recordChange(ctx, c.MemberID, "email_restored", "security_email_changed")
	return c.OldEmail, nil
}
