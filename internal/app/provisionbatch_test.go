package app_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"members/internal/account"
	"members/internal/apitest"
	"members/internal/app"
	"members/internal/apperr"
	"members/internal/store"
)

// legacyBcrypt is an old system's bcrypt hash (cost 4).
const legacyBcrypt = "$2y$04$Pp/PeqRQa2cG0whfRkiKku.d.0EYnXWeoejxLDR1lWW2oDMLmBwYu"

func provisionInput(email, first, hash string) account.ProvisionInput {
	return account.ProvisionInput{Email: email, Firstname: first, Lastname: "Yamada", Gender: "female", Birth: "1988-04-12",
		Tel: "0312345678", AddressCountryCode: "JP", AddressPostalCode: "5490001", AddressStateAndCity: "Osaka",
		Address1: "1 Senshu-kuko-kita", Lang: "en", PasswordHash: hash}
}

// TestProvisionBatch: a batch of the members import gives each member the
// outcome Provision one after another would, in one transaction: an
// address taken by an earlier line of the batch in another case is
// refused, an address an earlier line's update left is free for a later
// one, a bad line in the middle writes nothing of itself and stops none of
// the others, a number twice sees its earlier line, and the set-password
// mail goes to the member created without a hash once the batch is in. A
// dry run answers the same and writes nothing.
func TestProvisionBatch(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		a, err := app.Open(ctx, app.Options{DSN: apitest.DSN(t, engine), Logger: apitest.Quiet()})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		prov, err := a.Provisioning(app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []struct{ number, email string }{{"E1", "e1@example.com"}, {"E2", "e2@example.com"}} {
			if _, err := prov.Provision(ctx, m.number, provisionInput(m.email, "Hanako", legacyBcrypt)); err != nil {
				t.Fatal(err)
			}
		}
		count := func(q string, args ...any) (n int) {
			t.Helper()
			if err := a.DB.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		mails := func() int { return count(`SELECT COUNT(*) FROM mail_outbox WHERE kind = $1`, account.KindPasswordSet) }
		items := []account.ProvisionItem{
			{Number: "M1", Input: provisionInput("a@example.com", "Aoi", legacyBcrypt)},
			{Number: "M2", Input: provisionInput("A@Example.COM", "Aoi", legacyBcrypt)},  // taken by M1, in another case
			{Number: "M3", Input: provisionInput("not-an-address", "Aoi", legacyBcrypt)}, // a field rule
			{Number: "E1", Input: provisionInput("e1-new@example.com", "Hanako", "")},    // leaves e1@
			{Number: "M5", Input: provisionInput("e1@example.com", "Ken", legacyBcrypt)}, // takes it
			{Number: "E2", Input: provisionInput("e2@example.com", "Hanako", "")},        // as held
			{Number: "M7", Input: provisionInput("m7@example.com", "Ken", "")},           // no password: the mail
		}
		outcomes := func(res []account.ProvisionResult) []string {
			var out []string
			for _, r := range res {
				switch {
				case errors.Is(r.Err, account.ErrEmailTaken):
					out = append(out, "email_taken")
				case apperr.CodeOf(r.Err) == apperr.Invalid:
					out = append(out, "invalid")
				case r.Err != nil:
					out = append(out, r.Err.Error())
				default:
					out = append(out, r.Outcome)
				}
			}
			return out
		}
		want := []string{"created", "email_taken", "invalid", "updated", "created", "unchanged", "created"}
		res, err := prov.ProvisionBatch(ctx, items, account.BatchOptions{DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := outcomes(res); !reflect.DeepEqual(got, want) {
			t.Fatalf("dry run: %v, want %v", got, want)
		}
		if n := count(`SELECT COUNT(*) FROM members`); n != 2 || mails() != 0 {
			t.Fatalf("the dry run left %d members and %d mails, want 2 and 0", n, mails())
		}

		committed := false
		res, err = prov.ProvisionBatch(ctx, items, account.BatchOptions{BeforeCommit: func() { committed = mails() == 0 }})
		if err != nil {
			t.Fatal(err)
		}
		if got := outcomes(res); !reflect.DeepEqual(got, want) {
			t.Fatalf("batch: %v, want %v", got, want)
		}
		if !committed {
			t.Error("a mail was queued before the batch's commit")
		}
		got := map[string]string{}
		rows, err := a.DB.QueryContext(ctx, `SELECT member_number, email || ' ' || firstname FROM members`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var n, e string
			if err := rows.Scan(&n, &e); err != nil {
				t.Fatal(err)
			}
			got[n] = e
		}
		rows.Close()
		if want := map[string]string{"E1": "e1-new@example.com Hanako", "E2": "e2@example.com Hanako", "M1": "a@example.com Aoi",
			"M5": "e1@example.com Ken", "M7": "m7@example.com Ken"}; !reflect.DeepEqual(got, want) {
			t.Errorf("members %v, want %v", got, want)
		}
		if mails() != 1 {
			t.Errorf("%d set-password mails, want 1 (M7's)", mails())
		}
		if h := count(`SELECT COUNT(*) FROM members WHERE member_number = 'M1' AND password_hash = $1`, legacyBcrypt); h != 1 {
			t.Error("M1's old hash was not stored as sent")
		}

		// The same batch again: nothing to do, and no second mail while
		// M7's link is usable.
		res, err = prov.ProvisionBatch(ctx, items, account.BatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := outcomes(res), []string{"unchanged", "email_taken", "invalid", "unchanged", "unchanged", "unchanged", "unchanged"}; !reflect.DeepEqual(got, want) {
			t.Errorf("the batch again: %v, want %v", got, want)
		}
		if mails() != 1 {
			t.Errorf("%d set-password mails after the batch again, want 1", mails())
		}

		// A number twice in a batch: the later line sees the earlier one.
		res, err = prov.ProvisionBatch(ctx, []account.ProvisionItem{
			{Number: "T1", Input: provisionInput("t1@example.com", "Aoi", legacyBcrypt)},
			{Number: "T1", Input: provisionInput("t1@example.com", "Aoi", legacyBcrypt)},
			{Number: "T1", Input: provisionInput("t1@example.com", "Emi", legacyBcrypt)},
		}, account.BatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := outcomes(res), []string{"created", "unchanged", "updated"}; !reflect.DeepEqual(got, want) {
			t.Errorf("a number twice: %v, want %v", got, want)
		}
		if n := count(`SELECT COUNT(*) FROM members WHERE member_number = 'T1' AND firstname = 'Emi'`); n != 1 {
			t.Errorf("T1: %d members named Emi, want 1", n)
		}
	})
}
