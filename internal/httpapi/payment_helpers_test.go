package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/apperr"
	"members/internal/mail/mailtest"
	"members/internal/payment"
	"members/internal/points"
	"members/internal/store"
	"members/internal/validate"
)

// testGoods is a product of the tests: it sells "amount" yen of nothing,
// keeps one row per grant in test_goods (process_id UNIQUE, as a real
// product's goods table) and counts its grants and notifications, so a
// test can see a grant doubled or lost.
type testGoods struct {
	typ      string
	grants   atomic.Int64
	notifies atomic.Int64
}

func (p *testGoods) Type() string { return p.typ }

// Quote is sold as the points are: the edge hands it the points' fields.
func (p *testGoods) Quote(_ context.Context, _, _ string, in points.PurchaseInput) (payment.Order, error) {
	errs := validate.Errors{}
	errs.Check("amount", in.Amount >= 1000 && in.Amount <= 100000, "validation.something")
	if in.CurrencyCode == "" {
		in.CurrencyCode = "JPY"
	}
	errs.Check("currencyCode", payment.ValidCurrency(in.CurrencyCode), "validation.something")
	if !errs.Empty() {
		return payment.Order{}, apperr.FromFields(errs)
	}
	d, _ := json.Marshal(map[string]any{"amount": in.Amount})
	return payment.Order{Amount: in.Amount, Currency: in.CurrencyCode, Description: "Test goods", Details: d}, nil
}

func (p *testGoods) Grant(ctx context.Context, uow payment.Tx, g payment.Grant) (payment.Granted, error) {
	tx, err := store.TxOf(uow)
	if err != nil {
		return payment.Granted{}, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO test_goods (process_id, member_id, amount) VALUES ($1, $2, $3)`,
		g.ProcessID, g.MemberID, g.Order.Amount); err != nil {
		return payment.Granted{}, err
	}
	p.grants.Add(1)
	return payment.Granted{
		Goods:  json.RawMessage(fmt.Sprintf(`{"voucher":"V-%s"}`, g.ProcessID[:8])),
		Secret: json.RawMessage(`{"pin":"4321"}`),
	}, nil
}

func (p *testGoods) Notify(context.Context, payment.Grant, payment.Granted) error {
	p.notifies.Add(1)
	return nil
}

// payEnv is a server with the real sandbox gateway and the test product
// registered as "peachpoints".
type payEnv struct {
	*apitest.Env
	goods *testGoods
}

func newPayEnv(t *testing.T, engine store.Engine, cfg ...func(*app.Config)) *payEnv {
	t.Helper()
	env := apitest.New(t, engine, append([]func(*app.Config){func(c *app.Config) {
		// Card 0119's held answer outlives the timeout; every other call
		// has to answer within it on a loaded CI machine too (at 500 ms a
		// token lookup timed out there, and the register answered 500).
		c.GatewaySlow = 3 * time.Second
		c.GatewayTimeout = 1500 * time.Millisecond
	}}, cfg...)...)
	if _, err := env.App.DB.Exec(`CREATE TABLE test_goods (process_id TEXT NOT NULL UNIQUE, member_id TEXT NOT NULL, amount BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	g := &testGoods{typ: "peachpoints"}
	payment.Replace(env.App.Checkouts.Points, g)
	return &payEnv{Env: env, goods: g}
}

// goodsRows counts the granted rows of process id ("" for all).
func (e *payEnv) goodsRows(t *testing.T, id string) int {
	t.Helper()
	var n int
	q, args := `SELECT COUNT(*) FROM test_goods`, []any{}
	if id != "" {
		q, args = q+` WHERE process_id = $1`, []any{id}
	}
	if err := e.App.DB.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// process is a payment process answer.
type process struct {
	PaymentProcessID string                `json:"paymentProcessId"`
	Status           string                `json:"status"`
	FailureCode      string                `json:"failureCode"`
	NextAction       *struct{ URL string } `json:"nextAction"`
	Goods            json.RawMessage       `json:"goods"`
	Secret           json.RawMessage       `json:"secret"`
	RefundedAmount   int64                 `json:"refundedAmount"`
	Description      string                `json:"description"`
	ReplacedBy       *struct {
		PaymentProcessID string `json:"paymentProcessId"`
		ProductType      string `json:"productType"`
	} `json:"replacedBy"`
}

func decodeProcess(t *testing.T, r *apitest.Response) process {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("want 200, got %d %s", r.Status, r.Body)
	}
	var p process
	r.JSON(t, &p)
	return p
}

var reqSeq atomic.Int64

func newRequestID() string { return fmt.Sprintf("req-%d-%d", time.Now().UnixNano(), reqSeq.Add(1)) }

// cardBody is a purchase of amount yen with a card token.
func cardBody(token string, amount int64) map[string]any {
	return map[string]any{"amount": amount, "currencyCode": "JPY", "paymentMethod": "creditCard",
		"creditCardToken": token, "requestId": newRequestID()}
}

// buy prepares a purchase and fails the test unless it is prepared.
func buy(t *testing.T, c *apitest.Client, body map[string]any) process {
	t.Helper()
	p := decodeProcess(t, c.Do(http.MethodPost, "/api/peachpoints/buy", body))
	if p.Status != "prepared" {
		t.Fatalf("buy: status %s", p.Status)
	}
	return p
}

func cont(t *testing.T, c *apitest.Client, id string) process {
	t.Helper()
	return decodeProcess(t, c.Do(http.MethodPost, "/api/peachpoints/buy/"+id+"/continue", nil))
}

func status(t *testing.T, c *apitest.Client, id string) process {
	t.Helper()
	return decodeProcess(t, c.Get("/api/peachpoints/buy/"+id+"/status"))
}

// contSettled continues a prepared process and waits (5 s at most) until it is
// settled; any other end fails the test.
func contSettled(t *testing.T, c *apitest.Client, id string) process {
	t.Helper()
	done := cont(t, c, id)
	for i := 0; done.Status == "pending" && i < 50; i++ {
		time.Sleep(100 * time.Millisecond)
		done = status(t, c, id)
	}
	if done.Status != "settled" {
		t.Fatalf("purchase: %+v", done)
	}
	return done
}

// gatewayPaymentID is the sandbox payment of a process.
func (e *payEnv) gatewayPaymentID(t *testing.T, processID string) string {
	t.Helper()
	return e.processColumn(t, processID, "gateway_payment_id")
}

// processColumn is a text column of a process's row.
func (e *payEnv) processColumn(t *testing.T, processID, column string) string {
	t.Helper()
	var v string
	if err := e.App.DB.QueryRow(`SELECT `+column+` FROM payment_processes WHERE id = $1`, processID).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// deliver runs the sandbox's webhook delivery once.
func (e *payEnv) deliver(t *testing.T) int {
	t.Helper()
	n, err := e.App.Gateway.Sandbox.DeliverDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// webhook posts a signed event to the members server.
func (e *payEnv) webhook(t *testing.T, body []byte, at time.Time) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.Server.URL+"/webhooks/gateway", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Gateway-Signature", payment.Sign([]byte(e.App.Gateway.WebhookSecret), body, at))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// newMailPayEnv is newPayEnv with its mails sent over SMTP to an
// in-process server, which it returns.
func newMailPayEnv(t *testing.T, engine store.Engine) (*mailtest.Server, *payEnv) {
	t.Helper()
	srv := mailtest.Start(t)
	return srv, newPayEnv(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL() })
}
