package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/store"
)

// The sandbox's test cards; the first five pay.
var testCards = [][1]string{
	{"4242424242424242"}, {"5555555555554444"}, {"3530111333300000"}, {"378282246310005"}, {"36227206271667"},
	{"4000000000000002"}, {"4000000000009995"}, {"4000000000000069"}, {"4000000000003220"}, {"4000000000000119"},
}

// TestNoCardNumberStored registers and pays with every test card through
// the real server, then looks for each card number in the SQLite files (or
// a pg_dump of the schema) and in everything the server logged.
func TestNoCardNumberStored(t *testing.T) {
	forEachServer(t, nil, func(t *testing.T, engine store.Engine, srv *realServer) {
		dsn := srv.dsn
		m := newMember(t, srv.base())
		for i, c := range testCards {
			tok := m.tokenize(c[0])
			// register the card (declines are refused only when paying)
			m.do("POST", "/api/cc/register", map[string]any{"token": tok, "gateway": "ndhk", "currency": "JPY"})
			// pay with it, a new card saved after payment every other time
			code, p := m.do("POST", "/api/peachpoints/buy", map[string]any{
				"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": 1000, "paymentMethod": "creditCard",
				"creditCardToken": m.tokenize(c[0]), "saveCard": i%2 == 0, "requestId": fmt.Sprintf("cards-%d-%d", i, time.Now().UnixNano()),
			})
			if code != 200 {
				t.Fatalf("buy with %s: %d %v", c[0], code, p)
			}
			id := p["paymentProcessId"].(string)
			m.do("POST", "/api/peachpoints/buy/"+id+"/continue", nil)
			if c[0] == "4000000000003220" { // the member approves the challenge
				srv.command("gateway", "settle", gatewayPaymentOf(t, dsn, id))
			}
			declined := i >= 5 && i <= 7
			if st := m.settle(id, 40*time.Second); (st == "settled") == declined {
				t.Errorf("%s: %s", c[0], st)
			}
		}
		srv.kill()

		var haystack []byte
		if engine == store.SQLite {
			path := strings.TrimPrefix(dsn, "sqlite:")
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				b, err := os.ReadFile(f)
				if err == nil {
					haystack = append(haystack, b...)
				}
			}
			if len(haystack) == 0 {
				t.Fatal("no database file read")
			}
		} else {
			u, _ := url.Parse(dsn)
			schema := u.Query().Get("search_path")
			out, err := exec.Command("pg_dump", "--no-owner", "--schema="+schema, "--dbname="+strings.Split(apitest.PostgresURL(), "?")[0]).Output()
			if err != nil {
				t.Fatalf("pg_dump: %v", err)
			}
			if !bytes.Contains(out, []byte("payment_processes")) || !bytes.Contains(out, []byte("gw_tokens")) {
				t.Fatalf("pg_dump did not dump the schema (%d bytes)", len(out))
			}
			haystack = out
		}
		log := []byte(srv.out.String())
		if len(log) == 0 {
			t.Fatal("no server log")
		}
		for _, c := range testCards {
			if bytes.Contains(haystack, []byte(c[0])) {
				t.Errorf("card number %s found in the database", c[0])
			}
			if bytes.Contains(log, []byte(c[0])) {
				t.Errorf("card number %s found in the server log", c[0])
			}
		}
		// the last four digits are kept, as they should be
		if !bytes.Contains(haystack, []byte("4242")) {
			t.Error("last four digits not stored: did the test store anything?")
		}
	})
}
