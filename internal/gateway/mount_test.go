package gateway_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// members serve mounts the sandbox at /gateway/ and hands its URL and keys
// to the app; the calls go over HTTP through the members server.
func TestMountedInMembersServer(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		conn := env.App.Gateway
		if conn.Sandbox == nil || conn.URL != env.Server.URL+"/gateway" || !strings.HasPrefix(conn.Key, "sk_test_") ||
			!strings.HasPrefix(conn.WebhookSecret, "whsec_") {
			t.Fatalf("gateway conn %+v (server %s)", conn, env.Server.URL)
		}
		call := func(method, path, body string, hdr ...string) (int, map[string]any) {
			req, _ := http.NewRequest(method, conn.URL+path, bytes.NewBufferString(body))
			req.Header.Set("Content-Type", "application/json")
			for i := 0; i+1 < len(hdr); i += 2 {
				req.Header.Set(hdr[i], hdr[i+1])
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			return res.StatusCode, m
		}
		// The browser tokenises same-origin without session or CSRF token.
		st, tok := call("POST", "/v1/tokens", `{"cardNumber":"4242424242424242","expirationDate":"30/01","cvv":"123","holderName":"HANAKO"}`,
			"Origin", env.Server.URL, "Sec-Fetch-Site", "same-origin")
		if st != 200 || tok["gateway"] != "ndhk" || tok["last4"] != "4242" {
			t.Fatalf("tokenise: %d %v", st, tok)
		}
		auth := "Bearer " + conn.Key
		st, p := call("POST", "/v1/payments", `{"amount":3000,"currency":"JPY","method":"card","token":"`+tok["token"].(string)+`","reference":"r1"}`,
			"Authorization", auth, "Idempotency-Key", "m1")
		if st != 200 || p["status"] != "created" {
			t.Fatalf("create: %d %v", st, p)
		}
		id := p["id"].(string)
		if st, p = call("POST", "/v1/payments/"+id+"/authorize", "", "Authorization", auth, "Idempotency-Key", "m2"); st != 200 || p["status"] != "authorized" {
			t.Fatalf("authorize: %d %v", st, p)
		}
		if st, p = call("POST", "/v1/payments/"+id+"/capture", "", "Authorization", auth, "Idempotency-Key", "m3"); st != 200 || p["status"] != "captured" {
			t.Fatalf("capture: %d %v", st, p)
		}
		if st, _ = call("GET", "/v1/payments/"+id, "", "Authorization", "Bearer nope"); st != 401 {
			t.Fatalf("wrong key: %d", st)
		}
	})
}

// An outside gateway: nothing is mounted, the configured URL and keys are
// handed on.
func TestOutsideGateway(t *testing.T) {
	env := apitest.New(t, store.SQLite, func(c *app.Config) {
		c.GatewayURL, c.GatewayKey, c.GatewayWebhookSecret = "http://127.0.0.1:8090/gateway/", "sk_x", "whsec_y"
	})
	conn := env.App.Gateway
	if conn.Sandbox != nil || conn.URL != "http://127.0.0.1:8090/gateway" || conn.Key != "sk_x" || conn.WebhookSecret != "whsec_y" {
		t.Fatalf("conn %+v", conn)
	}
	res, err := http.Get(env.Server.URL + "/gateway/v1/payments/x")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == 401 {
		t.Fatal("the sandbox answered although an outside gateway is configured")
	}
}

// --gateway-db puts the sandbox's tables in a database of its own.
func TestMountedWithOwnDatabase(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		gwDSN := apitest.DSN(t, engine)
		env := apitest.New(t, engine, func(c *app.Config) { c.GatewayDB = gwDSN })
		conn := env.App.Gateway
		req, _ := http.NewRequest("POST", conn.URL+"/v1/payments", strings.NewReader(`{"amount":100,"currency":"JPY","method":"paypay"}`))
		req.Header.Set("Authorization", "Bearer "+conn.Key)
		req.Header.Set("Idempotency-Key", "own-db")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("create: %d", res.StatusCode)
		}
		var n int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'gw_payments' AND table_schema = current_schema()`).Scan(&n); engine == store.Postgres && (err != nil || n != 0) {
			t.Fatalf("gateway tables in the members schema: %d %v", n, err)
		}
		if engine == store.SQLite {
			if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'gw_payments'`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("gateway tables in the members database: %d %v", n, err)
			}
		}
		own, err := store.Open(t.Context(), gwDSN)
		if err != nil {
			t.Fatal(err)
		}
		defer own.Close()
		if err := own.QueryRow(`SELECT COUNT(*) FROM gw_payments`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("payments in the gateway's database: %d %v", n, err)
		}
	})
}
