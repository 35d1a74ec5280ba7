// Package demo loads the demo data of `members serve --demo` into an empty
// database: two members with full profiles and, through the feature
// seeders, passengers, bookings and the rest.
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

// Member ids, fixed so seeders can refer to them.
const (
	Member1 = "00000000000000000000000000000001"
	Member2 = "00000000000000000000000000000002"
)

// Load fills an empty database. It does nothing when members exist.
func Load(ctx context.Context, db *store.DB, hasher *auth.Hasher) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM members`).Scan(&n); err != nil {
		return fmt.Errorf("demo: count members: %w", err)
	}
	if n > 0 {
		return nil
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
			{Member1, "demo@example.com", "Hanako", "Yamada", "female", "1988-04-12", "0312345678", "JP", "5490001", "Osaka Izumisano", "1 Senshu-kuko-kita", "TR1234567", "JP"},
			{Member2, "demo2@example.com", "Minjun", "Kim", "male", "1979-11-30", "01098765432", "KR", "04524", "Seoul Jung-gu", "110 Sejong-daero", "M12345678", "KR"},
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
