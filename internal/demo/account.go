package demo

import (
	"fmt"
	"time"

	"members/internal/account"
	"members/internal/store"
)

// seedAccount adds the demo members' saved passengers: adults, a child and
// an infant (birth dates relative to now so their types stay right).
func seedAccount(s *store.Seed, now time.Time) error {
	date := func(years, days int) string { return now.AddDate(-years, 0, -days).Format(time.DateOnly) }
	passengers := []struct {
		member, typ, first, last, gender, birth, tel, email, passport, nat string
	}{
		{Member1, "ADULT", "Taro", "Yamada", "male", "1986-09-03", "09012345678", "taro@example.com", "TR7654321", "JP"},
		{Member1, "CHILD", "Sakura", "Yamada", "female", date(6, 40), "", "", "TS1122334", "JP"},
		{Member1, "INFANT", "Ren", "Yamada", "male", date(1, 20), "", "", "", ""},
		{Member2, "ADULT", "Jiwoo", "Park", "female", "1982-02-14", "01012345678", "jiwoo@example.com", "M87654321", "KR"},
		{Member2, "CHILD", "Seojun", "Kim", "male", date(9, 100), "", "", "M11223344", "KR"},
		{Member2, "INFANT", "Haeun", "Kim", "female", date(0, 200), "", "", "", ""},
	}
	for i, p := range passengers {
		expiry := ""
		if p.passport != "" {
			expiry = now.AddDate(4, 0, 0).Format(time.DateOnly)
		}
		err := s.Passenger(p.member, account.Passenger{ID: store.NewID(), PassengerInput: account.PassengerInput{
			PassengerType: p.typ, Firstname: p.first, Lastname: p.last, Gender: p.gender, Birth: p.birth, Tel: p.tel, Email: p.email,
			PassportNo: p.passport, PassportNationalityCode: p.nat, PassportIssueCountryCode: p.nat, PassportExpirationDate: expiry,
		}}, now.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			return fmt.Errorf("demo: insert passenger %s: %w", p.first, err)
		}
	}
	return nil
}
