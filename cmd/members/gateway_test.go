package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/gateway"
	"members/internal/store"
)

// start runs a long-lived command until the test ends and waits for the
// first line that matches re.
func start(t *testing.T, re *regexp.Regexp, args ...string) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &apitest.LogBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, out, io.Discard) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", args[0], err)
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
		select {
		case err := <-done:
			t.Fatalf("%s exited: %v\n%s", args[0], err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("%s did not start: %s", args[0], out.String())
	return nil
}

func postJSON(t *testing.T, url, key, idem, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if idem != "" {
		req.Header.Set("Idempotency-Key", idem)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != 200 {
		t.Fatalf("POST %s: %d %v %v", url, res.StatusCode, m, err)
	}
	return m
}

// The standalone gateway and its operator commands on one database.
func TestGatewayCommand(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		var (
			mu     sync.Mutex
			events []gateway.Event
		)
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			if gateway.Verify("whsec_cmd", r.Header.Get("Gateway-Signature"), b, time.Now(), 5*time.Minute) != nil {
				w.WriteHeader(400)
				return
			}
			var ev gateway.Event
			_ = json.Unmarshal(b, &ev)
			mu.Lock()
			events = append(events, ev)
			mu.Unlock()
		}))
		defer hook.Close()
		dsn := apitest.DSN(t, engine)
		m := start(t, regexp.MustCompile(`gateway: listening on (\S+) .*\ngateway: secret key (\S+)\n`),
			"gateway", "--addr", "127.0.0.1:0", "--db", dsn, "--webhook-url", hook.URL, "--webhook-secret", "whsec_cmd")
		base, key := m[1], m[2]
		if !strings.HasSuffix(base, "/gateway") || !strings.HasPrefix(key, "sk_test_") {
			t.Fatalf("listening line %q", m[0])
		}
		tok := postJSON(t, base+"/v1/tokens", "", "", `{"cardNumber":"4242424242424242","expirationDate":"35/01","cvv":"123","holderName":"A"}`)
		card := postJSON(t, base+"/v1/payments", key, "c1", `{"amount":500,"currency":"JPY","method":"card","token":"`+tok["token"].(string)+`"}`)
		postJSON(t, base+"/v1/payments/"+card["id"].(string)+"/authorize", key, "c2", "")
		var ids []string
		for i, method := range []string{"konbini", "paypay"} {
			p := postJSON(t, base+"/v1/payments", key, "k"+method, `{"amount":1200,"currency":"JPY","method":"`+method+`","reference":"R`+method+`"}`)
			p = postJSON(t, base+"/v1/payments/"+p["id"].(string)+"/authorize", key, "a"+method, "")
			if p["status"] != "pending" {
				t.Fatalf("payment %d: %v", i, p)
			}
			ids = append(ids, p["id"].(string))
		}

		out, _, err := call(t, "gateway", "list", "--db", dsn)
		if err != nil || !strings.Contains(out, ids[0]) || !strings.Contains(out, "konbini") || !strings.Contains(out, "pending") ||
			!strings.Contains(out, "authorized") || !strings.HasPrefix(out, "ID") {
			t.Fatalf("list: %q %v", out, err)
		}
		if out, _, err := call(t, "gateway", "settle", ids[0], "--db", dsn); err != nil || out != ids[0]+" captured\n" {
			t.Fatalf("settle: %q %v", out, err)
		}
		if out, _, err := call(t, "gateway", "fail", ids[1], "--db", dsn); err != nil || out != ids[1]+" failed\n" {
			t.Fatalf("fail: %q %v", out, err)
		}
		if _, _, err := call(t, "gateway", "fail", ids[0], "--db", dsn); err == nil || !strings.Contains(err.Error(), "is captured") {
			t.Fatalf("fail a captured payment: %v", err)
		}
		if _, _, err := call(t, "gateway", "settle", "pay_nope", "--db", dsn); err == nil || !strings.Contains(err.Error(), "no payment pay_nope") {
			t.Fatalf("settle unknown: %v", err)
		}
		if _, _, err := call(t, "gateway", "settle"); err == nil || !strings.Contains(err.Error(), "missing payment ID") {
			t.Fatalf("settle without id: %v", err)
		}
		// The running gateway delivers what the operator did.
		want := map[string]bool{"payment.authorized": true, "payment.captured": true, "payment.failed": true}
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			got := map[string]bool{}
			for _, e := range events {
				got[e.Type] = true
			}
			mu.Unlock()
			if len(got) == len(want) {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("events delivered: %v", events)
	})
}

// members serve --gateway-sandbox mounts the sandbox at /gateway/.
func TestServeMountsGateway(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
	m := start(t, regexp.MustCompile(`listening on (http://\S+)`), "serve", "--gateway-sandbox", "--addr", "127.0.0.1:0", "--db", dsn)
	tok := postJSON(t, m[1]+"/gateway/v1/tokens", "", "", `{"cardNumber":"378282246310005","expirationDate":"35/01","cvv":"1234","holderName":"A"}`)
	if tok["brand"] != "amex" || tok["gateway"] != "ndhk" {
		t.Fatalf("token %v", tok)
	}
}
