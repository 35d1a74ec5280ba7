package account

import (
	"strings"
	"testing"
	"time"

	"members/internal/masters"
	"members/internal/validate"
)

func date(s string) time.Time {
	d, ok := validate.ParseDate(s)
	if !ok {
		panic(s)
	}
	return d
}

func TestTodayInJapanAndAge(t *testing.T) {
	// 15:30 UTC on the 19th is already the 20th in Japan.
	now := time.Date(2026, 11, 19, 15, 30, 0, 0, time.UTC)
	if got := TodayInJapan(now).Format(time.DateOnly); got != "2026-11-20" {
		t.Fatalf("TodayInJapan = %s", got)
	}
	for _, c := range []struct {
		birth, day string
		age        int
	}{
		{"2014-11-20", "2026-11-20", 12}, {"2014-11-21", "2026-11-20", 11}, {"2014-12-01", "2026-11-20", 11},
		{"2012-02-29", "2024-02-28", 11}, {"2012-02-29", "2024-02-29", 12}, {"2012-02-29", "2025-02-28", 12},
		{"2012-02-29", "2023-02-28", 10}, {"2012-02-29", "2023-03-01", 11},
	} {
		if got := AgeOn(date(c.birth), date(c.day)); got != c.age {
			t.Errorf("AgeOn(%s, %s) = %d, want %d", c.birth, c.day, got, c.age)
		}
	}
}

func TestPassengerTypeFor(t *testing.T) {
	today := date("2026-11-20")
	for birth, want := range map[string]string{
		"2026-11-20": TypeInfant, "2024-11-21": TypeInfant, "2024-11-20": TypeChild,
		"2014-11-21": TypeChild, "2014-11-20": TypeAdult, "1950-01-01": TypeAdult,
	} {
		if got := PassengerTypeFor(date(birth), today); got != want {
			t.Errorf("PassengerTypeFor(%s) = %s, want %s", birth, got, want)
		}
	}
}

func service(now time.Time) *Service {
	return NewService(Deps{Countries: masters.NewCountries(), Now: func() time.Time { return now }})
}

func validInput() ProfileInput {
	return ProfileInput{
		Firstname: "Hanako", Lastname: "Yamada", Gender: "female", Birth: "1988-04-12", Email: "hanako@example.com",
		Tel: "0312345678", AddressCountryCode: "JP", AddressPostalCode: "5490001", AddressStateAndCity: "Osaka",
		Address1: "1 Senshu-kuko-kita",
	}
}

// TestProfileRules checks every rule and its boundaries at the domain level
// (the API tests check the same through HTTP with translated messages).
func TestProfileRules(t *testing.T) {
	// Japan time 2026-11-20 01:00, still the 19th in UTC.
	s := service(time.Date(2026, 11, 19, 16, 0, 0, 0, time.UTC))
	if e := s.ValidateProfile(validInput()); !e.Empty() {
		t.Fatalf("valid input refused: %v", e)
	}
	for _, c := range []struct {
		name  string
		edit  func(*ProfileInput)
		field string
		key   string // "" means accepted
	}{
		{"firstname required", func(p *ProfileInput) { p.Firstname = "" }, "firstname", "validation.required"},
		{"lastname latin", func(p *ProfileInput) { p.Lastname = "山田" }, "lastname", "account.name_latin"},
		{"name with hyphen and space", func(p *ProfileInput) { p.Lastname = "Smith-Jones Jr" }, "lastname", ""},
		{"name full-width latin", func(p *ProfileInput) { p.Firstname = "Ｈａｎａｋｏ" }, "firstname", "account.name_latin"},
		{"name 51 letters", func(p *ProfileInput) { p.Firstname = strings.Repeat("a", 51) }, "firstname", "validation.max_length"},
		{"gender required", func(p *ProfileInput) { p.Gender = "" }, "gender", "validation.required"},
		{"gender other", func(p *ProfileInput) { p.Gender = "x" }, "gender", "account.gender_invalid"},
		{"birth required", func(p *ProfileInput) { p.Birth = "" }, "birth", "validation.required"},
		{"birth not a date", func(p *ProfileInput) { p.Birth = "1990-02-30" }, "birth", "account.date_invalid"},
		{"birth before 1900", func(p *ProfileInput) { p.Birth = "1899-12-31" }, "birth", "account.date_invalid"},
		{"birth tomorrow (Japan)", func(p *ProfileInput) { p.Birth = "2026-11-21" }, "birth", "account.birth_future"},
		{"exactly 12 today in Japan", func(p *ProfileInput) { p.Birth = "2014-11-20" }, "birth", ""},
		{"12 tomorrow", func(p *ProfileInput) { p.Birth = "2014-11-21" }, "birth", "account.member_age"},
		{"tel required", func(p *ProfileInput) { p.Tel = "" }, "tel", "validation.required"},
		{"tel 8 digits", func(p *ProfileInput) { p.Tel = "12345678" }, "tel", ""},
		{"tel 11 digits", func(p *ProfileInput) { p.Tel = "12345678901" }, "tel", ""},
		{"tel 7 digits", func(p *ProfileInput) { p.Tel = "1234567" }, "tel", "account.tel_length"},
		{"tel 12 digits", func(p *ProfileInput) { p.Tel = "123456789012" }, "tel", "account.tel_length"},
		{"tel 00", func(p *ProfileInput) { p.Tel = "00123456789" }, "tel", "account.tel_prefix"},
		{"tel +", func(p *ProfileInput) { p.Tel = "+8112345678" }, "tel", "account.tel_prefix"},
		{"tel single 0 ok", func(p *ProfileInput) { p.Tel = "09012345678" }, "tel", ""},
		{"tel hyphens cleaned", func(p *ProfileInput) { p.Tel = "090-1234-5678" }, "tel", ""},
		{"tel spaces cleaned", func(p *ProfileInput) { p.Tel = " 090 1234\u30005678 " }, "tel", ""},
		{"tel full-width cleaned", func(p *ProfileInput) { p.Tel = "０９０－１２３４－５６７８" }, "tel", ""},
		{"tel brackets cleaned", func(p *ProfileInput) { p.Tel = "(03) 1234-5678" }, "tel", ""},
		{"tel letters still refused", func(p *ProfileInput) { p.Tel = "090-1234-567a" }, "tel", "account.tel_digits"},
		{"tel + after cleaning", func(p *ProfileInput) { p.Tel = "+81 90-1234-5678" }, "tel", "account.tel_prefix"},
		{"tel too long after cleaning", func(p *ProfileInput) { p.Tel = "090-1234-5678-9" }, "tel", "account.tel_length"},
		{"tel full-width digits cleaned", func(p *ProfileInput) { p.Tel = "０９０１２３４５６７８" }, "tel", ""},
		{"email required", func(p *ProfileInput) { p.Email = "" }, "email", "validation.required"},
		{"email 100", func(p *ProfileInput) { p.Email = strings.Repeat("a", 88) + "@example.com" }, "email", ""},
		{"email 101", func(p *ProfileInput) { p.Email = strings.Repeat("a", 89) + "@example.com" }, "email", "validation.max_length"},
		{"email shape", func(p *ProfileInput) { p.Email = "a@b" }, "email", "validation.email"},
		{"country required", func(p *ProfileInput) { p.AddressCountryCode = "" }, "addressCountryCode", "validation.required"},
		{"country not ISO", func(p *ProfileInput) { p.AddressCountryCode = "XX" }, "addressCountryCode", "account.country_invalid"},
		{"postal code required", func(p *ProfileInput) { p.AddressPostalCode = " " }, "addressPostalCode", "validation.required"},
		{"state and city required", func(p *ProfileInput) { p.AddressStateAndCity = "" }, "addressStateAndCity", "validation.required"},
		{"address1 optional", func(p *ProfileInput) { p.Address1 = "" }, "address1", ""},
		{"address1 3-byte kanji ok", func(p *ProfileInput) { p.Address1 = "泉州空港北1番地" }, "address1", ""},
		{"address1 emoji", func(p *ProfileInput) { p.Address1 = "✈️🛫" }, "address1", "account.four_byte"},
		{"address1 4-byte kanji", func(p *ProfileInput) { p.Address1 = "𩸽" }, "address1", "account.four_byte"},
		{"passport nationality", func(p *ProfileInput) { p.PassportNationalityCode = "QQ" }, "passportNationalityCode", "account.country_invalid"},
		{"passport issue", func(p *ProfileInput) { p.PassportIssueCountryCode = "KR" }, "passportIssueCountryCode", ""},
		{"passport expiry", func(p *ProfileInput) { p.PassportExpirationDate = "2030/01/01" }, "passportExpirationDate", "account.date_invalid"},
		{"passport number", func(p *ProfileInput) { p.PassportNo = "ＴＲ１" }, "passportNo", "account.passport_no"},
	} {
		in := validInput()
		c.edit(&in)
		e := s.ValidateProfile(in)
		if c.key == "" {
			if !e.Empty() {
				t.Errorf("%s: refused: %v", c.name, e)
			}
			continue
		}
		if len(e) != 1 || e[c.field].Key != c.key {
			t.Errorf("%s: got %v, want %s on %s", c.name, e, c.key, c.field)
		}
	}
}

func TestPasswordRules(t *testing.T) {
	for _, c := range []struct {
		pw, again, field, key string
	}{
		{"Abcd1234", "Abcd1234", "", ""},
		{"Abcd123", "Abcd123", "passwordNew", "account.password_length"},
		{strings.Repeat("a1", 16), strings.Repeat("a1", 16), "", ""},
		{strings.Repeat("a1", 16) + "x", strings.Repeat("a1", 16) + "x", "passwordNew", "account.password_length"},
		{"abcdefgh", "abcdefgh", "passwordNew", "account.password_chars"},
		{"12345678", "12345678", "passwordNew", "account.password_chars"},
		{"", "", "passwordNew", "validation.required"},
		{"Abcd1234", "", "passwordReenter", "validation.required"},
		{"Abcd1234", "abcd1234", "passwordReenter", "account.password_mismatch"},
	} {
		e := validate.Errors{}
		checkNewPassword(e, "passwordNew", c.pw)
		checkReenter(e, "passwordReenter", c.again, c.pw)
		if c.key == "" && !e.Empty() || c.key != "" && e[c.field].Key != c.key {
			t.Errorf("%q/%q: %v, want %s %s", c.pw, c.again, e, c.field, c.key)
		}
	}
}

func TestPassengerRules(t *testing.T) {
	s := service(time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC))
	base := PassengerInput{Firstname: "Ren", Lastname: "Yamada", Gender: "male", Birth: "2025-06-01"}
	p, e := s.ValidatePassenger(base)
	if !e.Empty() || p.PassengerType != TypeInfant {
		t.Fatalf("derived type %s %v", p.PassengerType, e)
	}
	for _, c := range []struct {
		typ, birth, key string
	}{
		{TypeInfant, "2025-06-01", ""}, {TypeChild, "2025-06-01", "account.passenger_type_mismatch"},
		{TypeChild, "2020-01-01", ""}, {TypeAdult, "2020-01-01", "account.passenger_type_mismatch"},
		{TypeAdult, "2000-01-01", ""}, {"BABY", "2000-01-01", "account.passenger_type_invalid"},
	} {
		in := base
		in.PassengerType, in.Birth = c.typ, c.birth
		_, e := s.ValidatePassenger(in)
		if c.key == "" && !e.Empty() || c.key != "" && e["passengerType"].Key != c.key {
			t.Errorf("%s born %s: %v, want %s", c.typ, c.birth, e, c.key)
		}
	}
	in := base
	in.Tel, in.Email = "", ""
	if _, e := s.ValidatePassenger(in); !e.Empty() {
		t.Errorf("contact fields should be optional: %v", e)
	}
}

func TestSuggestMail(t *testing.T) {
	for in, want := range map[string]string{
		"a@gmial.com": "a@gmail.com", "a@gmail.con": "a@gmail.com", "a@gmai.com": "a@gmail.com",
		"a@yahoo.co.jo": "a@yahoo.co.jp", "a@hotmial.com": "a@hotmail.com", "a@docomo.ne.pj": "a@docomo.ne.jp",
		"a@gmail.com": "", "a@company.example": "", "nodomain": "", "a@": "", "a@qq.co": "a@qq.com",
	} {
		if got := SuggestMail(in).Suggestion; got != want {
			t.Errorf("SuggestMail(%q) = %q, want %q", in, got, want)
		}
	}
}
