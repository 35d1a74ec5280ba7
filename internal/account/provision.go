package account

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/validate"
)

// Provisioning: the booking site creates, updates, deactivates and erases
// its members here, keyed by its own member number (so a retry never
// makes two members). The fields follow the account page's rules.

// SetPasswordLinkLifetime is how long the link mailed to a provisioned
// member without a password works (single use, as a reset link).
const SetPasswordLinkLifetime = 7 * 24 * time.Hour

// KindPasswordSet is the mail with the set-password link.
const KindPasswordSet = "password_set"

// SetPasswordLinkQuery ends the set-password link's query: the reset
// page's link, which says "set your password" (not "a new one") with it.
const SetPasswordLinkQuery = "&kind=set"

// Outcomes of a provisioning call.
const (
	OutcomeCreated   = "created"
	OutcomeUpdated   = "updated"
	OutcomeUnchanged = "unchanged"
)

// ErrProvisionRace is the store's answer to a creation that met a
// parallel one of the same number (Provision retries as an update).
var ErrProvisionRace = errors.New("account: member number provisioned meanwhile")

// MaxMemberNumberLength bounds a member number.
const MaxMemberNumberLength = 40

var memberNumberRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,40}$`)

// ValidMemberNumber reports whether number can be a member number.
func ValidMemberNumber(number string) bool { return memberNumberRE.MatchString(number) }

// ProvisionInput is the member as the booking site holds it (the body of
// PUT /ops/v1/members/{memberNumber}; an import line adds memberNumber).
type ProvisionInput struct {
	Email                    string `json:"email"`
	Firstname                string `json:"firstname"`
	Lastname                 string `json:"lastname"`
	Gender                   string `json:"gender"`
	Birth                    string `json:"birth"`
	Tel                      string `json:"tel"`
	AddressCountryCode       string `json:"addressCountryCode"`
	AddressPostalCode        string `json:"addressPostalCode"`
	AddressStateAndCity      string `json:"addressStateAndCity"`
	Address1                 string `json:"address1"`
	PassportNo               string `json:"passportNo"`
	PassportNationalityCode  string `json:"passportNationalityCode"`
	PassportIssueCountryCode string `json:"passportIssueCountryCode"`
	PassportExpirationDate   string `json:"passportExpirationDate"`
	Optin1                   *bool  `json:"optin1,omitempty"`
	Lang                     string `json:"lang"`
	// PasswordHash is the old system's hash (auth.CheckImportedHash);
	// taken only when the member is created.
	PasswordHash string `json:"passwordHash,omitempty"`
}

// ProvisionedMember is a provisioned member as stored.
type ProvisionedMember struct {
	Member       Member
	PasswordHash string
	Deactivated  bool
}

// ProvisionStore is the storage of provisioning (store.ProvisionStore).
type ProvisionStore interface {
	// Provisioned returns ErrNotFound when no live member has number.
	Provisioned(ctx context.Context, number string) (ProvisionedMember, error)
	// SaveProvisioned creates (create) or updates the member of number
	// in one transaction; ErrEmailTaken, ErrProvisionRace.
	SaveProvisioned(ctx context.Context, number string, m Member, passwordHash string, create bool, now time.Time) error
	// SetDeactivated returns the member's id; ErrNotFound.
	SetDeactivated(ctx context.Context, number string, deactivated bool, now time.Time) (string, error)
	// LiveReset reports whether the member has a usable password link.
	LiveReset(ctx context.Context, memberID string, now time.Time) (bool, error)
}

// Provisioner applies the booking site's calls.
type Provisioner struct {
	svc   *Service
	store ProvisionStore
}

// NewProvisioner returns the provisioner over the account service (its
// rules, reset links and mails).
func NewProvisioner(svc *Service, store ProvisionStore) *Provisioner {
	return &Provisioner{svc: svc, store: store}
}

// Validate applies the account page's rules, the language and the hash
// format to a provisioned member; the member it would store.
func (p *Provisioner) Validate(number string, in ProvisionInput) (Member, validate.Errors) {
	in.Email = strings.TrimSpace(in.Email)
	in.Firstname, in.Lastname = strings.TrimSpace(in.Firstname), strings.TrimSpace(in.Lastname)
	in.Tel = CleanTel(in.Tel)
	e := p.svc.ValidateProfile(ProfileInput{
		Firstname: in.Firstname, Lastname: in.Lastname, Gender: in.Gender, Birth: in.Birth, Email: in.Email, Tel: in.Tel,
		AddressCountryCode: in.AddressCountryCode, AddressPostalCode: in.AddressPostalCode,
		AddressStateAndCity: in.AddressStateAndCity, Address1: in.Address1, PassportNo: in.PassportNo,
		PassportNationalityCode: in.PassportNationalityCode, PassportIssueCountryCode: in.PassportIssueCountryCode,
		PassportExpirationDate: in.PassportExpirationDate,
	})
	e.Check("memberNumber", ValidMemberNumber(number), "account.member_number")
	lang, ok := i18n.Parse(in.Lang)
	e.Check("lang", ok && string(lang) == in.Lang, "account.lang_unknown")
	if in.PasswordHash != "" {
		e.Check("passwordHash", auth.CheckImportedHash(in.PasswordHash) == nil, "account.password_hash_format")
	}
	optin := true
	if in.Optin1 != nil {
		optin = *in.Optin1
	}
	return Member{
		Email: in.Email, Firstname: in.Firstname, Lastname: in.Lastname, Gender: in.Gender, Birth: in.Birth, Tel: in.Tel,
		AddressCountryCode: in.AddressCountryCode, AddressPostalCode: in.AddressPostalCode,
		AddressStateAndCity: in.AddressStateAndCity, Address1: in.Address1, PassportNo: in.PassportNo,
		PassportNationalityCode: in.PassportNationalityCode, PassportIssueCountryCode: in.PassportIssueCountryCode,
		PassportExpirationDate: in.PassportExpirationDate, Optin1: optin, Lang: in.Lang,
	}, e
}

// sameFields reports whether the booking site's fields are unchanged.
func sameFields(a, b Member) bool {
	return a.Email == b.Email && a.Firstname == b.Firstname && a.Lastname == b.Lastname && a.Gender == b.Gender &&
		a.Birth == b.Birth && a.Tel == b.Tel && a.AddressCountryCode == b.AddressCountryCode &&
		a.AddressPostalCode == b.AddressPostalCode && a.AddressStateAndCity == b.AddressStateAndCity &&
		a.Address1 == b.Address1 && a.PassportNo == b.PassportNo && a.PassportNationalityCode == b.PassportNationalityCode &&
		a.PassportIssueCountryCode == b.PassportIssueCountryCode && a.PassportExpirationDate == b.PassportExpirationDate &&
		a.Optin1 == b.Optin1 && a.Lang == b.Lang
}

// Provision creates or updates the member of number. Errors: Invalid
// (field rules), ErrEmailTaken. A member created without a password hash
// is mailed a set-password link (and again by a later call while the
// member still has no password and no usable link, so a mail lost to a
// crash is sent by the retry).
func (p *Provisioner) Provision(ctx context.Context, number string, in ProvisionInput) (string, error) {
	m, e := p.Validate(number, in)
	if !e.Empty() {
		return "", apperr.FromFields(e)
	}
	return p.save(ctx, number, m, in.PasswordHash, true)
}

func (p *Provisioner) save(ctx context.Context, number string, m Member, hash string, retry bool) (string, error) {
	now := p.svc.Now()
	cur, err := p.store.Provisioned(ctx, number)
	outcome := OutcomeCreated
	switch {
	case errors.Is(err, ErrNotFound):
		m.ID = newID()
		err = p.store.SaveProvisioned(ctx, number, m, hash, true, now)
		if errors.Is(err, ErrProvisionRace) && retry {
			return p.save(ctx, number, m, hash, false)
		}
		if err != nil {
			return "", err
		}
		cur = ProvisionedMember{Member: m, PasswordHash: hash}
	case err != nil:
		return "", fmt.Errorf("provision: %w", err)
	case sameFields(cur.Member, m):
		outcome = OutcomeUnchanged
	default:
		m.ID = cur.Member.ID
		if err := p.store.SaveProvisioned(ctx, number, m, "", false, now); err != nil {
			return "", err
		}
		outcome = OutcomeUpdated
		cur.Member = m
	}
	if cur.PasswordHash == "" {
		if err := p.mailSetPassword(ctx, cur.Member, now); err != nil {
			return "", err
		}
	}
	return outcome, nil
}

// mailSetPassword mails a single-use set-password link (the reset
// machinery, valid SetPasswordLinkLifetime) unless one is still usable.
func (p *Provisioner) mailSetPassword(ctx context.Context, m Member, now time.Time) error {
	live, err := p.store.LiveReset(ctx, m.ID, now)
	if err != nil || live {
		return err
	}
	return p.sendSetPassword(ctx, m, now)
}

// sendSetPassword makes the member's set-password link and queues its mail.
func (p *Provisioner) sendSetPassword(ctx context.Context, m Member, now time.Time) error {
	token, err := auth.RandomToken()
	if err != nil {
		return err
	}
	if err := p.svc.Store.CreateReset(ctx, m.ID, auth.HashToken(token), now, now.Add(SetPasswordLinkLifetime)); err != nil {
		return fmt.Errorf("set-password link: %w", err)
	}
	lang, ok := i18n.Parse(m.Lang)
	if !ok {
		lang = i18n.Default
	}
	link := p.svc.PublicURL + "/reset-password/" + url.PathEscape(token) + "?lang=" + string(lang) + SetPasswordLinkQuery
	p.svc.notify(ctx, KindPasswordSet, lang, m.Email, mail.Data{
		Given: m.Firstname, Family: m.Lastname, Args: []any{"days", int(SetPasswordLinkLifetime.Hours() / 24)}, URL: link,
		Secrets: []string{url.PathEscape(token)},
	})
	return nil
}

// Deactivate stops the member of number signing in and ends their
// sessions; Reactivate lets them in again. ErrNotFound for an unknown number.
func (p *Provisioner) Deactivate(ctx context.Context, number string) error {
	_, err := p.store.SetDeactivated(ctx, number, true, p.svc.Now())
	return err
}

// Reactivate undoes Deactivate.
func (p *Provisioner) Reactivate(ctx context.Context, number string) error {
	_, err := p.store.SetDeactivated(ctx, number, false, p.svc.Now())
	return err
}

// Member returns the live member of number (ErrNotFound).
func (p *Provisioner) Member(ctx context.Context, number string) (Member, error) {
	cur, err := p.store.Provisioned(ctx, number)
	return cur.Member, err
}
