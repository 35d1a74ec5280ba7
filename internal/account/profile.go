package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/validate"
)

// Profile is the member profile as the API returns it, with
// country names in the request's language and the derived flags.
type Profile struct {
	ProfileID                     string   `json:"profileId"`
	Optin1                        bool     `json:"optin1"`
	AutoLoginIsActive             bool     `json:"autoLoginIsActive"`
	AutoLoginNoticeMail           bool     `json:"autoLoginNoticeMail"`
	Memberships                   []string `json:"memberships"`
	IsEmployee                    bool     `json:"isEmployee"`
	HasInvalidCharactersInEmail   bool     `json:"hasInvalidCharactersInEmail"`
	HasInvalidBirthDate           bool     `json:"hasInvalidBirthDate"`
	HasInvalidPassportCountryCode bool     `json:"hasInvalidPassportCountryCode"`
	OnlineShopAccountStatus       string   `json:"onlineShopAccountStatus"`
	Firstname                     string   `json:"firstname"`
	Lastname                      string   `json:"lastname"`
	Gender                        string   `json:"gender"`
	Birth                         string   `json:"birth"`
	Email                         string   `json:"email"`
	Tel                           string   `json:"tel"`
	AddressCountryCode            string   `json:"addressCountryCode"`
	AddressCountry                string   `json:"addressCountry"`
	AddressPostalCode             string   `json:"addressPostalCode"`
	AddressStateAndCity           string   `json:"addressStateAndCity"`
	Address1                      string   `json:"address1"`
	// AddressStreet is the spec's other name of address1 (its model writes
	// "addressStreet/address1"): the same stored line, under both names.
	AddressStreet            string `json:"addressStreet"`
	PassportNo               string `json:"passportNo"`
	PassportNationalityCode  string `json:"passportNationalityCode"`
	PassportNationality      string `json:"passportNationality"`
	PassportIssueCountryCode string `json:"passportIssueCountryCode"`
	PassportIssueCountry     string `json:"passportIssueCountry"`
	PassportExpirationDate   string `json:"passportExpirationDate"`
}

// ProfileInput is what the member can change. Optin1 and
// AutoLoginNoticeMail keep their value when absent.
type ProfileInput struct {
	Firstname           string `json:"firstname"`
	Lastname            string `json:"lastname"`
	Gender              string `json:"gender"`
	Birth               string `json:"birth"`
	Email               string `json:"email"`
	Tel                 string `json:"tel"`
	AddressCountryCode  string `json:"addressCountryCode"`
	AddressPostalCode   string `json:"addressPostalCode"`
	AddressStateAndCity string `json:"addressStateAndCity"`
	Address1            string `json:"address1"`
	// AddressStreet is address1 under the spec's other name; either may
	// be sent (see streetOf).
	AddressStreet            *string `json:"addressStreet,omitempty"`
	PassportNo               string  `json:"passportNo"`
	PassportNationalityCode  string  `json:"passportNationalityCode"`
	PassportIssueCountryCode string  `json:"passportIssueCountryCode"`
	PassportExpirationDate   string  `json:"passportExpirationDate"`
	Optin1                   *bool   `json:"optin1,omitempty"`
	AutoLoginNoticeMail      *bool   `json:"autoLoginNoticeMail,omitempty"`
	// CurrentPassword is needed only when Email differs from the current
	// address (the change then waits for its confirmation link).
	CurrentPassword string `json:"currentPassword,omitempty"`
}

// hasNonASCII reports characters a mail address should not have here
// (full-width letters and the like, which legacy systems refuse).
func hasNonASCII(s string) bool {
	for _, r := range s {
		if r > 0x7e || r < 0x21 {
			return true
		}
	}
	return false
}

// profile derives the API view of a member.
func (s *Service) profile(m Member, lang i18n.Lang) Profile {
	now := s.Now()
	birthBad := validate.Errors{}
	checkBirth(birthBad, "birth", m.Birth, now, MemberMinAge)
	badCode := func(c string) bool { return c != "" && !s.Countries.Valid(c) }
	return Profile{
		ProfileID: m.ID, Optin1: m.Optin1, AutoLoginIsActive: m.AutoLoginIsActive,
		AutoLoginNoticeMail: m.AutoLoginNoticeMail, Memberships: []string{}, IsEmployee: m.IsEmployee,
		HasInvalidCharactersInEmail:   hasNonASCII(m.Email) || !validate.IsEmail(m.Email),
		HasInvalidBirthDate:           !birthBad.Empty(),
		HasInvalidPassportCountryCode: badCode(m.PassportNationalityCode) || badCode(m.PassportIssueCountryCode),
		OnlineShopAccountStatus:       m.OnlineShopAccountStatus,
		Firstname:                     m.Firstname, Lastname: m.Lastname, Gender: m.Gender, Birth: m.Birth,
		Email: m.Email, Tel: m.Tel,
		AddressCountryCode: m.AddressCountryCode, AddressCountry: s.Countries.Name(lang, m.AddressCountryCode),
		AddressPostalCode: m.AddressPostalCode, AddressStateAndCity: m.AddressStateAndCity, Address1: m.Address1, AddressStreet: m.Address1,
		PassportNo: m.PassportNo, PassportNationalityCode: m.PassportNationalityCode,
		PassportNationality:      s.Countries.Name(lang, m.PassportNationalityCode),
		PassportIssueCountryCode: m.PassportIssueCountryCode,
		PassportIssueCountry:     s.Countries.Name(lang, m.PassportIssueCountryCode),
		PassportExpirationDate:   m.PassportExpirationDate,
	}
}

func (s *Service) member(ctx context.Context, memberID string) (Member, error) {
	m, err := s.Store.Member(ctx, memberID)
	if errors.Is(err, ErrNotFound) {
		// The session outlived its member: treat as logged out.
		return m, apperr.New(apperr.Forbidden, "error.session")
	}
	if err != nil {
		return m, fmt.Errorf("load member: %w", err)
	}
	return m, nil
}

// Profile returns the member's profile in lang.
func (s *Service) Profile(ctx context.Context, memberID string, lang i18n.Lang) (Profile, error) {
	m, err := s.member(ctx, memberID)
	if err != nil {
		return Profile{}, err
	}
	return s.profile(m, lang), nil
}

// ValidateProfile applies every rule to a profile input.
func (s *Service) ValidateProfile(in ProfileInput) validate.Errors {
	e := validate.Errors{}
	checkName(e, "lastname", in.Lastname)
	checkName(e, "firstname", in.Firstname)
	checkGender(e, "gender", in.Gender)
	checkBirth(e, "birth", in.Birth, s.Now(), MemberMinAge)
	checkTel(e, "tel", in.Tel, true)
	checkEmail(e, "email", in.Email, true)
	checkCountry(e, "addressCountryCode", in.AddressCountryCode, true, s.Countries.Valid)
	if e.Required("addressPostalCode", in.AddressPostalCode) {
		e.MaxLen("addressPostalCode", in.AddressPostalCode, PostalCodeMax)
		e.Check("addressPostalCode", !validate.HasFourByteChars(in.AddressPostalCode), "account.four_byte")
	}
	if e.Required("addressStateAndCity", in.AddressStateAndCity) {
		checkNoFourByte(e, "addressStateAndCity", in.AddressStateAndCity, AddressMax)
	}
	checkNoFourByte(e, "address1", in.Address1, AddressMax)
	if in.AddressStreet != nil {
		checkNoFourByte(e, "addressStreet", *in.AddressStreet, AddressMax)
	}
	checkPassport(e, "passportNo", in.PassportNo)
	checkCountry(e, "passportNationalityCode", in.PassportNationalityCode, false, s.Countries.Valid)
	checkCountry(e, "passportIssueCountryCode", in.PassportIssueCountryCode, false, s.Countries.Valid)
	checkOptionalDate(e, "passportExpirationDate", in.PassportExpirationDate)
	return e
}

// streetOf settles the street line of a save that may carry it under both
// names: address1 alone (addressStreet absent), both the same, or the one
// the member changed from the stored line (the other still holds it, as in
// a GET document edited under one name). Both changed to different lines
// is refused (false).
func streetOf(in ProfileInput, stored string) (string, bool) {
	if in.AddressStreet == nil || *in.AddressStreet == in.Address1 {
		return in.Address1, true
	}
	switch {
	case in.Address1 == stored:
		return *in.AddressStreet, true
	case *in.AddressStreet == stored:
		return in.Address1, true
	}
	return "", false
}

// ProfileSaved is the answer of a profile save: the profile as stored,
// whether the notification went out, and the e-mail change the save
// started (nil when the address stayed).
type ProfileSaved struct {
	Profile     Profile
	MailSent    bool
	EmailChange *PendingEmail
}

// UpdateProfile saves the profile and mails the member. A different e-mail
// address is not saved here: with the current password it starts an
// e-mail change (confirmation link to the new address, notice with an undo
// link to the old one); the rest of the profile is saved at once.
// MailSent is false when a mail may not have been sent.
func (s *Service) UpdateProfile(ctx context.Context, memberID string, in ProfileInput, lang i18n.Lang) (ProfileSaved, error) {
	in.Email = strings.TrimSpace(in.Email)
	in.Firstname, in.Lastname = strings.TrimSpace(in.Firstname), strings.TrimSpace(in.Lastname)
	in.Tel = CleanTel(in.Tel)
	m, err := s.member(ctx, memberID)
	if err != nil {
		return ProfileSaved{}, err
	}
	e := s.ValidateProfile(in)
	e.MaxLen("currentPassword", in.CurrentPassword, PasswordHardMax)
	street, ok := streetOf(in, m.Address1)
	if !ok && !e.Has("addressStreet") {
		e.Add("addressStreet", "account.address_street_differs")
	}
	if !e.Empty() {
		return ProfileSaved{}, apperr.FromFields(e)
	}
	in.Address1 = street
	var pending *PendingEmail
	sent := true
	if !strings.EqualFold(m.Email, in.Email) {
		// Checked before anything is saved: a refused change changes nothing.
		p, ok, err := s.requestEmailChange(ctx, m, in.Email, in.CurrentPassword, lang)
		if err != nil {
			return ProfileSaved{}, err
		}
		pending, sent = &p, ok
	} else {
		m.Email = in.Email // the same mailbox; only the letter case may differ
	}
	m.Firstname, m.Lastname, m.Gender, m.Birth = in.Firstname, in.Lastname, in.Gender, in.Birth
	m.Tel = in.Tel
	m.AddressCountryCode, m.AddressPostalCode = in.AddressCountryCode, strings.TrimSpace(in.AddressPostalCode)
	m.AddressStateAndCity, m.Address1 = in.AddressStateAndCity, in.Address1
	m.PassportNo, m.PassportNationalityCode = in.PassportNo, in.PassportNationalityCode
	m.PassportIssueCountryCode, m.PassportExpirationDate = in.PassportIssueCountryCode, in.PassportExpirationDate
	if in.Optin1 != nil {
		m.Optin1 = *in.Optin1
	}
	if in.AutoLoginNoticeMail != nil {
		m.AutoLoginNoticeMail = *in.AutoLoginNoticeMail
	}
	m.Lang = string(lang)
	switch err := s.Store.UpdateMember(ctx, m, s.Now()); {
	case errors.Is(err, ErrEmailTaken):
		return ProfileSaved{}, apperr.FromFields(validate.Errors{"email": {Key: "account.email_taken"}})
	case errors.Is(err, ErrNotFound):
		return ProfileSaved{}, apperr.New(apperr.Forbidden, "error.session")
	case err != nil:
		return ProfileSaved{}, fmt.Errorf("update member: %w", err)
	}
	sent = s.notify(ctx, mail.KindProfileUpdated, m.MailLanguage(lang), m.Email, mail.Data{Given: m.Firstname, Family: m.Lastname}) && sent
	return ProfileSaved{Profile: s.profile(m, lang), MailSent: sent, EmailChange: pending}, nil
}

// PasswordChange is the password form.
type PasswordChange struct {
	PasswordOld     string `json:"passwordOld"`
	PasswordNew     string `json:"passwordNew"`
	PasswordReenter string `json:"passwordReenter"`
}

// Wrong current passwords allowed per member in the throttle window.
const maxWrongCurrentPassword = 5

// ChangePassword checks the current password, sets the new one and ends
// the member's other sessions (the current one stays).
func (s *Service) ChangePassword(ctx context.Context, sess auth.Session, in PasswordChange, lang i18n.Lang) (bool, error) {
	e := validate.Errors{}
	if e.Required("passwordOld", in.PasswordOld) {
		e.MaxLen("passwordOld", in.PasswordOld, PasswordHardMax)
	}
	checkNewPassword(e, "passwordNew", in.PasswordNew)
	checkReenter(e, "passwordReenter", in.PasswordReenter, in.PasswordNew)
	if !e.Empty() {
		return false, apperr.FromFields(e)
	}
	// The attempt is reserved before the password is checked, so parallel
	// guesses cannot pass the limit; a right password forgets the count.
	if err := s.checkCurrentPassword(ctx, sess.MemberID, "passwordOld", in.PasswordOld); err != nil {
		return false, err
	}
	newHash, err := s.Hasher.Hash(in.PasswordNew)
	if err != nil {
		return false, err
	}
	if err := s.Store.SetPasswordHash(ctx, sess.MemberID, newHash, s.Now()); err != nil {
		return false, fmt.Errorf("set password: %w", err)
	}
	if err := s.Sessions.EndOtherSessions(ctx, sess.MemberID, sess); err != nil {
		return false, fmt.Errorf("end other sessions: %w", err)
	}
	m, err := s.member(ctx, sess.MemberID)
	if err != nil {
		return false, err
	}
	s.recordChange(ctx, sess.MemberID, "password_changed", "")
	ml := m.MailLanguage(lang)
	return s.notify(ctx, mail.KindPasswordChanged, ml, m.Email, mail.Data{Given: m.Firstname, Family: m.Lastname, URL: s.securityCentreURL(ml)}), nil
}
