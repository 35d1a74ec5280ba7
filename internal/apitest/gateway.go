package apitest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// Tokenize makes a card token at the server's sandbox gateway as the
// browser does (card number, CVV, an expiry two years ahead of the
// clock); the answer holds "token" and "gateway".
func (e *Env) Tokenize(t testing.TB, number, cvv string) map[string]any {
	t.Helper()
	exp := e.Clock.Now().AddDate(2, 0, 0).Format("06/01")
	b, _ := json.Marshal(map[string]string{"cardNumber": number, "expirationDate": exp, "cvv": cvv, "holderName": "TARO PEACH"})
	resp, err := http.Post(e.Server.URL+"/gateway/v1/tokens", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tokenize %s: %d %v", number, resp.StatusCode, out)
	}
	return out
}
