package account

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"members/internal/validate"
)

// Limits of the account rules.
const (
	MemberMinAge    = 12
	TelMinDigits    = 8
	TelMaxDigits    = 11
	EmailMax        = 100
	NameMax         = 50
	PasswordMin     = 8
	PasswordMax     = 32
	PasswordHardMax = 100
	PostalCodeMax   = 10
	AddressMax      = 100
	PassportNoMax   = 20
	MaxPassengers   = 20
	InfantMaxAge    = 1  // under 2
	ChildMaxAge     = 11 // 2 to 11
)

// japan is the zone "today" is computed in (UTC+9, no daylight saving).
var japan = time.FixedZone("JST", 9*60*60)

// TodayInJapan returns today's calendar date in Japan time.
func TodayInJapan(now time.Time) time.Time {
	y, m, d := now.In(japan).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// AgeOn returns the age in whole years on day of someone born on birth
// (both calendar dates). A 29 February birthday turns over on 1 March in
// common years.
func AgeOn(birth, day time.Time) int {
	age := day.Year() - birth.Year()
	if day.Month() < birth.Month() || (day.Month() == birth.Month() && day.Day() < birth.Day()) {
		age--
	}
	return age
}

// earliestBirth keeps obviously wrong years out.
var earliestBirth = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// checkName: required; English (Latin) letters; at most NameMax.
func checkName(e validate.Errors, field, v string) {
	if !e.Required(field, v) {
		return
	}
	e.Check(field, validate.IsLatinName(strings.TrimSpace(v)), "account.name_latin")
	e.MaxLen(field, v, NameMax)
}

// checkGender: required; male or female.
func checkGender(e validate.Errors, field, v string) {
	if !e.Required(field, v) {
		return
	}
	e.Check(field, v == "male" || v == "female", "account.gender_invalid")
}

// checkBirth: required; a valid date, not in the future, not before 1900;
// and at least minAge years old today in Japan (minAge < 0: no minimum).
// It returns the parsed date and whether it passed.
func checkBirth(e validate.Errors, field, v string, now time.Time, minAge int) (time.Time, bool) {
	if !e.Required(field, v) {
		return time.Time{}, false
	}
	d, ok := validate.ParseDate(v)
	e.Check(field, ok && !d.Before(earliestBirth), "account.date_invalid")
	if e.Has(field) {
		return time.Time{}, false
	}
	today := TodayInJapan(now)
	e.Check(field, !d.After(today), "account.birth_future")
	if minAge >= 0 {
		e.Check(field, AgeOn(d, today) >= minAge, "account.member_age", "min", minAge)
	}
	return d, !e.Has(field)
}

// telSeparators are what members type between the groups of a phone
// number: hyphens and dashes (ASCII, full-width, Unicode), spaces (ASCII,
// full-width, no-break), dots and the brackets around an area code.
var telSeparators = strings.NewReplacer(
	"-", "", "\u2010", "", "\u2011", "", "\u2012", "", "\u2013", "", "\u2014", "", "\u2212", "", "\uff0d", "", "\u30fc", "",
	" ", "", "\u00a0", "", "\u3000", "", "\t", "",
	".", "", "(", "", ")", "", "\uff08", "", "\uff09", "",
)

// CleanTel returns a phone number as it is stored: the separators a member
// types (090-1234-5678, 090 1234 5678, (03) 1234-5678) removed and
// full-width digits made ASCII. What is left is checked by the tel rule;
// a + or any other character stays, so the rule still refuses it.
func CleanTel(v string) string {
	v = telSeparators.Replace(strings.TrimSpace(v))
	return strings.Map(func(r rune) rune {
		if r >= '０' && r <= '９' {
			return '0' + (r - '０')
		}
		return r
	}, v)
}

// checkTel: 8 to 11 digits only, not starting with 00 or +, once cleaned
// (CleanTel; the callers store the cleaned number). required makes a blank
// value an error; otherwise a blank value passes.
func checkTel(e validate.Errors, field, v string, required bool) {
	v = CleanTel(v)
	if v == "" {
		if required {
			e.Add(field, "validation.required")
		}
		return
	}
	e.Check(field, !strings.HasPrefix(v, "+") && !strings.HasPrefix(v, "00"), "account.tel_prefix")
	e.Check(field, validate.IsDigits(v), "account.tel_digits")
	n := len(v)
	e.Check(field, n >= TelMinDigits && n <= TelMaxDigits, "account.tel_length", "min", TelMinDigits, "max", TelMaxDigits)
}

// checkEmail: max 100 and a valid address; required or optional.
func checkEmail(e validate.Errors, field, v string, required bool) {
	if strings.TrimSpace(v) == "" {
		if required {
			e.Add(field, "validation.required")
		}
		return
	}
	e.MaxLen(field, v, EmailMax)
	e.Email(field, v)
}

// checkCountry: a valid ISO 3166 code; required or optional.
func checkCountry(e validate.Errors, field, v string, required bool, valid func(string) bool) {
	if v == "" {
		if required {
			e.Add(field, "validation.required")
		}
		return
	}
	e.Check(field, valid(v), "account.country_invalid")
}

// checkNoFourByte: no characters outside the BMP (emoji…), max length.
func checkNoFourByte(e validate.Errors, field, v string, max int) {
	e.Check(field, !validate.HasFourByteChars(v), "account.four_byte")
	e.MaxLen(field, v, max)
	e.Check(field, !hasControl(v), "account.four_byte")
}

func hasControl(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) {
			return true
		}
	}
	return false
}

// checkPassport: optional passport number of single-byte letters and digits.
func checkPassport(e validate.Errors, field, v string) {
	if v == "" {
		return
	}
	e.Check(field, validate.IsAlnum(v), "account.passport_no")
	e.MaxLen(field, v, PassportNoMax)
}

// checkOptionalDate: a valid date when given.
func checkOptionalDate(e validate.Errors, field, v string) {
	if v == "" {
		return
	}
	_, ok := validate.ParseDate(v)
	e.Check(field, ok, "account.date_invalid")
}

// checkNewPassword: required; 8 to 32 characters; a letter and a digit.
// A letter is Unicode category L, a digit category Nd (so "²" is not one);
// the web form applies the same definition (testdata/passwords.json).
func checkNewPassword(e validate.Errors, field, v string) {
	if !e.Required(field, v) {
		return
	}
	n := utf8.RuneCountInString(v)
	e.Check(field, n >= PasswordMin && n <= PasswordMax, "account.password_length", "min", PasswordMin, "max", PasswordMax)
	var letter, digit bool
	for _, r := range v {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.Is(unicode.Nd, r)
	}
	e.Check(field, letter && digit, "account.password_chars")
}

// checkReenter: required; equal to the new password.
func checkReenter(e validate.Errors, field, v, newPassword string) {
	if !e.Required(field, v) {
		return
	}
	e.Check(field, v == newPassword, "account.password_mismatch")
}

// PassengerTypeFor returns the type a birth date gives today:
// INFANT under 2, CHILD 2 to 11, ADULT 12 and over.
func PassengerTypeFor(birth, today time.Time) string {
	switch age := AgeOn(birth, today); {
	case age <= InfantMaxAge:
		return TypeInfant
	case age <= ChildMaxAge:
		return TypeChild
	default:
		return TypeAdult
	}
}
