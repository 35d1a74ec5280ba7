package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

var pinLine = regexp.MustCompile(`PIN\D{0,20}(\d{8})`)

// A mail's secrets (the PIN of a bought voucher, the token of a password
// reset link, the token of an account deletion link) are stored only
// until SMTP has the mail: then nothing in the database holds them, not
// the outbox, not the free space of the SQLite file, not its write-ahead
// log; not the server's log either, and `members mail show` (the
// outbox's Get) shows the mail without them.
func TestMailSecretsAreGoneOnceSent(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		env := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
		pe := &payEnv{Env: env}
		c := env.Member(t)
		c.Lang = "en"
		text := func(r mailtest.Received) string {
			d := r.Decode(t)
			return string(d.Parts["text/plain"])
		}
		waitNew := func(before int) mailtest.Received {
			t.Helper()
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if msgs := srv.Messages(); len(msgs) > before {
					return msgs[len(msgs)-1]
				}
			}
			t.Fatal("no mail")
			return mailtest.Received{}
		}

		// A points purchase: its mail carries the voucher's PIN.
		n := len(srv.Messages())
		tok := pe.Tokenize(t, "4242424242424242", "123")
		p := buy(t, c, map[string]any{"nominee": "Hanako Yamada", "currencyCode": "SGD", "amount": 5000, "paymentMethod": "creditCard",
			"creditCardToken": tok["token"], "requestId": newRequestID()})
		contSettled(t, c, p.PaymentProcessID)
		status(t, c, p.PaymentProcessID) // the PIN is shown once, then the process forgets it
		m := pinLine.FindStringSubmatch(text(waitNew(n)))
		if m == nil {
			t.Fatal("no PIN in the points mail")
		}
		pin := m[1]

		// A password reset link.
		n = len(srv.Messages())
		if r := env.Client(t).Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.DemoEmail}); r.Status != http.StatusNoContent {
			t.Fatalf("reset: %d %s", r.Status, r.Body)
		}
		m = resetLink.FindStringSubmatch(text(waitNew(n)))
		if m == nil {
			t.Fatal("no reset link")
		}
		reset := m[1]

		// An account deletion link.
		n = len(srv.Messages())
		if r := c.Do(http.MethodPost, "/api/me/deletion", map[string]string{"password": apitest.DemoPassword}); r.Status != http.StatusOK {
			t.Fatalf("deletion: %d %s", r.Status, r.Body)
		}
		m = deletionLink.FindStringSubmatch(text(waitNew(n)))
		if m == nil {
			t.Fatal("no deletion link")
		}
		deletion := m[1]
		secrets := map[string]string{"PIN": pin, "reset token": reset, "deletion token": deletion}

		ctx := context.Background()
		mailer, err := env.App.Mailer(app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		// The outbox shows the mails sent, without their secrets.
		list, err := mailer.Outbox().List(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]bool{}
		for _, s := range list {
			kinds[s.Kind] = true
			shown, err := mailer.Outbox().Get(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			all := shown.Subject + shown.Text + shown.HTML + strings.Join(mapValues(shown.Headers), " ")
			for what, v := range secrets {
				if strings.Contains(all, v) {
					t.Errorf("mail show of the %s mail (%s) has the %s", s.Kind, s.Status, what)
				}
			}
			if s.Kind == "points_issued" && (s.Status != mail.Sent || !strings.Contains(shown.Text, "[removed after sending ")) {
				t.Errorf("points mail %s: %q", s.Status, shown.Text)
			}
		}
		if !kinds["points_issued"] || !kinds[mail.KindPasswordReset] || !kinds["account_deletion"] {
			t.Fatalf("mails in the outbox: %v", kinds)
		}
		// The worker's pass after sending (Mailer.Run does it every
		// PollEvery) empties SQLite's write-ahead log.
		if err := mailer.ForgetSent(ctx); err != nil {
			t.Fatal(err)
		}
		for what, v := range secrets {
			if strings.Contains(env.Log.String(), v) {
				t.Errorf("the server's log has the %s", what)
			}
		}
		secretsRestNowhere(t, env, engine, secrets)
	})
}

// secretsRestNowhere: none of secrets is in the database: not in the
// SQLite file or its write-ahead log, not in any PostgreSQL row.
func secretsRestNowhere(t *testing.T, env *apitest.Env, engine store.Engine, secrets map[string]string) {
	t.Helper()
	if engine == store.SQLite {
		path := strings.TrimPrefix(env.DSN(), "sqlite:")
		for _, f := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(f)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			for what, v := range secrets {
				if bytes.Contains(b, []byte(v)) {
					t.Errorf("%s holds the %s", f, what)
				}
			}
		}
		return
	}
	// PostgreSQL: every row of every table of the schema, as text.
	tables := apitest.Tables(t, env.App.DB)
	if len(tables) < 30 {
		t.Fatalf("only %d tables", len(tables))
	}
	for _, table := range tables {
		var dump string
		if err := env.App.DB.QueryRowContext(context.Background(), `SELECT COALESCE(string_agg(t::text, E'\n'), '') FROM `+table+` t`).Scan(&dump); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		for what, v := range secrets {
			if strings.Contains(dump, v) {
				t.Errorf("table %s holds the %s", table, what)
			}
		}
	}
}

// A voucher's PIN whose buyer never asks for the status after settling (a
// closed tab; the settlement came by webhook or by the worker) leaves
// payment_processes once the mail that holds it has been in the outbox
// for the page's 10 minutes: then neither the process nor the outbox
// (the mail was sent) nor the files hold it. A buyer who asks within the
// 10 minutes is still shown it once.
func TestVoucherPINLeavesTheProcessUnread(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		env := apitest.New(t, engine, func(c *app.Config) {
			c.SMTPURL = srv.URL()
			c.GatewaySlow = 3 * time.Second // card 0119's answer outlives the timeout
			c.GatewayTimeout = 1500 * time.Millisecond
		})
		pe := &payEnv{Env: env}
		c := env.Member(t)
		c.Lang = "en"
		ctx := context.Background()
		body := func(card string) map[string]any {
			tok := pe.Tokenize(t, card, "123")
			return map[string]any{"nominee": "Hanako Yamada", "currencyCode": "SGD", "amount": 5000, "paymentMethod": "creditCard",
				"creditCardToken": tok["token"], "requestId": newRequestID()}
		}
		settled := func(id string) bool {
			t.Helper()
			return pe.processColumn(t, id, "status") == "settled"
		}

		// By webhook: a 3-D Secure card; the member passes the challenge
		// and closes the tab; the gateway's webhook settles.
		byWebhook := buy(t, c, body("4000000000003220"))
		if got := cont(t, c, byWebhook.PaymentProcessID); got.Status != "pending" {
			t.Fatalf("challenge: %+v", got)
		}
		if _, err := env.App.Gateway.Sandbox.CustomerStep(ctx, pe.gatewayPaymentID(t, byWebhook.PaymentProcessID), true); err != nil {
			t.Fatal(err)
		}
		pe.deliver(t)
		if !settled(byWebhook.PaymentProcessID) {
			t.Fatal("the webhook did not settle")
		}

		// By the worker: card 0119's answer comes after the timeout; the
		// worker's status query settles.
		byWorker := buy(t, c, body("4000000000000119"))
		if got := cont(t, c, byWorker.PaymentProcessID); got.Status != "pending" {
			t.Fatalf("after the timeout: %+v", got)
		}
		env.Clock.Advance(5 * time.Second)
		if _, err := env.App.Payments.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if !settled(byWorker.PaymentProcessID) {
			t.Fatal("the worker did not settle")
		}

		// Both PIN mails arrive; their PINs are in the processes for the
		// page's moment.
		var pins []string
		for deadline := time.Now().Add(10 * time.Second); len(pins) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			pins = pins[:0]
			for _, m := range srv.Messages() {
				d := m.Decode(t)
				if pin := pinLine.FindStringSubmatch(string(d.Parts["text/plain"])); pin != nil {
					pins = append(pins, pin[1])
				}
			}
		}
		if len(pins) != 2 {
			t.Fatalf("PIN mails: %d", len(pins))
		}
		for _, id := range []string{byWebhook.PaymentProcessID, byWorker.PaymentProcessID} {
			if pe.processColumn(t, id, "secret") == "" {
				t.Fatalf("process %s: the secret went before the page's moment", id)
			}
		}
		env.Clock.Advance(9 * time.Minute)
		if _, err := env.App.Payments.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if pe.processColumn(t, byWorker.PaymentProcessID, "secret") == "" {
			t.Fatal("the secret went before the 10 minutes")
		}

		// The 10 minutes pass; no page asked.
		env.Clock.Advance(2 * time.Minute)
		if _, err := env.App.Payments.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		mailer, err := env.App.Mailer(app.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if err := mailer.ForgetSent(ctx); err != nil {
			t.Fatal(err)
		}
		secretsRestNowhere(t, env, engine, map[string]string{"webhook's PIN": pins[0], "worker's PIN": pins[1]})
		// The page opened late says settled, without a PIN (the mail has it).
		if st := status(t, c, byWebhook.PaymentProcessID); st.Status != "settled" || len(st.Secret) > 0 {
			t.Errorf("late status: %+v", st)
		}
	})
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
