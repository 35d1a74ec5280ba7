package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/payment"
	"members/internal/store"
)

// TestPaymentPurchaseBlock: a pending process blocks its member's new
// orders until its BlockUntil, however far its deadline is (a slip's:
// days); the next order after that gives the block up (the process stays
// pending, listed, payable). An open process with an exclusive key (the
// same pass period) refuses another order of the key (ErrSameGoods),
// whatever the block, and the refused order's transaction changes
// nothing. The database itself refuses a second open row of the key,
// even one written around the store, and parallel orders cannot both hold
// the block or the key.
func TestPaymentPurchaseBlock(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		db := paymentDB(t, engine)
		for _, m := range []string{"m2", "m3"} {
			if _, err := db.Exec(`INSERT INTO members (id, email, email_key, password_hash, firstname, lastname, gender, birth, tel,
				address_country_code, created_at, updated_at) VALUES ($1, $2, $2, 'x', 'A', 'B', 'male', '1990-01-01', '0312345678', 'JP', 0, 0)`,
				m, m+"@example.com"); err != nil {
				t.Fatal(err)
			}
		}
		ctx := context.Background()
		st := store.NewPaymentStore(db)
		start := time.UnixMilli(time.Now().UnixMilli())
		mk := func(member, id, key string, at time.Time) payment.Process {
			return payment.Process{ID: id, MemberID: member, RequestID: id, RequestHash: "h", ProductType: "x", Status: payment.Prepared,
				Lang: "en", Amount: 100, Currency: "JPY", Details: []byte(`{}`), PaymentMethod: payment.MethodConvenienceStore,
				ExpiresAt: at.Add(30 * time.Minute), BlockUntil: at.Add(30 * time.Minute), ExclusiveKey: key,
				NextCheckAt: at, CreatedAt: at, UpdatedAt: at}
		}
		// a slip: pending, its block 30 minutes, its deadline three days
		slipUntil := start.Add(72 * time.Hour)
		pend := func(id string) {
			t.Helper()
			if ok, err := st.Move(ctx, id, payment.Prepared, payment.Pending, payment.Changes{ExpiresAt: &slipUntil}, start); err != nil || !ok {
				t.Fatalf("pending %s: %v %v", id, ok, err)
			}
		}
		if err := st.CreateProcess(ctx, mk("m1", "slip", "x:k", start)); err != nil {
			t.Fatal(err)
		}
		pend("slip")
		if err := st.CreateProcess(ctx, mk("m1", "early", "", start.Add(29*time.Minute))); !errors.Is(err, payment.ErrConflict) {
			t.Fatalf("an order within the block: %v, want ErrConflict", err)
		}
		if p, err := st.BlockingProcess(ctx, "m1", start.Add(29*time.Minute)); err != nil || p.ID != "slip" {
			t.Fatalf("blocking within the block: %v %v", p.ID, err)
		}
		if _, err := st.BlockingProcess(ctx, "m1", start.Add(31*time.Minute)); !errors.Is(err, payment.ErrNotFound) {
			t.Fatalf("blocking after the block: %v, want none", err)
		}
		after := start.Add(31 * time.Minute)
		if err := st.CreateProcess(ctx, mk("m1", "later", "", after)); err != nil {
			t.Fatalf("an order after the block: %v", err)
		}
		slip, _ := st.Process(ctx, "slip")
		if slip.Status != payment.Pending || !slip.ExpiresAt.Equal(slipUntil) {
			t.Fatalf("the slip after the next order: %s until %v, want pending until its deadline", slip.Status, slip.ExpiresAt)
		}
		if p, err := st.BlockingProcess(ctx, "m1", after); err != nil || p.ID != "later" {
			t.Fatalf("the block after the next order: %v %v, want the new order", p.ID, err)
		}
		if ps, err := st.PendingProcesses(ctx, "m1"); err != nil || len(ps) != 1 || ps[0].ID != "slip" {
			t.Fatalf("pending: %v %v", ps, err)
		}

		// the slip's goods again: refused, and the prepared order stays
		if err := st.CreateProcess(ctx, mk("m1", "again", "x:k", after.Add(time.Minute))); !errors.Is(err, payment.ErrSameGoods) {
			t.Fatalf("the same goods after the block: %v, want ErrSameGoods", err)
		}
		if p, _ := st.Process(ctx, "later"); p.Status != payment.Prepared {
			t.Errorf("the prepared order after a refused one of the same goods: %s", p.Status)
		}
		if _, err := st.Process(ctx, "again"); !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("the refused order was recorded: %v", err)
		}
		// other goods replace the prepared order as before
		if err := st.CreateProcess(ctx, mk("m1", "other", "x:other", after.Add(time.Minute))); err != nil {
			t.Fatalf("other goods: %v", err)
		}
		// the database, written around the store: a second open row of the
		// key is refused, blocking or not; an ended one is not counted
		for _, status := range []string{"pending", "prepared"} {
			_, err := db.Exec(`INSERT INTO payment_processes (id, member_id, request_id, request_hash, product_type, status, lang, amount,
				currency, description, details, payment_method, expires_at, created_at, updated_at, blocking, exclusive_key)
				VALUES ($1, 'm1', $1, 'h', 'x', $2, 'en', 100, 'JPY', '', '{}', 'convenienceStore', 0, 0, 0, FALSE, 'x:k')`, "raw-"+status, status)
			if err == nil {
				t.Errorf("a second %s row of the key was written", status)
			}
		}
		if _, err := db.Exec(`INSERT INTO payment_processes (id, member_id, request_id, request_hash, product_type, status, lang, amount,
			currency, description, details, payment_method, expires_at, created_at, updated_at, blocking, exclusive_key)
			VALUES ('raw-failed', 'm1', 'raw-failed', 'h', 'x', 'failed', 'en', 100, 'JPY', '', '{}', 'convenienceStore', 0, 0, 0, TRUE, 'x:k')`); err != nil {
			t.Errorf("an ended row of the key: %v", err)
		}

		// parallel orders of one key by a member with nothing open: one
		// open order of it stays (each replaces the one before, or finds
		// another's blocking at that instant)
		const n = 12
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = st.CreateProcess(ctx, mk("m2", fmt.Sprintf("m2-%d", i), "x:k2", start))
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil && !errors.Is(err, payment.ErrConflict) {
				t.Errorf("parallel order %d: %v", i, err)
			}
		}
		openOf := func(member, key string) int {
			t.Helper()
			var k int
			if err := db.QueryRow(`SELECT COUNT(*) FROM payment_processes WHERE member_id = $1 AND exclusive_key = $2
				AND status IN ('prepared', 'pending')`, member, key).Scan(&k); err != nil {
				t.Fatal(err)
			}
			return k
		}
		if k := openOf("m2", "x:k2"); k != 1 {
			t.Errorf("%d open orders of the key after parallel orders, want 1", k)
		}
		// parallel orders of a key a slip past its block holds: none passes
		if err := st.CreateProcess(ctx, mk("m3", "m3-slip", "x:k3", start)); err != nil {
			t.Fatal(err)
		}
		pend("m3-slip")
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = st.CreateProcess(ctx, mk("m3", fmt.Sprintf("m3-%d", i), "x:k3", after))
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if !errors.Is(err, payment.ErrSameGoods) {
				t.Errorf("parallel order %d of the slip's goods: %v, want ErrSameGoods", i, err)
			}
		}
		if k := openOf("m3", "x:k3"); k != 1 {
			t.Errorf("%d open orders of the slip's key, want the slip alone", k)
		}
	})
}
