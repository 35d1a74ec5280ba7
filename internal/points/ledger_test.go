package points_test

import (
	"bytes"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/payment"
	"members/internal/points"
	"members/internal/store"
)

func service(t *testing.T, env *apitest.Env, days ...int) *points.Service {
	t.Helper()
	svc, err := env.App.PointsService(app.Config{PointsReminderDays: days})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// ledgerHolds checks the ledger's invariant over every voucher: the balance
// is the sum of its entries, each entry's balance_after is the running sum,
// and no balance is negative.
func ledgerHolds(t *testing.T, db *store.DB) {
	t.Helper()
	rows, err := db.Query(`SELECT v.number, v.balance, l.seq, l.delta, l.balance_after
		FROM point_vouchers v LEFT JOIN point_ledger l ON l.voucher_id = v.id ORDER BY v.number, l.seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type acc struct {
		balance, sum int64
		entries      int
	}
	by := map[string]*acc{}
	for rows.Next() {
		var number string
		var balance int64
		var seq sql.NullInt64
		var delta, after sql.NullInt64
		if err := rows.Scan(&number, &balance, &seq, &delta, &after); err != nil {
			t.Fatal(err)
		}
		a := by[number]
		if a == nil {
			a = &acc{balance: balance}
			by[number] = a
		}
		if !seq.Valid {
			continue
		}
		a.entries++
		if int(seq.Int64) != a.entries {
			t.Errorf("voucher %s: entry %d has seq %d", number, a.entries, seq.Int64)
		}
		a.sum += delta.Int64
		if after.Int64 != a.sum || a.sum < 0 {
			t.Errorf("voucher %s: entry %d balance_after %d, running sum %d", number, seq.Int64, after.Int64, a.sum)
		}
	}
	for n, a := range by {
		if a.entries == 0 || a.sum != a.balance || a.balance < 0 {
			t.Errorf("voucher %s: balance %d, ledger sum %d over %d entries", n, a.balance, a.sum, a.entries)
		}
	}
}

func TestLedgerConcurrentSpends(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		svc := service(t, env)
		ctx := t.Context()
		v, _, err := svc.Issue(ctx, points.IssueInput{Email: apitest.DemoEmail, Currency: "JPY", Amount: 1000})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, short := 0, 0
		for i := 0; i < 30; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := svc.Spend(ctx, demo.Member1, v.Number, 100, "booking:TEST")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case strings.Contains(err.Error(), "points.insufficient"):
					short++
				default:
					t.Errorf("spend: %v", err)
				}
			}()
		}
		wg.Wait()
		if ok != 10 || short != 20 {
			t.Errorf("%d spends went through, %d refused; want 10 and 20", ok, short)
		}
		var bal int64
		if err := env.App.DB.QueryRow(`SELECT balance FROM point_vouchers WHERE number = $1`, v.Number).Scan(&bal); err != nil || bal != 0 {
			t.Errorf("balance %d (%v)", bal, err)
		}
		// More than the balance, another member's voucher, an expired one.
		if _, err := svc.Spend(ctx, demo.Member1, demo.DemoVoucherCNY, 301, "x"); err == nil {
			t.Error("spent more than the balance")
		}
		if _, err := svc.Spend(ctx, demo.Member1, demo.DemoVoucherMember2, 1, "x"); err == nil || !strings.Contains(err.Error(), "not_found") {
			t.Errorf("spent another member's voucher: %v", err)
		}
		if _, err := svc.Spend(ctx, demo.Member1, demo.DemoVoucherExpiredTW, 1, "x"); err == nil {
			t.Error("spent an expired voucher")
		}
		if _, err := svc.Spend(ctx, demo.Member1, demo.DemoVoucherCNY, 0, "x"); err == nil {
			t.Error("spent nothing")
		}
		// The database itself refuses a negative balance.
		if _, err := env.App.DB.Exec(`UPDATE point_vouchers SET balance = -1 WHERE number = $1`, demo.DemoVoucherCNY); err == nil {
			t.Error("a negative balance was stored")
		}
		ledgerHolds(t, env.App.DB)
	})
}

func TestLedgerConcurrentExchangesAndReissues(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		svc := service(t, env)
		ctx := t.Context()
		codes, err := svc.MakeCodes(ctx, points.CodesInput{Currency: "SGD", Amount: 2550, Count: 3})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := map[string]int{}
		for i := 0; i < 24; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := codes[i%3]
				member := []string{demo.Member1, demo.Member2}[i%2]
				_, err := svc.Exchange(ctx, member, "en", points.ExchangeInput{Code: c.Code, Password: c.Password})
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					won[c.Code]++
				}
			}()
		}
		wg.Wait()
		for _, c := range codes {
			if won[c.Code] != 1 {
				t.Errorf("code %s exchanged %d times", c.Code, won[c.Code])
			}
		}
		var n int
		_ = env.App.DB.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE source = 'exchange'`).Scan(&n)
		if n != 3 {
			t.Errorf("%d vouchers from 3 codes", n)
		}
		// Store-level guard: redeeming a used code again fails.
		c, err := store.NewPointStore(env.App.DB).CodeByCode(ctx, codes[0].Code)
		if err != nil || c.UsedAt == nil {
			t.Fatalf("code not marked used: %+v %v", c, err)
		}
		err = store.NewPointStore(env.App.DB).Redeem(ctx, c.ID, demo.Member1, points.Voucher{Number: "1234567890123456", CurrentCode: "1234567890123456",
			Currency: "SGD", IssuedAmount: 1, Balance: 1, EffectiveDate: "2026-01-01", ExpireDate: "2027-01-01", TravelEffectiveDate: "2026-01-01",
			TravelExpireDate: "2027-01-01", PinHash: "x", StatusCode: points.StatusActive, Source: points.SourceExchange})
		if !errors.Is(err, points.ErrCodeUsed) {
			t.Errorf("second redeem: %v", err)
		}
		ledgerHolds(t, env.App.DB)
	})
}

func TestPurchaseGrant(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		// the PIN key outside the database (--pin-key)
		pinKey := bytes.Repeat([]byte{7}, 32)
		cfg := app.Config{PinKey: base64.StdEncoding.EncodeToString(pinKey)}
		svc, err := env.App.PointsService(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := svc.Sale()
		ctx := t.Context()
		if p.Type() != "peachpoints" {
			t.Fatal(p.Type())
		}
		// Quote: the product fields, checked.
		for body, field := range map[string]string{
			`{"currencyCode":"JPY","amount":3000}`:                           "nominee",
			`{"nominee":"山田","currencyCode":"JPY","amount":3000}`:            "nominee",
			`{"nominee":"Hanako Yamada","amount":3000}`:                      "currencyCode",
			`{"nominee":"Hanako Yamada","currencyCode":"USD","amount":3000}`: "currencyCode",
			`{"nominee":"Hanako Yamada","currencyCode":"JPY"}`:               "amount",
			`{"nominee":"Hanako Yamada","currencyCode":"JPY","amount":1234}`: "amount",
		} {
			_, err := p.Quote(ctx, demo.Member1, "en", purchaseInput(t, body))
			if e := apperr.As(err); e == nil || e.Code != apperr.Invalid || !e.Fields.Has(field) {
				t.Errorf("%s: %v, want a %s error", body, err, field)
			}
		}
		o, err := p.Quote(ctx, demo.Member1, "jp", purchaseInput(t, `{"nominee":"  hanako   yamada ","currencyCode":"sgd","amount":5000}`))
		if err != nil || o.Amount != 5000 || o.Currency != "SGD" || !strings.Contains(string(o.Details), `"nominee":"hanako yamada"`) {
			t.Fatalf("quote: %+v %v", o, err)
		}
		// the amount and currency are the order's, stored once (not again in the details)
		if strings.Contains(string(o.Details), "amount") || strings.Contains(string(o.Details), "SGD") {
			t.Errorf("details repeat the order: %s", o.Details)
		}
		g := payment.Grant{ProcessID: "proc-1", MemberID: demo.Member1, Lang: "en", Order: o, SettledAt: env.Clock.Now()}
		var granted payment.Granted
		err = env.App.DB.Tx(ctx, func(tx *sql.Tx) error {
			var err error
			granted, err = p.Grant(ctx, store.UnitOfWork(tx), g)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var goods points.Goods
		var sec points.Secret
		_ = json.Unmarshal(granted.Goods, &goods)
		_ = json.Unmarshal(granted.Secret, &sec)
		if goods.IssuedCurrencyAmount != 5000 || goods.CurrencyCode != "SGD" || goods.IssuedName != "hanako yamada" ||
			goods.PaymentMethod != "creditCard" || goods.PaymentCurrencyAmount != 5000 || len(sec.Pin) != 8 || strings.Contains(string(granted.Goods), sec.Pin) {
			t.Errorf("granted %s / %s", granted.Goods, granted.Secret)
		}
		v, err := store.NewPointStore(env.App.DB).ByNumber(ctx, goods.PointNumber)
		if err != nil || v.MemberID != demo.Member1 || v.PaymentProcessID != "proc-1" {
			t.Errorf("voucher %+v %v", v, err)
		}
		// The PIN is kept under a keyed HMAC with the key given outside the
		// database: what the database holds alone does not verify it.
		withKey, err := env.App.SecretHasher(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		dbOnly, err := env.App.SecretHasher(ctx, app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(v.PinHash, "$hmac-sha256$k="+auth.KeyID(pinKey)+"$") || !withKey.Verify(sec.Pin, v.PinHash) ||
			withKey.Verify(sec.Pin+"0", v.PinHash) || dbOnly.Verify(sec.Pin, v.PinHash) || auth.NewHasher(auth.DefaultPasswordCost).Verify(sec.Pin, v.PinHash) {
			t.Errorf("pin hash %q of pin %q", v.PinHash, sec.Pin)
		}
		// A second grant for the same process fails and rolls back.
		err = env.App.DB.Tx(ctx, func(tx *sql.Tx) error {
			_, err := p.Grant(ctx, store.UnitOfWork(tx), g)
			return err
		})
		if err == nil {
			t.Error("granted twice")
		}
		var n int
		_ = env.App.DB.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE payment_process_id = 'proc-1'`).Scan(&n)
		if n != 1 {
			t.Errorf("%d vouchers for one process", n)
		}
		// A process recorded by an earlier release kept the amount and
		// currency in its details too: its grant reads them from the order.
		old := payment.Grant{ProcessID: "proc-old", MemberID: demo.Member1, SettledAt: env.Clock.Now(), Order: payment.Order{
			Amount: 3000, Currency: "JPY", Details: []byte(`{"nominee":"TARO PEACH","currencyCode":"JPY","amount":3000}`)}}
		var oldGranted payment.Granted
		if err := env.App.DB.Tx(ctx, func(tx *sql.Tx) error {
			var err error
			oldGranted, err = p.Grant(ctx, store.UnitOfWork(tx), old)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var oldGoods points.Goods
		if err := json.Unmarshal(oldGranted.Goods, &oldGoods); err != nil || oldGoods.IssuedCurrencyAmount != 3000 || oldGoods.CurrencyCode != "JPY" || oldGoods.IssuedName != "TARO PEACH" {
			t.Errorf("an earlier release's process: %s %v", oldGranted.Goods, err)
		}
		// A grant rolled back with its transaction leaves nothing.
		_ = env.App.DB.Tx(ctx, func(tx *sql.Tx) error {
			_, _ = p.Grant(ctx, store.UnitOfWork(tx), payment.Grant{ProcessID: "proc-2", MemberID: demo.Member1, Order: o, SettledAt: env.Clock.Now()})
			return errors.New("settlement failed")
		})
		_ = env.App.DB.QueryRow(`SELECT COUNT(*) FROM point_vouchers WHERE payment_process_id = 'proc-2'`).Scan(&n)
		if n != 0 {
			t.Error("a rolled-back grant left a voucher")
		}
		// Notify mails number and PIN.
		if err := p.Notify(ctx, g, granted); err != nil {
			t.Fatal(err)
		}
		msgs, _ := store.NewMailOutbox(env.App.DB).List(ctx, 1)
		if len(msgs) != 1 || !strings.Contains(msgs[0].Text, goods.PointNumber) || !strings.Contains(msgs[0].Text, sec.Pin) || !strings.Contains(msgs[0].Text, "SGD 50.00") {
			t.Errorf("purchase mail: %+v", msgs)
		}
		ledgerHolds(t, env.App.DB)
	})
}

func TestExpiryReminders(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := t.Context()
		if _, err := env.App.DB.Exec(`UPDATE members SET lang = 'jp' WHERE id = $1`, demo.Member1); err != nil {
			t.Fatal(err)
		}
		outbox := store.NewMailOutbox(env.App.DB)
		reminders := func() []string {
			ms, err := outbox.List(ctx, 100)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, m := range ms {
				if m.Kind == "points_reminder" {
					out = append(out, m.To+" "+m.Subject+" "+m.Text)
				}
			}
			return out
		}
		// Two instances at once: the JPY voucher expiring 2026-11-30 (10
		// days left) gets one mail, for the 30-day threshold.
		a, b := service(t, env, 30, 7), service(t, env, 30, 7)
		var wg sync.WaitGroup
		for _, s := range []*points.Service{a, b, a, b} {
			wg.Add(1)
			go func() { defer wg.Done(); _, _ = s.SendReminders(ctx) }()
		}
		wg.Wait()
		got := reminders()
		if len(got) != 1 || !strings.Contains(got[0], "Peach Pointsの有効期限が近づいています") || !strings.Contains(got[0], "3,000円") ||
			!strings.Contains(got[0], demo.DemoVoucherThisMonth) {
			t.Fatalf("first pass: %q", got)
		}
		if n, _ := a.SendReminders(ctx); n != 0 {
			t.Errorf("sent again: %d", n)
		}
		// Four days later the 7-day threshold is reached: one more mail.
		env.Clock.Advance(4 * 24 * time.Hour)
		if n, err := a.SendReminders(ctx); n != 1 || err != nil {
			t.Errorf("7-day pass: %d %v", n, err)
		}
		if n, _ := b.SendReminders(ctx); n != 0 {
			t.Errorf("7-day pass repeated: %d", n)
		}
		// No thresholds configured: nothing.
		none, err := env.App.PointsService(app.Config{PointsReminderDays: []int{}})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := none.SendReminders(ctx); n != 0 {
			t.Errorf("no thresholds sent %d", n)
		}
	})
}

// purchaseInput is a purchase body's points fields, as the edge decodes them.
func purchaseInput(t *testing.T, body string) points.PurchaseInput {
	t.Helper()
	var in points.PurchaseInput
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	return in
}
