package passkey

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/ratelimit"
	"members/internal/security"
	"members/internal/validate"
)

// Client is who makes a change (recorded with the security event).
type Client struct {
	Addr      string
	UserAgent string
}

// BeginRegistration starts adding a passkey: a discoverable credential
// with user verification, none of the member's existing ones again.
func (s *Service) BeginRegistration(ctx context.Context, memberID string) (Options, error) {
	if !s.Enabled() {
		return Options{}, errUnavailable
	}
	if err := s.throttle(ctx, "passkey:options:"+memberID); err != nil {
		return Options{}, err
	}
	list, err := s.d.Store.List(ctx, memberID)
	if err != nil {
		return Options{}, fmt.Errorf("list passkeys: %w", err)
	}
	if len(list) >= MaxPasskeys {
		return Options{}, apperr.New(apperr.Conflict, "passkey.too_many")
	}
	u, err := s.user(ctx, memberID, list)
	if err != nil {
		return Options{}, err
	}
	exclude := make([]protocol.CredentialDescriptor, 0, len(u.creds))
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	creation, sd, err := s.wa.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationRequired,
		}),
		webauthn.WithExclusions(exclude),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation),
	)
	if err != nil {
		return Options{}, fmt.Errorf("begin registration: %w", err)
	}
	return s.save(ctx, memberID, PurposeRegister, sd, creation.Response)
}

// RegisterInput is the browser's answer to BeginRegistration.
type RegisterInput struct {
	ChallengeID string
	Name        string
	// Credential is the RegistrationResponseJSON.
	Credential []byte
}

// FinishRegistration checks the answer and stores the passkey (named, or
// after the browser and system of client when no name is given), then
// records the event and mails the member.
func (s *Service) FinishRegistration(ctx context.Context, memberID string, in RegisterInput, client Client) (View, error) {
	if !s.Enabled() {
		return View{}, errUnavailable
	}
	name := strings.TrimSpace(in.Name)
	fields := validate.Errors{}
	fields.MaxLen("name", name, MaxNameLen)
	if !fields.Empty() {
		return View{}, apperr.FromFields(fields)
	}
	c, ok, err := s.take(ctx, in.ChallengeID, PurposeRegister, memberID)
	if err != nil {
		return View{}, err
	}
	if !ok {
		return View{}, errCeremony
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(in.Credential)
	if err != nil {
		return View{}, errCeremony
	}
	list, err := s.d.Store.List(ctx, memberID)
	if err != nil {
		return View{}, fmt.Errorf("list passkeys: %w", err)
	}
	if len(list) >= MaxPasskeys {
		return View{}, apperr.New(apperr.Conflict, "passkey.too_many")
	}
	u, err := s.user(ctx, memberID, list)
	if err != nil {
		return View{}, err
	}
	cred, err := s.wa.CreateCredential(u, c.Session, parsed)
	if err != nil {
		s.d.Logger.Info("passkey registration refused", "err", err)
		return View{}, errCeremony
	}
	if name == "" {
		d := security.ParseDevice(client.UserAgent)
		name = strings.Trim(d.Browser+" · "+d.OS, " ·")
		if name == "" {
			name = "Passkey"
		}
	}
	p := Passkey{ID: s.d.Config.ChallengeID(), MemberID: memberID, Name: truncateRunes(name, MaxNameLen), Credential: *cred, CreatedAt: s.d.Now()}
	if err := s.d.Store.Add(ctx, p); errors.Is(err, ErrDuplicate) {
		return View{}, apperr.New(apperr.Conflict, "passkey.duplicate")
	} else if err != nil {
		return View{}, fmt.Errorf("add passkey: %w", err)
	}
	s.d.Notifier.Record(ctx, memberID, security.Event{Kind: security.KindPasskeyAdded, At: p.CreatedAt, ClientAddr: client.Addr, UserAgent: client.UserAgent},
		MailAdded, "passkey", p.Name)
	return view(p), nil
}

// Rename names one of the member's passkeys (another member's or an
// unknown id is 404 before the name is looked at).
func (s *Service) Rename(ctx context.Context, memberID, id, name string) (View, error) {
	p, _, err := s.find(ctx, memberID, id)
	if err != nil {
		return View{}, err
	}
	name = strings.TrimSpace(name)
	fields := validate.Errors{}
	if fields.Required("name", name) {
		fields.MaxLen("name", name, MaxNameLen)
	}
	if !fields.Empty() {
		return View{}, apperr.FromFields(fields)
	}
	if err := s.d.Store.Rename(ctx, memberID, id, name); errors.Is(err, ErrNotFound) {
		return View{}, apperr.ErrNotFound
	} else if err != nil {
		return View{}, fmt.Errorf("rename passkey: %w", err)
	}
	p.Name = name
	return view(p), nil
}

// BeginReauth starts a fresh assertion with one of the member's passkeys,
// the re-authentication a removal may use instead of the password.
func (s *Service) BeginReauth(ctx context.Context, memberID string) (Options, error) {
	if !s.Enabled() {
		return Options{}, errUnavailable
	}
	if err := s.throttle(ctx, "passkey:options:"+memberID); err != nil {
		return Options{}, err
	}
	list, err := s.d.Store.List(ctx, memberID)
	if err != nil {
		return Options{}, fmt.Errorf("list passkeys: %w", err)
	}
	if len(list) == 0 {
		return Options{}, apperr.New(apperr.Conflict, "passkey.none")
	}
	u, err := s.user(ctx, memberID, list)
	if err != nil {
		return Options{}, err
	}
	assertion, sd, err := s.wa.BeginLogin(u, webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return Options{}, fmt.Errorf("begin re-authentication: %w", err)
	}
	return s.save(ctx, memberID, PurposeReauth, sd, assertion.Response)
}

// Assertion is the browser's answer to a sign-in or re-authentication.
type Assertion struct {
	ChallengeID string
	// Credential is the AuthenticationResponseJSON.
	Credential []byte
}

// RemoveInput is the re-authentication of a removal: the current
// password, or a fresh assertion begun with BeginReauth.
type RemoveInput struct {
	CurrentPassword string
	Assertion       *Assertion
}

// Remove deletes one of the member's passkeys after re-authentication,
// then records the event and mails the member. Another member's or an
// unknown id is 404 before anything else is looked at.
func (s *Service) Remove(ctx context.Context, memberID, id string, in RemoveInput, client Client) error {
	p, list, err := s.find(ctx, memberID, id)
	if err != nil {
		return err
	}
	switch {
	case in.Assertion != nil && len(in.Assertion.Credential) > 0:
		if err := s.reauth(ctx, memberID, list, *in.Assertion); err != nil {
			return err
		}
	case strings.TrimSpace(in.CurrentPassword) != "":
		if err := s.checkPassword(ctx, memberID, in.CurrentPassword); err != nil {
			return err
		}
	default:
		return apperr.FromFields(validate.Errors{"currentPassword": {Key: "passkey.reauth_required"}})
	}
	if err := s.d.Store.Delete(ctx, memberID, id); errors.Is(err, ErrNotFound) {
		return apperr.ErrNotFound
	} else if err != nil {
		return fmt.Errorf("remove passkey: %w", err)
	}
	s.d.Notifier.Record(ctx, memberID, security.Event{Kind: security.KindPasskeyRemoved, At: s.d.Now(), ClientAddr: client.Addr, UserAgent: client.UserAgent},
		MailRemoved, "passkey", p.Name)
	return nil
}

func (s *Service) checkPassword(ctx context.Context, memberID, password string) error {
	if len(password) > 1000 {
		return apperr.FromFields(validate.Errors{"currentPassword": {Key: "passkey.password_wrong"}})
	}
	win := ratelimit.Window{Counters: s.d.Counters, Length: auth.ThrottleWindow, Limit: MaxWrongPassword, Now: s.d.Now}
	key := "pwchange:" + memberID // shared with the password change and e-mail change
	if ok, err := win.Reserve(ctx, key); err != nil {
		return fmt.Errorf("password throttle: %w", err)
	} else if !ok {
		return apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	hash, err := s.d.Store.PasswordHash(ctx, memberID)
	if err != nil {
		return fmt.Errorf("password hash: %w", err)
	}
	if !s.d.Passwords.Verify(password, hash) {
		return apperr.FromFields(validate.Errors{"currentPassword": {Key: "passkey.password_wrong"}})
	}
	if err := s.d.Counters.Reset(ctx, key); err != nil {
		return fmt.Errorf("password throttle: %w", err)
	}
	return nil
}

func (s *Service) reauth(ctx context.Context, memberID string, list []Passkey, a Assertion) error {
	if !s.Enabled() {
		return errUnavailable
	}
	fail := apperr.FromFields(validate.Errors{"assertion": {Key: "passkey.reauth_failed"}})
	c, ok, err := s.take(ctx, a.ChallengeID, PurposeReauth, memberID)
	if err != nil {
		return err
	}
	if !ok {
		return fail
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(a.Credential)
	if err != nil {
		return fail
	}
	u, err := s.user(ctx, memberID, list)
	if err != nil {
		return err
	}
	cred, err := s.wa.ValidateLogin(u, c.Session, parsed)
	if err != nil || cred.Authenticator.CloneWarning {
		s.d.Logger.Info("passkey re-authentication refused", "err", err)
		return fail
	}
	return s.used(ctx, list, cred)
}

// used stores the credential's new sign count and the time of use.
func (s *Service) used(ctx context.Context, list []Passkey, cred *webauthn.Credential) error {
	for _, p := range list {
		if string(p.Credential.ID) == string(cred.ID) {
			if err := s.d.Store.Used(ctx, p.ID, *cred, s.d.Now()); err != nil {
				return fmt.Errorf("passkey used: %w", err)
			}
			return nil
		}
	}
	return nil
}

// BeginLogin starts a sign-in with any passkey of this site (discoverable
// credentials: no address typed). Throttled per client address.
func (s *Service) BeginLogin(ctx context.Context, clientAddr string) (Options, error) {
	if !s.Enabled() {
		return Options{}, errUnavailable
	}
	if err := s.throttle(ctx, "passkey:login-options:"+clientAddr); err != nil {
		return Options{}, err
	}
	assertion, sd, err := s.wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return Options{}, fmt.Errorf("begin passkey sign-in: %w", err)
	}
	return s.save(ctx, "", PurposeLogin, sd, assertion.Response)
}

// LoginInput is the browser's answer to BeginLogin and who sent it.
type LoginInput struct {
	Assertion
	ClientAddr string
	UserAgent  string
}

// Login checks a sign-in assertion and opens a session exactly as a
// password login does (auth.Attempt: same throttles, session, observer).
// It returns the cookie token. Errors: TooMany, Unauthenticated (anything
// wrong with the challenge or the assertion, indistinguishably).
func (s *Service) Login(ctx context.Context, in LoginInput) (string, auth.Session, error) {
	if !s.Enabled() {
		return "", auth.Session{}, errUnavailable
	}
	attempt, err := s.d.Auth.BeginAttempt(ctx, in.ClientAddr, in.UserAgent)
	if err != nil {
		return "", auth.Session{}, err
	}
	failed := apperr.New(apperr.Unauthenticated, "passkey.login_failed")
	c, ok, err := s.take(ctx, in.ChallengeID, PurposeLogin, "")
	if err != nil {
		return "", auth.Session{}, err
	}
	if !ok {
		attempt.Fail(ctx)
		return "", auth.Session{}, failed
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(in.Credential)
	if err != nil {
		attempt.Fail(ctx)
		return "", auth.Session{}, failed
	}
	var (
		list []Passkey
		stop error // a throttle or store error met while finding the member
	)
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		p, err := s.d.Store.ByCredentialID(ctx, rawID)
		if err != nil {
			if !errors.Is(err, ErrNotFound) {
				stop = fmt.Errorf("passkey by credential: %w", err)
			}
			return nil, errors.New("unknown credential")
		}
		if string(userHandle) != p.MemberID {
			return nil, errors.New("user handle mismatch")
		}
		if err := attempt.Member(ctx, p.MemberID); err != nil {
			if apperr.CodeOf(err) != apperr.Unauthenticated {
				stop = err
			}
			return nil, err
		}
		if list, err = s.d.Store.List(ctx, p.MemberID); err != nil {
			stop = fmt.Errorf("list passkeys: %w", err)
			return nil, err
		}
		u, err := s.user(ctx, p.MemberID, list)
		if err != nil {
			stop = err
			return nil, err
		}
		return u, nil
	}
	_, cred, err := s.wa.ValidatePasskeyLogin(handler, c.Session, parsed)
	if stop != nil {
		if apperr.CodeOf(stop) != apperr.TooMany {
			attempt.Fail(ctx)
		}
		return "", auth.Session{}, stop
	}
	if err != nil || cred.Authenticator.CloneWarning {
		s.d.Logger.Info("passkey sign-in refused", "err", err)
		attempt.Fail(ctx)
		return "", auth.Session{}, failed
	}
	if err := s.used(ctx, list, cred); err != nil {
		return "", auth.Session{}, err
	}
	token, sess, err := attempt.Succeed(ctx)
	if apperr.CodeOf(err) == apperr.Unauthenticated {
		// The member was erased after the assertion was checked: the
		// answer of an unknown passkey.
		return "", auth.Session{}, failed
	}
	if err != nil {
		return "", auth.Session{}, err
	}
	return token, sess, nil
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
