package httpapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/mail/mailtest"
	"members/internal/payment"
	"members/internal/store"
)

type pendingList struct {
	Payments []struct {
		PaymentProcessID string    `json:"paymentProcessId"`
		Description      string    `json:"description"`
		Amount           int64     `json:"amount"`
		Currency         string    `json:"currency"`
		PaymentMethod    string    `json:"paymentMethod"`
		PayURL           string    `json:"payUrl"`
		ExpiresAt        time.Time `json:"expiresAt"`
		Slip             *struct {
			ReceiptNumber      string `json:"receiptNumber"`
			ConfirmationNumber string `json:"confirmationNumber"`
			InstitutionNumber  string `json:"institutionNumber"`
			CustomerNumber     string `json:"customerNumber"`
		} `json:"slip"`
	} `json:"payments"`
}

func pendingOf(t *testing.T, c *apitest.Client) pendingList {
	t.Helper()
	r := c.Get("/api/payments/pending")
	if r.Status != http.StatusOK {
		t.Fatalf("pending payments = %d %s", r.Status, r.Body)
	}
	var l pendingList
	r.JSON(t, &l)
	return l
}

func slipBody(amount int64) map[string]any {
	return map[string]any{"amount": amount, "currencyCode": "JPY", "paymentMethod": "convenienceStore", "requestId": newRequestID()}
}

func qrBody(amount int64) map[string]any {
	return map[string]any{"amount": amount, "currencyCode": "JPY", "paymentMethod": "otherPayment",
		"otherPaymentType": "paypay", "requestId": newRequestID()}
}

// TestPendingSlip: a konbini payment left for later is listed with its
// amount, what it buys, the slip's numbers, the page to pay on and the
// gateway's deadline for a slip (3 days); its slip is mailed once in the
// member's language; a new purchase is refused with a message that names
// the pending payments; another member neither sees nor cancels it.
func TestPendingSlip(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		c := env.Member(t)
		c.Lang = "jp"
		if l := pendingOf(t, c); len(l.Payments) != 0 {
			t.Fatalf("pending before any purchase: %+v", l)
		}
		p := buy(t, c, slipBody(3000))
		got := cont(t, c, p.PaymentProcessID)
		if got.Status != "pending" || got.NextAction == nil || !contains(got.NextAction.URL, "/gateway/pay/") {
			t.Fatalf("konbini: %+v", got)
		}
		// a second status read (the return page's poll) mails nothing more
		status(t, c, p.PaymentProcessID)
		l := pendingOf(t, c)
		if len(l.Payments) != 1 {
			t.Fatalf("pending: %+v", l)
		}
		it := l.Payments[0]
		if it.PaymentProcessID != p.PaymentProcessID || it.Amount != 3000 || it.Currency != "JPY" || it.Description == "" ||
			it.PaymentMethod != "convenienceStore" || !contains(it.PayURL, "/gateway/pay/") {
			t.Errorf("item: %+v", it)
		}
		if it.Slip == nil || len(it.Slip.ReceiptNumber) < 10 || it.Slip.InstitutionNumber == "" || it.Slip.CustomerNumber == "" || it.Slip.ConfirmationNumber == "" {
			t.Fatalf("slip: %+v", it.Slip)
		}
		if left := it.ExpiresAt.Sub(env.Clock.Now()); left < 71*time.Hour || left > 73*time.Hour {
			t.Errorf("a slip's deadline is %v away, want 3 days", left)
		}
		// the mail: in Japanese, with the numbers and the deadline in Japan time
		d := srv.WaitFor(apitest.DemoEmail).Decode(t)
		text := string(d.Parts["text/plain"])
		if !contains(d.Subject, "お支払い番号") || !contains(text, it.Slip.ReceiptNumber) || !contains(text, it.Slip.CustomerNumber) ||
			!contains(text, "日本時間") || !contains(text, "3,000円") || !contains(text, "/payments/pending?lang=jp") {
			t.Errorf("slip mail: %q\n%s", d.Subject, text)
		}
		// a mail is delivered before the request or the background round
		// that sends it returns: once they have, none is on its way
		if n := len(srv.Messages()); n != 1 {
			t.Errorf("%d mails, want the slip once", n)
		}
		// a new purchase is blocked with a message naming the pending payments
		c.Lang = "en"
		r := c.Do(http.MethodPost, "/api/peachpoints/buy", cardBody(savedCard(t, c, "visa")["token"].(string), 1000))
		if r.Status != http.StatusConflict || r.Map(t)["errorKey"] != "payment_pending" || !contains(r.Map(t)["message"].(string), "Pending payments") {
			t.Fatalf("buy while a slip is pending = %d %s", r.Status, r.Body)
		}
		// the other member sees nothing and cannot cancel it
		m2 := env.Member2(t)
		if l := pendingOf(t, m2); len(l.Payments) != 0 {
			t.Errorf("member 2 sees %+v", l)
		}
		if r := m2.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil); r.Status != http.StatusNotFound {
			t.Errorf("member 2 cancel = %d", r.Status)
		}
		// without the CSRF token: refused
		c.NoCSRF = true
		if r := c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil); r.Status != http.StatusForbidden {
			t.Errorf("cancel without CSRF = %d", r.Status)
		}
		c.NoCSRF = false
		if st := status(t, c, p.PaymentProcessID); st.Status != "pending" {
			t.Fatalf("after refused cancels: %+v", st)
		}
	})
}

// TestPendingCancel: cancel ends the payment at the gateway and in the
// process (failed, canceled) once, however often it is asked; the member
// can buy again. A payment made before the cancel is settled, not
// cancelled (409), and its goods granted once.
func TestPendingCancel(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		p := buy(t, c, qrBody(2000))
		cont(t, c, p.PaymentProcessID)
		gpID := env.gatewayPaymentID(t, p.PaymentProcessID)
		for i := range 3 {
			got := decodeProcess(t, c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil))
			if got.Status != "failed" || got.FailureCode != "canceled" {
				t.Fatalf("cancel %d: %+v", i, got)
			}
		}
		pay, err := env.App.Gateway.Sandbox.Payment(context.Background(), gpID, "")
		if err != nil || pay.Status != "failed" || pay.FailureCode != "canceled" {
			t.Fatalf("gateway after cancel: %+v %v", pay, err)
		}
		// the customer can no longer pay it
		if _, err := env.App.Gateway.Sandbox.Settle(context.Background(), gpID); err == nil {
			t.Error("a cancelled payment was paid")
		}
		if l := pendingOf(t, c); len(l.Payments) != 0 {
			t.Errorf("pending after cancel: %+v", l)
		}
		// paid before the cancel: settled, 409, goods once
		p2 := buy(t, c, slipBody(2500))
		cont(t, c, p2.PaymentProcessID)
		if _, err := env.App.Gateway.Sandbox.Settle(context.Background(), env.gatewayPaymentID(t, p2.PaymentProcessID)); err != nil {
			t.Fatal(err)
		}
		r := c.Do(http.MethodPost, "/api/payments/"+p2.PaymentProcessID+"/cancel", nil)
		if r.Status != http.StatusConflict {
			t.Fatalf("cancel of a paid slip = %d %s", r.Status, r.Body)
		}
		if st := status(t, c, p2.PaymentProcessID); st.Status != "settled" || env.goodsRows(t, p2.PaymentProcessID) != 1 {
			t.Fatalf("paid slip: %+v rows %d", st, env.goodsRows(t, p2.PaymentProcessID))
		}
		if r := c.Do(http.MethodPost, "/api/payments/"+p2.PaymentProcessID+"/cancel", nil); r.Status != http.StatusConflict {
			t.Errorf("cancel of a settled payment = %d", r.Status)
		}
		if r := c.Do(http.MethodPost, "/api/payments/nope/cancel", nil); r.Status != http.StatusNotFound {
			t.Errorf("cancel of an unknown payment = %d", r.Status)
		}
	})
}

// TestPendingDeadlineByMethod: the deadline is the gateway's for the
// method. A QR payment expires after its minutes; a slip is still open
// after a day and two days, and the expiry work ends it after its third.
func TestPendingDeadlineByMethod(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		p := buy(t, c, qrBody(1500))
		cont(t, c, p.PaymentProcessID)
		l := pendingOf(t, c)
		if len(l.Payments) != 1 || l.Payments[0].Slip != nil {
			t.Fatalf("QR pending: %+v", l)
		}
		if left := l.Payments[0].ExpiresAt.Sub(env.Clock.Now()); left < 25*time.Minute || left > 31*time.Minute {
			t.Errorf("a QR payment's deadline is %v away, want minutes", left)
		}
		c = expiredAfter(t, env, p.PaymentProcessID, 31*time.Minute)

		s := buy(t, c, slipBody(2000))
		cont(t, c, s.PaymentProcessID)
		for _, after := range []time.Duration{31 * time.Minute, 24 * time.Hour, 47 * time.Hour} {
			env.Clock.Advance(after)
			if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			c = env.Member(t)
			if st := status(t, c, s.PaymentProcessID); st.Status != "pending" {
				t.Fatalf("slip after +%v: %+v", after, st)
			}
		}
		env.Clock.Advance(time.Hour)
		if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		c = env.Member(t)
		if st := status(t, c, s.PaymentProcessID); st.Status != "expired" {
			t.Fatalf("slip after 3 days: %+v", st)
		}
		if l := pendingOf(t, c); len(l.Payments) != 0 {
			t.Errorf("pending after expiry: %+v", l)
		}
	})
}

// TestPendingCancelRacesPayment: the member cancels a slip (from several
// windows at once) while the shop takes the money. Whichever wins, the
// gateway and the process agree: paid means settled with the goods once,
// cancelled means failed with nothing granted and nothing to pay.
func TestPendingCancelRacesPayment(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		c := env.Member(t)
		for round := range 4 {
			p := buy(t, c, slipBody(2000+int64(round)))
			cont(t, c, p.PaymentProcessID)
			gpID := env.gatewayPaymentID(t, p.PaymentProcessID)
			var wg sync.WaitGroup
			for range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil)
				}()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = env.App.Gateway.Sandbox.Settle(context.Background(), gpID) // refused once cancelled
			}()
			wg.Wait()

			pay, err := env.App.Gateway.Sandbox.Payment(context.Background(), gpID, "")
			if err != nil {
				t.Fatal(err)
			}
			// the shop's payment reaches the process by webhook or status check
			var st process
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if st = status(t, c, p.PaymentProcessID); st.Status == "settled" || st.Status == "failed" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("round %d: the process did not end: %+v (gateway %s)", round, st, pay.Status)
				}
			}
			goods := env.goodsRows(t, p.PaymentProcessID)
			switch {
			case pay.Status == "failed" && pay.FailureCode == "canceled":
				if st.Status != "failed" || st.FailureCode != "canceled" || goods != 0 {
					t.Errorf("round %d: cancelled at the gateway, process %+v with %d goods", round, st, goods)
				}
			case st.Status == "settled":
				if goods != 1 {
					t.Errorf("round %d: paid, %d goods rows", round, goods)
				}
			default:
				t.Errorf("round %d: gateway %s/%s, process %+v", round, pay.Status, pay.FailureCode, st)
			}
			if l := pendingOf(t, c); len(l.Payments) != 0 {
				t.Fatalf("round %d: still pending: %+v", round, l)
			}
		}
	})
}

// TestSlipEndedMails: a slip that ends unpaid is mailed once, in the
// member's language, saying nothing was charged, with the receipt number
// and a button to the payment's page: cancelled by the member (however
// often the cancel is asked) or expired at its deadline. A QR payment that
// expires on the page the member is on is not mailed.
func TestSlipEndedMails(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv, env := newMailPayEnv(t, engine)
		c := env.Member(t)
		c.Lang = "jp"
		mails := func(want int) []mailtest.Received {
			t.Helper()
			// a mail is delivered before the request or the background
			// round that sends it returns: once they have, none is on its way
			got := srv.Messages()
			if len(got) != want {
				t.Fatalf("%d mails, want %d", len(got), want)
			}
			return got
		}

		// cancelled: the slip's mail, then one mail for three cancels
		p := buy(t, c, slipBody(3000))
		cont(t, c, p.PaymentProcessID)
		receipt := pendingOf(t, c).Payments[0].Slip.ReceiptNumber
		mails(1)
		for range 3 {
			if got := decodeProcess(t, c.Do(http.MethodPost, "/api/payments/"+p.PaymentProcessID+"/cancel", nil)); got.Status != "failed" || got.FailureCode != "canceled" {
				t.Fatalf("cancel: %+v", got)
			}
		}
		d := mails(2)[1].Decode(t)
		text := string(d.Parts["text/plain"])
		for _, want := range []string{"取り消しました", "料金は発生していません", "3,000円", receipt, "/payment/peachpoints/" + p.PaymentProcessID + "/result?lang=jp"} {
			if !contains(d.Subject+text, want) {
				t.Errorf("cancelled slip mail lacks %q: %q\n%s", want, d.Subject, text)
			}
		}

		// expired: mailed when the expiry work ends it after its third day
		c.Lang = "en"
		p = buy(t, c, slipBody(2000))
		cont(t, c, p.PaymentProcessID)
		mails(3)
		env.Clock.Advance(73 * time.Hour)
		for range 2 {
			if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		c = env.Member(t) // the session timed out meanwhile
		if st := status(t, c, p.PaymentProcessID); st.Status != "expired" {
			t.Fatalf("slip after 73 hours: %+v", st)
		}
		d = mails(4)[3].Decode(t)
		text = string(d.Parts["text/plain"])
		for _, want := range []string{"has expired", "Nothing was charged", "JPY 2,000", "start the purchase again"} {
			if !contains(d.Subject+text, want) {
				t.Errorf("expired slip mail lacks %q: %q\n%s", want, d.Subject, text)
			}
		}

		// a QR payment's expiry: no mail
		p = buy(t, c, qrBody(1500))
		cont(t, c, p.PaymentProcessID)
		c = expiredAfter(t, env, p.PaymentProcessID, 31*time.Minute)
		mails(4)
	})
}

// TestSlipEndedMailAfterACrash: a server killed between the move that
// ended a slip and the mail leaves the mail owed (the move recorded it);
// the background work's sweep sends it once the minute given to the
// request has passed, and only once.
func TestSlipEndedMailAfterACrash(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		srv, env := newMailPayEnv(t, engine)
		c := env.Member(t)
		p := buy(t, c, slipBody(3000))
		cont(t, c, p.PaymentProcessID)
		srv.WaitFor(apitest.DemoEmail) // the slip's own mail
		// what the cancel's request did before it was killed: its move
		code := payment.FailCanceled
		moved, err := store.NewPaymentStore(env.App.DB).Move(ctx, p.PaymentProcessID, payment.Pending, payment.Failed,
			payment.Changes{FailureCode: &code, Notify: true}, env.Clock.Now())
		if err != nil || !moved {
			t.Fatalf("move: %v %v", moved, err)
		}
		// each round mails synchronously: when it returns, what it sent
		// has reached the SMTP server
		round := func() int {
			t.Helper()
			if _, err := env.App.Payments.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			return len(srv.Messages())
		}
		if n := round(); n != 1 {
			t.Fatalf("%d mails within the request's minute, want the slip's only", n)
		}
		env.Clock.Advance(2 * time.Minute)
		if n := round(); n != 2 {
			t.Fatalf("%d mails after the sweep, want the slip's and the cancellation's", n)
		}
		d := srv.Messages()[1].Decode(t)
		if !contains(d.Subject, "cancelled") || !contains(string(d.Parts["text/plain"]), "/payment/peachpoints/"+p.PaymentProcessID+"/result?lang=en") {
			t.Errorf("the swept mail: %q\n%s", d.Subject, d.Parts["text/plain"])
		}
		env.Clock.Advance(2 * time.Minute)
		if n := round(); n != 2 {
			t.Errorf("%d mails after another round, want the cancellation's once", n)
		}
	})
}

// expiredAfter moves the clock by d, lets the background work run and
// checks that the member's process has expired; it returns the member's
// new client (the session timed out meanwhile).
func expiredAfter(t *testing.T, env *payEnv, processID string, d time.Duration) *apitest.Client {
	t.Helper()
	env.Clock.Advance(d)
	if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := env.Member(t)
	if st := status(t, c, processID); st.Status != "expired" {
		t.Fatalf("after %s: %+v", d, st)
	}
	return c
}
