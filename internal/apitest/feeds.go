package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"members/internal/flightops"
)

// SignedFeedCall sends method to url, the call of one of the airline's
// signed feeds (flight events, members, bookings), with body (nil: none;
// []byte: as it is; anything else: as JSON) signed with secret at at (no
// Ops-Signature when secret is empty). It returns the status and the JSON
// answer.
func SignedFeedCall(t testing.TB, url, method, secret string, at time.Time, body any) (int, map[string]any) {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		raw, _ = json.Marshal(b)
	}
	req, _ := http.NewRequest(method, url, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set(flightops.SignatureHeader, flightops.Sign([]byte(secret), at, raw))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("answer %d %q is not JSON", resp.StatusCode, b)
	}
	return resp.StatusCode, m
}
