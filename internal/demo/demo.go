// Package demo loads the demo data of `members serve --demo`: two members
// with full profiles and, through the feature seeders, passengers,
// bookings and the rest.
package demo

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"members/internal/auth"
	"members/internal/store"
)

// Password of both demo members.
const Password = "Demo1234"

// Logins of the demo members.
const (
	Email1 = "demo@example.com"
	Email2 = "demo2@example.com"
)

// Member ids, fixed so seeders can refer to them.
const (
	Member1 = "00000000000000000000000000000001"
	Member2 = "00000000000000000000000000000002"
)

// Load adds the demo members with their data, once per database: it does
// nothing when the first demo member exists. A database that already has
// other members (a seed-bench one) gets them too, so that everything
// loaded later for the demo members (the sandbox's saved cards) has its
// member; the demo's logins must then be free.
func Load(ctx context.Context, db *store.DB, hasher *auth.Hasher) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM members WHERE id = $1`, Member1).Scan(&n); err != nil {
		return fmt.Errorf("demo: find the demo member: %w", err)
	}
	if n > 0 {
		return nil
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM members WHERE id = $1 OR email_key IN ($2, $3)`,
		Member2, store.EmailKey(Email1), store.EmailKey(Email2)).Scan(&n); err != nil {
		return fmt.Errorf("demo: find the demo members: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("demo: the demo members' ids or logins (%s, %s) belong to other members: use another database for the demo", Email1, Email2)
	}
	hash, err := hasher.Hash(Password)
	if err != nil {
		return err
	}
	now := db.Now()
	return db.Tx(ctx, func(tx *sql.Tx) error {
		members := []struct {
			id, email, first, last, gender, birth, tel, country, zip, city, addr, passport, nat string
		}{
			{Member1, Email1, "Hanako", "Yamada", "female", "1988-04-12", "0312345678", "JP", "5490001", "Osaka Izumisano", "1 Senshu-kuko-kita", "TR1234567", "JP"},
			{Member2, Email2, "Minjun", "Kim", "male", "1979-11-30", "01098765432", "KR", "04524", "Seoul Jung-gu", "110 Sejong-daero", "M12345678", "KR"},
		}
		for _, m := range members {
			_, err := tx.ExecContext(ctx, `INSERT INTO members (id, email, email_key, password_hash, firstname, lastname, gender, birth, tel,
				address_country_code, address_postal_code, address_state_and_city, address1, passport_no,
				passport_nationality_code, passport_issue_country_code, passport_expiration_date, created_at, updated_at)
				VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$15,$16,$17,$17)`,
				m.id, m.email, store.EmailKey(m.email), hash, m.first, m.last, m.gender, m.birth, m.tel,
				m.country, m.zip, m.city, m.addr, m.passport, m.nat, now.AddDate(6, 0, 0).Format(time.DateOnly), now.UnixMilli())
			if err != nil {
				return fmt.Errorf("demo: insert member %s: %w", m.email, err)
			}
		}
		// One seeder per feature, each on its own line.
		seeders := []func(context.Context, *sql.Tx, time.Time) error{
			seedAccount,
			seedBookings,
			seedPayments,
			seedPoints,
			seedPasses,
			// -- seedSecurity --
		}
		for _, seed := range seeders {
			if err := seed(ctx, tx, now); err != nil {
				return err
			}
		}
		return nil
	})
}
