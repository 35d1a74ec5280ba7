package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

// TestGatewayReconcileCommand: `members gateway reconcile` exits 0 on a
// clean database and 1, printing the process, when the gateway's record of
// a settled purchase differs (refunded behind the server's back).
func TestGatewayReconcileCommand(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		exp := env.Clock.Now().AddDate(2, 0, 0).Format("06/01")
		b, _ := json.Marshal(map[string]string{"cardNumber": "4242424242424242", "expirationDate": exp, "cvv": "123", "holderName": "TARO PEACH"})
		resp, err := http.Post(env.Server.URL+"/gateway/v1/tokens", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var tok struct{ Token string }
		_ = json.NewDecoder(resp.Body).Decode(&tok)
		resp.Body.Close()
		var p struct{ PaymentProcessID, Status string }
		c.Do(http.MethodPost, "/api/peachpoints/buy", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 5000,
			"paymentMethod": "creditCard", "creditCardToken": tok.Token, "requestId": "reconcile-1"}).JSON(t, &p)
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
