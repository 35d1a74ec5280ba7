package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/pass"
	"members/internal/store"
)

// TestOnePassPerPeriodMigration: a database holding two copies of one
// period for a member (bought before the rule) still migrates; the later
// copy is marked as a duplicate of the first, and a third copy is refused
// as ErrHeld, on both engines.
func TestOnePassPerPeriodMigration(t *testing.T) {
	t.Parallel()
	for _, engine := range apitest.Engines(t) {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db := apitest.OpenDB(t, engine)
			for _, q := range []string{
				`DROP INDEX gogo_passes_member_period`,
				`ALTER TABLE gogo_passes DROP COLUMN duplicate_of`,
				`DELETE FROM goose_db_version WHERE version_id = 130`,
				`INSERT INTO members (id, email, email_key, password_hash, created_at, updated_at) VALUES ('m1', 'a@example.com', 'a@example.com', 'x', 0, 0)`,
				`INSERT INTO gogo_pass_plans (id, name, name_alt, position) VALUES ('pl', 'n', 'a', 1)`,
				`INSERT INTO gogo_pass_periods (id, plan_id, board_begin, board_end, book_begin, book_end, currency, price_happy, price_happlus)
				 VALUES ('pe', 'pl', '2026-12-01', '2027-03-01', '2026-11-01', '2027-02-01', 'JPY', 1, 2)`,
				`INSERT INTO gogo_passes (id, code, member_id, plan_id, period_id, fare_type, currency, purchased_price, source, purchased_at)
				 VALUES ('first', 'GP1', 'm1', 'pl', 'pe', 'happy', 'JPY', 1, 'purchase', 100)`,
				`INSERT INTO gogo_passes (id, code, member_id, plan_id, period_id, fare_type, currency, purchased_price, source, purchased_at)
				 VALUES ('second', 'GP2', 'm1', 'pl', 'pe', 'happy', 'JPY', 1, 'purchase', 200)`,
			} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if err := db.Migrate(ctx); err != nil {
				t.Fatalf("migrate with a duplicate pass: %v", err)
			}
			var first, second *string
			if err := db.QueryRowContext(ctx, `SELECT (SELECT duplicate_of FROM gogo_passes WHERE id = 'first'),
				(SELECT duplicate_of FROM gogo_passes WHERE id = 'second')`).Scan(&first, &second); err != nil {
				t.Fatal(err)
			}
			if first != nil || second == nil || *second != "first" {
				t.Fatalf("duplicate_of: first %v, second %v", first, second)
			}
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tx.Rollback() }()
			err = store.NewPassStore(db).InsertPass(ctx, store.UnitOfWork(tx), pass.Pass{ID: "third", Code: "GP3", MemberID: "m1", PlanID: "pl", PeriodID: "pe",
				FareType: "happy", CurrencyCode: "JPY", Source: "purchase", PurchasedAt: time.UnixMilli(300)})
			if !errors.Is(err, pass.ErrHeld) {
				t.Fatalf("a third copy: %v", err)
			}
		})
	}
}
