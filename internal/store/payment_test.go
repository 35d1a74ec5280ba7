package store_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/payment"
	"members/internal/store"
)

// TestPaymentTransitions tries every move between every pair of states:
// the legal ones change the row once, every other one (and a repeat)
// changes nothing.
func TestPaymentTransitions(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		db := paymentDB(t, engine)
		ctx := context.Background()
		st := store.NewPaymentStore(db)
		now := time.Now()
		all := []payment.Status{payment.Prepared, payment.Pending, payment.Settled, payment.Failed, payment.Expired, payment.Refunded}
		for i, from := range all {
			for j, to := range all {
				id := string(rune('a'+i)) + string(rune('a'+j))
				p := payment.Process{ID: id, MemberID: "m1", RequestID: id, RequestHash: "h", ProductType: "x", Status: payment.Prepared,
					Lang: "en", Amount: 100, Currency: "JPY", Details: []byte(`{}`), PaymentMethod: payment.MethodCreditCard,
					ExpiresAt: now.Add(time.Hour), NextCheckAt: now, CreatedAt: now, UpdatedAt: now}
				if err := st.CreateProcess(ctx, p); err != nil {
					t.Fatal(err)
				}
				// put the row in from (bypassing the store: this is the set-up)
				if _, err := db.Exec(`UPDATE payment_processes SET status = $1 WHERE id = $2`, string(from), id); err != nil {
					t.Fatal(err)
				}
				ok, err := st.Move(ctx, id, from, to, payment.Changes{}, now)
				if err != nil {
					t.Fatal(err)
				}
				legal := payment.CanMove(from, to)
				got, _ := st.Process(ctx, id)
				switch {
				case ok != legal:
					t.Errorf("%s → %s: moved %v, legal %v", from, to, ok, legal)
				case legal && got.Status != to, !legal && got.Status != from:
					t.Errorf("%s → %s: row is %s", from, to, got.Status)
				}
				// a stale caller that believes the row is still in from
				if legal && from != to {
					if again, _ := st.Move(ctx, id, from, to, payment.Changes{}, now); again {
						t.Errorf("%s → %s moved twice", from, to)
					}
				}
				// a wrong belief about the current state moves nothing
				for _, other := range all {
					if other == from || other == to {
						continue
					}
					if moved, _ := st.Move(ctx, id, other, to, payment.Changes{}, now); moved && payment.CanMove(other, to) {
						t.Errorf("moved from %s while the row was %s", other, got.Status)
					}
				}
				// close it so the member has no open process for the next pair
				if _, err := db.Exec(`UPDATE payment_processes SET status = 'failed' WHERE id = $1`, id); err != nil {
					t.Fatal(err)
				}
			}
		}
		// legal moves, spelled out (docs/payments.md)
		for _, m := range [][2]payment.Status{{"prepared", "pending"}, {"prepared", "expired"}, {"pending", "settled"},
			{"pending", "failed"}, {"pending", "expired"}, {"settled", "refunded"}} {
			if !payment.CanMove(m[0], m[1]) {
				t.Errorf("%s → %s should be legal", m[0], m[1])
			}
		}
		for _, m := range [][2]payment.Status{{"prepared", "settled"}, {"failed", "settled"}, {"expired", "settled"},
			{"settled", "pending"}, {"refunded", "settled"}, {"expired", "pending"}, {"failed", "pending"}} {
			if payment.CanMove(m[0], m[1]) {
				t.Errorf("%s → %s should be illegal", m[0], m[1])
			}
		}
	})
}

// TestPaymentOneOpenProcess: the database keeps one open process per
// member, and a second prepared order replaces the first.
func TestPaymentOneOpenProcess(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		db := paymentDB(t, engine)
		ctx := context.Background()
		st := store.NewPaymentStore(db)
		now := time.Now()
		mk := func(id string) payment.Process {
			return payment.Process{ID: id, MemberID: "m1", RequestID: id, RequestHash: "h", ProductType: "x", Status: payment.Prepared,
				Lang: "en", Amount: 100, Currency: "JPY", Details: []byte(`{}`), PaymentMethod: payment.MethodCreditCard,
				ExpiresAt: now.Add(time.Hour), NextCheckAt: now, CreatedAt: now, UpdatedAt: now}
		}
		if err := st.CreateProcess(ctx, mk("p1")); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateProcess(ctx, mk("p2")); err != nil {
			t.Fatal(err)
		}
		p1, _ := st.Process(ctx, "p1")
		if p1.Status != payment.Expired || p1.FailureCode != payment.FailSuperseded {
			t.Errorf("first order: %s %s", p1.Status, p1.FailureCode)
		}
		if ok, _ := st.Move(ctx, "p2", payment.Prepared, payment.Pending, payment.Changes{}, now); !ok {
			t.Fatal("p2 not moved")
		}
		if err := st.CreateProcess(ctx, mk("p3")); !errors.Is(err, payment.ErrConflict) {
			t.Errorf("a new order while one is pending: %v, want a conflict", err)
		}
		if err := st.CreateProcess(ctx, mk("p2")); !errors.Is(err, payment.ErrConflict) {
			t.Errorf("same id twice: %v, want a conflict", err)
		}
		if _, err := st.Process(ctx, "p3"); !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("the refused order was recorded: %v", err)
		}
		// the same requestId while another window's order is prepared: a
		// conflict, and the prepared order is not replaced by it
		if _, err := db.Exec(`UPDATE payment_processes SET status = 'failed' WHERE id = 'p2'`); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateProcess(ctx, mk("p4")); err != nil {
			t.Fatal(err)
		}
		again := mk("p5")
		again.RequestID = "p2"
		if err := st.CreateProcess(ctx, again); !errors.Is(err, payment.ErrConflict) {
			t.Errorf("a used requestId: %v, want a conflict", err)
		}
		if p4, _ := st.Process(ctx, "p4"); p4.Status != payment.Prepared {
			t.Errorf("the prepared order after a refused one: %s, want prepared", p4.Status)
		}
	})
}

// TestPaymentReleaseLeases: a stopping instance frees the leases it holds
// (and only its own), so another instance claims the work at once.
func TestPaymentReleaseLeases(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		db := paymentDB(t, engine)
		ctx := context.Background()
		st := store.NewPaymentStore(db)
		now := time.Now()
		p := payment.Process{ID: "p1", MemberID: "m1", RequestID: "r1", RequestHash: "h", ProductType: "x", Status: payment.Prepared,
			Lang: "en", Amount: 100, Currency: "JPY", Details: []byte(`{}`), PaymentMethod: payment.MethodCreditCard,
			ExpiresAt: now.Add(time.Hour), NextCheckAt: now, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateProcess(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := st.ClaimDue(ctx, "w-old", now, now.Add(time.Hour), 10)
		if err != nil || len(got) != 1 {
			t.Fatalf("claim: %v %v", got, err)
		}
		if again, _ := st.ClaimDue(ctx, "w-new", now, now.Add(time.Hour), 10); len(again) != 0 {
			t.Fatalf("claimed while leased: %v", again)
		}
		if n, err := st.ReleaseLeases(ctx, "w-other"); err != nil || n != 0 {
			t.Fatalf("another owner released %d (%v)", n, err)
		}
		if n, err := st.ReleaseLeases(ctx, "w-old"); err != nil || n != 1 {
			t.Fatalf("released %d (%v), want 1", n, err)
		}
		if again, err := st.ClaimDue(ctx, "w-new", now, now.Add(time.Hour), 10); err != nil || len(again) != 1 {
			t.Fatalf("after release: %v %v", again, err)
		}
	})
}

// TestPaymentSlipEndedSweep: a move that ends a slip records its mail as
// owed (notified false) in the same statement; the sweep leaves the mail
// a minute to whoever made the move, then claims the process, and once
// the mail is recorded sent claims it no more. A process ended without
// the flag is never claimed for a mail.
func TestPaymentSlipEndedSweep(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		db := paymentDB(t, engine)
		ctx := context.Background()
		st := store.NewPaymentStore(db)
		now := time.UnixMilli(time.Now().UnixMilli())
		canceled := payment.FailCanceled
		for _, tc := range []struct {
			id string
			to payment.Status
			c  payment.Changes
		}{
			{"cancelled", payment.Failed, payment.Changes{FailureCode: &canceled, Notify: true}},
			{"expired", payment.Expired, payment.Changes{Notify: true}},
			{"declined", payment.Failed, payment.Changes{FailureCode: ptr("declined")}},
		} {
			p := payment.Process{ID: tc.id, MemberID: "m1", RequestID: tc.id, RequestHash: "h", ProductType: "x", Status: payment.Prepared,
				Lang: "en", Amount: 100, Currency: "JPY", Details: []byte(`{}`), PaymentMethod: payment.MethodConvenienceStore,
				ExpiresAt: now.Add(time.Hour), NextCheckAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}
			if err := st.CreateProcess(ctx, p); err != nil {
				t.Fatal(err)
			}
			if ok, err := st.Move(ctx, tc.id, payment.Prepared, payment.Pending, payment.Changes{}, now); !ok || err != nil {
				t.Fatalf("%s: to pending: %v %v", tc.id, ok, err)
			}
			if ok, err := st.Move(ctx, tc.id, payment.Pending, tc.to, tc.c, now); !ok || err != nil {
				t.Fatalf("%s: to %s: %v %v", tc.id, tc.to, ok, err)
			}
			got, err := st.Process(ctx, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if want := !tc.c.Notify; got.Notified != want || got.Status != tc.to {
				t.Fatalf("%s: %s notified %v, want %s %v", tc.id, got.Status, got.Notified, tc.to, want)
			}
		}
		claim := func(at time.Time) []string {
			t.Helper()
			ps, err := st.ClaimDue(ctx, "w", at, at.Add(time.Minute), 10)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, p := range ps {
				ids = append(ids, p.ID)
				// released as of the move: the last claim is then due by
				// the minute, and only the recorded mail keeps it out
				if err := st.Update(ctx, p.ID, payment.Changes{ReleaseLease: true}, now); err != nil {
					t.Fatal(err)
				}
			}
			sort.Strings(ids)
			return ids
		}
		if ids := claim(now.Add(59 * time.Second)); len(ids) != 0 {
			t.Fatalf("claimed within the minute: %v", ids)
		}
		if ids := claim(now.Add(61 * time.Second)); strings.Join(ids, ",") != "cancelled,expired" {
			t.Fatalf("claimed %v, want cancelled,expired", ids)
		}
		for _, id := range []string{"cancelled", "expired"} {
			if err := st.MarkNotified(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		if ids := claim(now.Add(2 * time.Minute)); len(ids) != 0 {
			t.Fatalf("claimed after the mails were recorded sent: %v", ids)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// paymentDB is a database on engine holding member m1, whose payment
// processes the tests record.
func paymentDB(t *testing.T, engine store.Engine) *store.DB {
	t.Helper()
	db := apitest.OpenDB(t, engine)
	if _, err := db.Exec(`INSERT INTO members (id, email, email_key, password_hash, firstname, lastname, gender, birth, tel,
		address_country_code, created_at, updated_at) VALUES ('m1', 'a@example.com', 'a@example.com', 'x', 'A', 'B', 'male',
		'1990-01-01', '0312345678', 'JP', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	return db
}

// A process's secret (a voucher PIN) is erased SecretShownFor after its
// mail was stored, and at the latest at the retention when no mail holds
// it (the outbox could not store it); a process without a mailed secret
// and younger than the retention keeps it.
func TestForgetSecrets(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		db := paymentDB(t, engine)
		ctx := context.Background()
		st := store.NewPaymentStore(db)
		now := time.UnixMilli(time.Now().UnixMilli())
		settled := func(id string, at time.Time) {
			t.Helper()
			p := payment.Process{ID: id, MemberID: "m1", RequestID: id, RequestHash: "h", ProductType: "x", Status: payment.Prepared,
				Lang: "en", Amount: 100, Currency: "JPY", Details: []byte(`{}`), PaymentMethod: payment.MethodCreditCard,
				ExpiresAt: now.Add(time.Hour), NextCheckAt: now, CreatedAt: at, UpdatedAt: at}
			if err := st.CreateProcess(ctx, p); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`UPDATE payment_processes SET status = 'settled', settled_at = $1, secret = $2 WHERE id = $3`,
				at.UnixMilli(), `{"pin":"PIN-`+id+`"}`, id); err != nil {
				t.Fatal(err)
			}
		}
		settled("mailed-long-ago", now.Add(-time.Hour))
		settled("mailed-just-now", now.Add(-time.Hour))
		settled("never-mailed-old", now.Add(-31*24*time.Hour))
		settled("never-mailed-young", now.Add(-29*24*time.Hour))
		if err := st.SecretMailed(ctx, "mailed-long-ago", now.Add(-11*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := st.SecretMailed(ctx, "mailed-just-now", now.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		n, err := st.ForgetSecrets(ctx, now.Add(-10*time.Minute), now.Add(-30*24*time.Hour))
		if err != nil || n != 2 {
			t.Fatalf("forgot %d, %v; want 2", n, err)
		}
		for id, kept := range map[string]bool{"mailed-long-ago": false, "mailed-just-now": true, "never-mailed-old": false, "never-mailed-young": true} {
			p, err := st.Process(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if (len(p.Secret) > 0) != kept {
				t.Errorf("%s: secret %q, kept %v", id, p.Secret, kept)
			}
		}
		// taken by the page before: nothing left to erase, nothing moves
		if n, err := st.ForgetSecrets(ctx, now.Add(-10*time.Minute), now.Add(-30*24*time.Hour)); err != nil || n != 0 {
			t.Errorf("second pass forgot %d, %v", n, err)
		}
	})
}
