package account

import (
	"testing"
	"time"

	"members/internal/validate"
)

// The profile, passenger and password rules never panic on any input and
// give at most one message per field; a profile they accept has the shape
// the spec promises.
func FuzzValidateProfile(f *testing.F) {
	in := validInput()
	f.Add(in.Firstname, in.Lastname, in.Gender, in.Birth, in.Email, in.Tel, in.AddressCountryCode, in.AddressPostalCode, in.Address1, "TR1234567", "2030-01-01")
	f.Add("花子", "", "x", "1990-02-30", "ｈａｎａｋｏ@example.com", "+81", "XX", "", "😀", "TR-1", "2030-13-01")
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	s := service(now)
	f.Fuzz(func(t *testing.T, first, last, gender, birth, email, tel, country, postal, addr1, passport, expiry string) {
		p := ProfileInput{Firstname: first, Lastname: last, Gender: gender, Birth: birth, Email: email, Tel: tel,
			AddressCountryCode: country, AddressPostalCode: postal, AddressStateAndCity: "Osaka", Address1: addr1,
			PassportNo: passport, PassportExpirationDate: expiry}
		e := s.ValidateProfile(p)
		oneEach(t, e)
		if e.Empty() {
			if !validate.IsEmail(email) || !validate.IsDigits(tel) || !validate.IsLatinName(first) {
				t.Fatalf("accepted %+v", p)
			}
			if _, ok := validate.ParseDate(birth); !ok {
				t.Fatalf("accepted birth %q", birth)
			}
		}
		_, pe := s.ValidatePassenger(PassengerInput{Firstname: first, Lastname: last, Gender: gender, Birth: birth, Email: email})
		oneEach(t, pe)
		pw := validate.Errors{}
		checkNewPassword(pw, "p", first)
		checkReenter(pw, "r", last, first)
		oneEach(t, pw)
	})
}

func oneEach(t *testing.T, e validate.Errors) {
	t.Helper()
	for f, m := range e {
		if m.Key == "" {
			t.Fatalf("field %s without a message", f)
		}
	}
}
