package httpapi_test

import (
	"bytes"
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/payment"
	"members/internal/store"
)

// During a change of webhook secret an event signed with the previous
// secret still verifies; the gateway signs with the current one; an event
// signed with any other secret is refused.
func TestWebhookSecretRotation(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine, func(c *app.Config) {
			c.GatewayWebhookSecret = "whsec_current"
			c.GatewayWebhookSecretPrevious = []string{"whsec_previous"}
		})
		if got := env.App.Gateway.Sandbox.Keys().WebhookSecret; got != "whsec_current" {
			t.Fatalf("the sandbox signs with %q, want the current secret", got)
		}
		post := func(secret, id string) int {
			body := []byte(`{"id":"` + id + `","type":"payment.captured","created":0,"data":{"payment":{"id":"pay_none","reference":"pp_none"}}}`)
			req, _ := http.NewRequest(http.MethodPost, env.Server.URL+app.WebhookPath, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Gateway-Signature", payment.Sign([]byte(secret), body, env.Clock.Now()))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		for _, tc := range []struct {
			secret string
			want   int
		}{
			{"whsec_current", http.StatusOK},
			{"whsec_previous", http.StatusOK},
			{"whsec_unknown", http.StatusUnauthorized},
		} {
			if got := post(tc.secret, "evt_"+tc.secret); got != tc.want {
				t.Errorf("signed with %s: %d, want %d", tc.secret, got, tc.want)
			}
		}
	})
}
