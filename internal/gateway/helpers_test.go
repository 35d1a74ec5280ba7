package gateway_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// gw is a sandbox gateway served over real HTTP on a fresh database.
type gw struct {
	t      testing.TB
	G      *gateway.Gateway
	Srv    *httptest.Server
	URL    string // base URL (…/gateway)
	Key    string
	Clock  *apitest.Clock
	DB     *store.DB
	client *http.Client
}

// newGateway starts the gateway on engine; opt may change the options.
func newGateway(t testing.TB, engine store.Engine, opt ...func(*gateway.Options)) *gw {
	t.Helper()
	db, err := store.Open(context.Background(), apitest.DSN(t, engine))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return startOn(t, db, apitest.NewClock(apitest.Start), opt...)
}

// startOn starts a gateway instance on an existing database.
func startOn(t testing.TB, db *store.DB, clock *apitest.Clock, opt ...func(*gateway.Options)) *gw {
	t.Helper()
	o := gateway.Options{DB: db.DB, Dialect: string(db.Engine), Now: clock.Now, SlowAuthorize: 400 * time.Millisecond}
	for _, f := range opt {
		f(&o)
	}
	g, err := gateway.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/gateway/", g.Handler())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &gw{t: t, G: g, Srv: srv, URL: srv.URL + "/gateway", Key: g.Keys().SecretKey, Clock: clock, DB: db,
		client: &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
}

type resp struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r resp) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %q: %v", r.Body, err)
	}
}

// do sends a call; body is JSON-encoded unless []byte or nil; headers are
// name/value pairs. The secret key is sent unless a header "Authorization"
// is given (empty to send none).
func (g *gw) do(method, path string, body any, header ...string) resp {
	g.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			g.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, g.URL+path, rd)
	if err != nil {
		g.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+g.Key)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := g.client.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{Status: res.StatusCode, Header: res.Header, Body: b}
}

// tokenize tokenises a card number with a future expiry and a CVV.
func (g *gw) tokenize(number string) string {
	g.t.Helper()
	cvv := "123"
	if len(number) == 15 {
		cvv = "1234"
	}
	r := g.do("POST", "/v1/tokens", map[string]string{"cardNumber": number, "expirationDate": "30/12", "cvv": cvv, "holderName": "TARO YAMADA"},
		"Authorization", "")
	if r.Status != 200 {
		g.t.Fatalf("tokenize %s: %d %s", number, r.Status, r.Body)
	}
	var tok gateway.Token
	r.JSON(g.t, &tok)
	return tok.Token
}

func newKey() string { return "k-" + rand.Text() }

// post sends an idempotent server call with a fresh key.
func (g *gw) post(path string, body any) resp {
	g.t.Helper()
	return g.do("POST", path, body, "Idempotency-Key", newKey())
}

// create creates a payment of amount JPY with method (and token for cards).
func (g *gw) create(method, token string, amount int64) gateway.Payment {
	g.t.Helper()
	r := g.post("/v1/payments", map[string]any{"amount": amount, "currency": "JPY", "method": method, "token": token,
		"description": "points", "reference": "proc-1", "returnUrl": "https://members.example.com/payment/return"})
	if r.Status != 200 {
		g.t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var p gateway.Payment
	r.JSON(g.t, &p)
	return p
}

// action posts to a payment's action and decodes the payment.
func (g *gw) action(id, action string, body any, wantStatus int) gateway.Payment {
	g.t.Helper()
	r := g.post("/v1/payments/"+id+"/"+action, body)
	if r.Status != wantStatus {
		g.t.Fatalf("%s %s: got %d %s, want %d", action, id, r.Status, r.Body, wantStatus)
	}
	var p gateway.Payment
	if r.Status == 200 {
		r.JSON(g.t, &p)
	}
	return p
}

func (g *gw) get(id string) gateway.Payment {
	g.t.Helper()
	r := g.do("GET", "/v1/payments/"+id, nil)
	if r.Status != 200 {
		g.t.Fatalf("get %s: %d %s", id, r.Status, r.Body)
	}
	var p gateway.Payment
	r.JSON(g.t, &p)
	return p
}
