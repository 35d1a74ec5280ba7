package demo

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"members/internal/store"
)

// seedAccount adds the demo members' saved passengers: adults, a child and
// an infant (birth dates relative to now so their types stay right).
func seedAccount(ctx context.Context, tx *sql.Tx, now time.Time) error {
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
		_, err := tx.ExecContext(ctx, `INSERT INTO passengers (id, member_id, passenger_type, firstname, lastname, gender,
			birth, tel, email, passport_no, passport_nationality_code, passport_issue_country_code, passport_expiration_date,
			created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$11,$12,$13,$13)`,
			store.NewID(), p.member, p.typ, p.first, p.last, p.gender, p.birth, p.tel, p.email, p.passport, p.nat,
			expiry, now.UnixMilli()+int64(i))
		if err != nil {
			return fmt.Errorf("demo: insert passenger %s: %w", p.first, err)
		}
	}
	return nil
}
