// Package demo loads the demo data of `members serve --demo`: two members
// with full profiles and, through the feature seeders, passengers,
// bookings and the rest.
package demo

import (
	"context"
	"fmt"
	"time"

	"members/internal/account"
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
	n, err := db.MembersExisting(ctx, []string{Member1}, nil)
	if err != nil {
		return fmt.Errorf("demo: find the demo member: %w", err)
	}
	if n > 0 {
		return nil
	}
	if n, err = db.MembersExisting(ctx, []string{Member2}, []string{Email1, Email2}); err != nil {
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
	passportExpiry := now.AddDate(6, 0, 0).Format(time.DateOnly)
	return db.Seed(ctx, func(s *store.Seed) error {
		for _, m := range []account.Member{
			{ID: Member1, Email: Email1, Firstname: "Hanako", Lastname: "Yamada", Gender: "female", Birth: "1988-04-12", Tel: "0312345678",
				AddressCountryCode: "JP", AddressPostalCode: "5490001", AddressStateAndCity: "Osaka Izumisano", Address1: "1 Senshu-kuko-kita",
				PassportNo: "TR1234567", PassportNationalityCode: "JP", PassportIssueCountryCode: "JP", PassportExpirationDate: passportExpiry},
			{ID: Member2, Email: Email2, Firstname: "Minjun", Lastname: "Kim", Gender: "male", Birth: "1979-11-30", Tel: "01098765432",
				AddressCountryCode: "KR", AddressPostalCode: "04524", AddressStateAndCity: "Seoul Jung-gu", Address1: "110 Sejong-daero",
				PassportNo: "M12345678", PassportNationalityCode: "KR", PassportIssueCountryCode: "KR", PassportExpirationDate: passportExpiry},
		} {
			if err := s.Member(m, hash, now); err != nil {
				return fmt.Errorf("demo: %w", err)
			}
		}
		// One seeder per feature, each on its own line.
		seeders := []func(*store.Seed, time.Time) error{
			seedAccount,
			seedBookings,
			seedPayments,
			seedPoints,
			seedPasses,
			// -- seedSecurity --
		}
		for _, seed := range seeders {
			if err := seed(s, now); err != nil {
				return err
			}
		}
		return nil
	})
}
