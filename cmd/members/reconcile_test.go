package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
	"members/internal/stripe/stripefake"
)

// TestGatewayReconcileCommand: `members gateway reconcile` exits 0 on a
// clean database and 1, printing the process, when the gateway's record of
// a settled purchase differs (refunded behind the server's back).
func TestGatewayReconcileCommand(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		tok := env.Tokenize(t, "4242424242424242", "123")
		var p struct{ PaymentProcessID, Status string }
		c.Do(http.MethodPost, "/api/peachpoints/buy", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 5000,
			"paymentMethod": "creditCard", "creditCardToken": tok["token"], "requestId": "reconcile-1"}).JSON(t, &p)
		c.Do(http.MethodPost, "/api/peachpoints/buy/"+p.PaymentProcessID+"/continue", nil).JSON(t, &p)
		if p.Status != "settled" {
			t.Fatalf("purchase: %+v", p)
		}
		reconcile := func() (string, error) {
			var out bytes.Buffer
			err := run(context.Background(), []string{"gateway", "reconcile", "--db", env.DSN()}, &out, io.Discard)
			return out.String(), err
		}
		if out, err := reconcile(); err != nil || !strings.Contains(out, "no differences") {
			t.Fatalf("clean: %v\n%s", err, out)
		}
		if _, err := env.App.DB.Exec(`UPDATE gw_payments SET status = 'refunded', refunded_amount = amount WHERE reference = $1`, p.PaymentProcessID); err != nil {
			t.Fatal(err)
		}
		out, err := reconcile()
		var code exitCode
		if !errors.As(err, &code) || code != 1 || !strings.Contains(out, p.PaymentProcessID) || !strings.Contains(out, "refunded 5000 at the gateway") {
			t.Fatalf("with a difference: %v (exit %d)\n%s", err, code, out)
		}
	})
}

// `members gateway reconcile --gateway stripe` compares with Stripe's
// PaymentIntents (here the stateful stand-in) as it does with the sandbox.
func TestGatewayReconcileStripe(t *testing.T) {
	fake := httptest.NewServer(stripefake.New(stripefake.Options{}))
	defer fake.Close()
	env := apitest.New(t, store.SQLite, func(c *app.Config) {
		c.Gateway = app.GatewayStripe
		c.Stripe = app.StripeConfig{SecretKey: "sk_test_r", PublishableKey: "pk_test_r", WebhookSecret: "whsec_r", APIURL: fake.URL}
	})
	c := env.Member(t)
	var p struct{ PaymentProcessID, Status string }
	c.Do(http.MethodPost, "/api/peachpoints/buy", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 5000,
		"paymentMethod": "creditCard", "creditCardToken": "pm_card_visa", "requestId": "reconcile-s1"}).JSON(t, &p)
	c.Do(http.MethodPost, "/api/peachpoints/buy/"+p.PaymentProcessID+"/continue", nil).JSON(t, &p)
	if p.Status != "settled" {
		t.Fatalf("purchase: %+v", p)
	}
	reconcile := func() (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), []string{"gateway", "reconcile", "--db", env.DSN(), "--gateway", "stripe",
			"--stripe-secret-key", "sk_test_r", "--stripe-api-url", fake.URL}, &out, io.Discard)
		return out.String(), err
	}
	if out, err := reconcile(); err != nil || !strings.Contains(out, "no differences") {
		t.Fatalf("clean: %v\n%s", err, out)
	}
	var pi string
	if err := env.App.DB.QueryRow(`SELECT gateway_payment_id FROM payment_processes WHERE id = $1`, p.PaymentProcessID).Scan(&pi); err != nil {
		t.Fatal(err)
	}
	// refunded in Stripe's dashboard, behind the server's back
	req, _ := http.NewRequest(http.MethodPost, fake.URL+"/v1/refunds", strings.NewReader("payment_intent="+pi))
	req.Header.Set("Authorization", "Bearer sk_test_r")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("refund at the stand-in: %v", err)
	}
	_ = res.Body.Close()
	out, err := reconcile()
	var code exitCode
	if !errors.As(err, &code) || code != 1 || !strings.Contains(out, p.PaymentProcessID) {
		t.Fatalf("with a difference: %v (exit %d)\n%s", err, code, out)
	}
}
