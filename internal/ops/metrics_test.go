package ops_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/flightops"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/ops"
	"members/internal/store"
)

// scrape reads /metrics as Prometheus does and returns each sample's
// value by its name and labels, e.g. members_login_refusals_total{reason="failed"}.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	srv := httptest.NewServer(ops.Handler(reg))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		var v float64
		if _, err := fmt.Sscan(line[i+1:], &v); err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestMetricsMove scrapes the metrics of the real server before and after
// a failed and a good login, a session check, a card purchase and a flight
// event, and finds each counter moved by what happened.
func TestMetricsMove(t *testing.T) {
	if ops.WebhookRoute != "POST "+app.WebhookPath {
		t.Fatalf("ops.WebhookRoute %q is not the webhook's route %q", ops.WebhookRoute, app.WebhookPath)
	}
	for _, engine := range apitest.Engines(t) {
		t.Run(string(engine), func(t *testing.T) {
			reg := prometheus.NewRegistry()
			env := apitest.New(t, engine, func(c *app.Config) { c.Metrics = reg })
			before := scrape(t, reg)

			c := env.Client(t)
			if r := c.Do("POST", "/api/session", map[string]string{"email": apitest.DemoEmail, "password": "wrong-password"}); r.Status != 401 {
				t.Fatalf("bad login: %d", r.Status)
			}
			c.Login(apitest.DemoEmail, apitest.DemoPassword)
			for range 3 {
				if r := c.Get("/api/session"); r.Status != 204 && r.Status != 200 {
					t.Fatalf("session: %d", r.Status)
				}
			}
			var cards struct {
				Creditcards []struct {
					Token   string
					Brand   string
					IsValid bool
				}
			}
			c.Get("/api/cc").JSON(t, &cards)
			var visa string
			for _, cc := range cards.Creditcards {
				if cc.Brand == "visa" && cc.IsValid {
					visa = cc.Token
				}
			}
			var p struct{ PaymentProcessId, Status string }
			c.Do("POST", "/api/peachpoints/buy", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 3000,
				"paymentMethod": "creditCard", "creditCardToken": visa, "requestId": "metrics-1"}).JSON(t, &p)
			c.Do("POST", "/api/peachpoints/buy/"+p.PaymentProcessId+"/continue", nil).JSON(t, &p)
			if p.Status != "settled" {
				t.Fatalf("purchase: %s", p.Status)
			}
			if _, err := env.App.FlightOps().Apply(context.Background(), flightops.Event{ID: "ev-1", Flight: "MM999", Date: "2026-12-01",
				Kind: flightops.KindDelay, OccurredAt: apitest.Start, Departure: ptr(apitest.Start.Add(48 * time.Hour))}, flightops.SourceOperator); err == nil {
				t.Fatal("an event of an unknown flight was applied")
			}
			after := scrape(t, reg)

			moved := func(name string, want float64) {
				t.Helper()
				if got := after[name] - before[name]; got != want {
					t.Errorf("%s moved by %v, want %v", name, got, want)
				}
			}
			moved(`members_http_requests_total{code="401",method="POST",route="POST /api/session"}`, 1)
			moved(`members_http_requests_total{code="204",method="POST",route="POST /api/session"}`, 1)
			moved(`members_login_refusals_total{reason="failed"}`, 1)
			moved(`members_login_refusals_total{reason="throttled"}`, 0)
			moved(`members_payment_transitions_total{from="prepared",to="pending"}`, 1)
			moved(`members_payment_transitions_total{from="pending",to="settled"}`, 1)
			moved(`members_flight_events_total{result="unknown_flight"}`, 1)
			if n := after[`members_http_request_duration_seconds_count{method="GET",route="GET /api/session"}`]; n < 3 {
				t.Errorf("session check latencies: %v observations, want 3+", n)
			}
			// the route is the pattern, never the path with its process id
			found := false
			for k := range after {
				if strings.HasPrefix(k, "members_http_requests_total{") && strings.Contains(k, "/continue") {
					found = true
					if strings.Contains(k, p.PaymentProcessId) || !strings.Contains(k, "/{") {
						t.Errorf("route label is not the pattern: %s", k)
					}
				}
			}
			if !found {
				t.Error("no request metrics of the continue call")
			}
			for _, name := range []string{
				`go_sql_open_connections{db_name="main"}`, `go_sql_wait_count_total{db_name="main"}`,
				`members_payment_processes_open{state="pending"}`, `members_payment_oldest_pending_seconds`,
				`members_mail_outbox{status="pending"}`, `members_payment_discrepancies`, `members_mail_failures_total{outcome="failed"}`,
				`members_payment_webhooks_total{result="accepted"}`, `members_mail_given_up_total`,
			} {
				if _, ok := after[name]; !ok {
					t.Errorf("no sample %s", name)
				}
			}
			if after[`members_database_snapshot_ok`] != 1 {
				t.Error("the database snapshot failed")
			}
			// a path nobody serves is one label, not one per path
			c.Get("/api/no-such-thing-" + t.Name())
			if scrape(t, reg)[`members_http_requests_total{code="404",method="GET",route="unmatched"}`] < 1 {
				t.Error("an unknown API path is not counted as unmatched")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// A mail whose last SMTP attempt fails counts members_mail_given_up_total
// once, apart from the retries, and logs an ERROR of its own.
func TestMailGivenUpCounted(t *testing.T) {
	reg := prometheus.NewRegistry()
	srv := mailtest.Start(t)
	srv.Refuse(true)
	env := apitest.New(t, store.SQLite, func(c *app.Config) { c.Metrics = reg; c.SMTPURL = srv.URL() })
	ctx := context.Background()
	m, err := env.App.Mailer(app.Config{})
	if err != nil {
		t.Fatal(err)
	}
	before := scrape(t, reg)
	if err := m.Send(ctx, mail.Message{Kind: "security_alert", To: "alert@example.com", Lang: "en", Subject: "New sign-in",
		Text: "A new sign-in.", HTML: "<p>A new sign-in.</p>"}); !errors.Is(err, mail.ErrNotSent) {
		t.Fatalf("send: %v", err)
	}
	for i := 1; i < mail.MaxAttempts; i++ {
		env.Clock.Advance(mail.Backoff(i))
		if _, err := m.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		if i == mail.MaxAttempts-2 {
			if n := scrape(t, reg)[`members_mail_given_up_total`] - before[`members_mail_given_up_total`]; n != 0 {
				t.Fatalf("given up counted %v times before the last attempt", n)
			}
		}
	}
	after := scrape(t, reg)
	for name, want := range map[string]float64{
		`members_mail_given_up_total`:                   1,
		`members_mail_failures_total{outcome="failed"}`: 1,
		`members_mail_failures_total{outcome="retry"}`:  mail.MaxAttempts - 1,
	} {
		if got := after[name] - before[name]; got != want {
			t.Errorf("%s moved by %v, want %v", name, got, want)
		}
	}
	if n := strings.Count(env.Log.String(), `"level":"ERROR","msg":"mail: given up, never sent"`); n != 1 {
		t.Errorf("%d given-up ERROR lines:\n%s", n, env.Log.String())
	}
}
