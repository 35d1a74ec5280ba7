package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/validate"
)

// PassengerInput is the passenger form. PassengerType may be empty: it is
// then derived from the birth date (ADULT for 12 and over).
type PassengerInput struct {
	PassengerType            string `json:"passengerType"`
	Firstname                string `json:"firstname"`
	Lastname                 string `json:"lastname"`
	Gender                   string `json:"gender"`
	Birth                    string `json:"birth"`
	Tel                      string `json:"tel"`
	Email                    string `json:"email"`
	PassportNo               string `json:"passportNo"`
	PassportNationalityCode  string `json:"passportNationalityCode"`
	PassportIssueCountryCode string `json:"passportIssueCountryCode"`
	PassportExpirationDate   string `json:"passportExpirationDate"`
}

// ValidatePassenger applies the passenger rules and returns the passenger
// with its type settled.
func (s *Service) ValidatePassenger(in PassengerInput) (Passenger, validate.Errors) {
	in.Firstname, in.Lastname = strings.TrimSpace(in.Firstname), strings.TrimSpace(in.Lastname)
	in.Email = strings.TrimSpace(in.Email)
	in.Tel = CleanTel(in.Tel)
	e := validate.Errors{}
	checkName(e, "lastname", in.Lastname)
	checkName(e, "firstname", in.Firstname)
	checkGender(e, "gender", in.Gender)
	birth, birthOK := checkBirth(e, "birth", in.Birth, s.Now(), -1)
	typ := in.PassengerType
	switch typ {
	case "", TypeAdult, TypeChild, TypeInfant:
	default:
		e.Add("passengerType", "account.passenger_type_invalid")
	}
	if birthOK && !e.Has("passengerType") {
		want := PassengerTypeFor(birth, TodayInJapan(s.Now()))
		if typ == "" {
			typ = want
		}
		e.Check("passengerType", typ == want, "account.passenger_type_mismatch")
	}
	checkTel(e, "tel", in.Tel, false)
	checkEmail(e, "email", in.Email, false)
	checkPassport(e, "passportNo", in.PassportNo)
	checkCountry(e, "passportNationalityCode", in.PassportNationalityCode, false, s.Countries.Valid)
	checkCountry(e, "passportIssueCountryCode", in.PassportIssueCountryCode, false, s.Countries.Valid)
	checkOptionalDate(e, "passportExpirationDate", in.PassportExpirationDate)
	in.PassengerType = typ
	return Passenger{PassengerInput: in}, e
}

// named fills the passport country names in lang.
func (s *Service) named(p Passenger, lang i18n.Lang) Passenger {
	p.PassportNationality = s.Countries.Name(lang, p.PassportNationalityCode)
	p.PassportIssueCountry = s.Countries.Name(lang, p.PassportIssueCountryCode)
	return p
}

// Passengers lists the member's saved passengers, oldest first.
func (s *Service) Passengers(ctx context.Context, memberID string, lang i18n.Lang) ([]Passenger, error) {
	list, err := s.Store.Passengers(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("passengers: %w", err)
	}
	for i := range list {
		list[i] = s.named(list[i], lang)
	}
	return list, nil
}

func notFound(err error, what string) error {
	if errors.Is(err, ErrNotFound) {
		return apperr.ErrNotFound
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Passenger returns one of the member's passengers (NotFound for another
// member's or an unknown id).
func (s *Service) Passenger(ctx context.Context, memberID, id string, lang i18n.Lang) (Passenger, error) {
	p, err := s.Store.Passenger(ctx, memberID, id)
	if err != nil {
		return Passenger{}, notFound(err, "passenger")
	}
	return s.named(p, lang), nil
}

// AddPassenger saves a new passenger (at most MaxPassengers per member).
func (s *Service) AddPassenger(ctx context.Context, memberID string, in PassengerInput, lang i18n.Lang) (Passenger, bool, error) {
	p, e := s.ValidatePassenger(in)
	if !e.Empty() {
		return Passenger{}, false, apperr.FromFields(e)
	}
	p.ID = newID()
	switch err := s.Store.AddPassenger(ctx, memberID, p, MaxPassengers, s.Now()); {
	case errors.Is(err, ErrTooManyPassengers):
		return Passenger{}, false, &apperr.Error{Code: apperr.Conflict, MsgKey: "account.passengers_limit"}
	case err != nil:
		return Passenger{}, false, fmt.Errorf("add passenger: %w", err)
	}
	return s.named(p, lang), s.notifyPassenger(ctx, memberID, mail.KindPassengerAdded, p, lang), nil
}

// UpdatePassenger changes one of the member's passengers.
func (s *Service) UpdatePassenger(ctx context.Context, memberID, id string, in PassengerInput, lang i18n.Lang) (Passenger, bool, error) {
	if _, err := s.Store.Passenger(ctx, memberID, id); err != nil {
		return Passenger{}, false, notFound(err, "passenger")
	}
	p, e := s.ValidatePassenger(in)
	if !e.Empty() {
		return Passenger{}, false, apperr.FromFields(e)
	}
	p.ID = id
	if err := s.Store.UpdatePassenger(ctx, memberID, p, s.Now()); err != nil {
		return Passenger{}, false, notFound(err, "update passenger")
	}
	return s.named(p, lang), s.notifyPassenger(ctx, memberID, mail.KindPassengerChanged, p, lang), nil
}

// DeletePassenger removes one of the member's passengers.
func (s *Service) DeletePassenger(ctx context.Context, memberID, id string, lang i18n.Lang) (bool, error) {
	p, err := s.Store.Passenger(ctx, memberID, id)
	if err != nil {
		return false, notFound(err, "passenger")
	}
	if err := s.Store.DeletePassenger(ctx, memberID, id); err != nil {
		return false, notFound(err, "delete passenger")
	}
	return s.notifyPassenger(ctx, memberID, mail.KindPassengerDeleted, p, lang), nil
}

// notifyPassenger mails the member about a saved passenger, in the mail
// language the member chose, else lang (the page's).
func (s *Service) notifyPassenger(ctx context.Context, memberID, kind string, p Passenger, lang i18n.Lang) bool {
	m, err := s.Store.Member(ctx, memberID)
	if err != nil {
		s.Logger.Warn("account: passenger mail: load member", "err", err)
		return false
	}
	ml := m.MailLanguage(lang)
	return s.notify(ctx, kind, ml, m.Email, mail.Data{Given: m.Firstname, Family: m.Lastname,
		Args: []any{"passenger", i18n.PersonName(ml, p.Firstname, p.Lastname)}})
}
