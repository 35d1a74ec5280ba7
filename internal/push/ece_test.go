package push_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/i18n"
	"members/internal/push"
	"members/internal/push/pushtest"
	"members/internal/testtool"
)

// web is the web app's folder, whose node_modules hold http_ece.
const web = "../../web"

// A push the server's transport sent, captured by the stand-in push
// service, is decrypted by the npm package http_ece (by one of RFC 8291's
// authors) to the very payload that was sent, as the stand-in's own
// decryption gives it: neither the sender's library nor this project's
// code is the only judge of the encryption.
func TestHTTPECEDecryptsACapturedPush(t *testing.T) {
	node := testtool.Path(t, "node", "Node.js 20, as for the web app")
	if _, err := os.Stat(filepath.Join(web, "node_modules", "http_ece", "ece.js")); err != nil {
		if ci := os.Getenv("CI"); ci == "true" || ci == "1" {
			t.Fatalf("http_ece is required in CI (cd web && npm ci): %v", err)
		}
		t.Skipf("http_ece is not installed (cd web && npm ci): %v", err)
	}
	svc := pushtest.Start(t, "")
	device := svc.NewDevice(t)
	endpoints, err := push.NewEndpoints(svc.URL)
	if err != nil {
		t.Fatal(err)
	}
	private, err := push.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := push.ParseKeys(private, "mailto:ops@example.com")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	dep := time.Date(2026, 11, 30, 8, 30, 0, 0, booking.JST)
	est := dep.Add(2*time.Hour + 10*time.Minute)
	n := push.Notice{Flight: "MM001", Date: "2026-11-30", Origin: "KIX", Destination: "ICN", Kind: "delay",
		FlightStatus: booking.FlightNotYetDepartedWithDelay, OriginalDepartAt: dep, OriginalArrivalAt: dep.Add(110 * time.Minute),
		DepartAt: dep, ArrivalAt: dep.Add(110 * time.Minute), EstimatedDepartAt: &est, Terminal: "1", Gate: "31", Sequence: 1, PNRs: []string{"HNK7Q2"}}
	payload, err := json.Marshal(push.Compose(cat, i18n.TH, n, "https://members.example", dep.Add(-24*time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	sub := push.Subscription{ID: "s1", Endpoint: device.Endpoint, P256dh: device.P256dh(), Auth: device.Auth()}
	res, err := push.NewWebPush(keys, endpoints).Send(context.Background(), sub, payload, push.Options{TTL: time.Hour, Urgency: "high", Topic: n.Topic()})
	if err != nil || res.Status != 201 {
		t.Fatalf("send: %v %+v (refused: %v)", err, res, svc.Refusals())
	}
	captured := svc.Wait(t, 1, 5*time.Second)[0]
	if !bytes.Equal(captured.Plain, payload) {
		t.Fatalf("the stand-in decrypted %q, want %q", captured.Plain, payload)
	}

	input, _ := json.Marshal(map[string]string{"body": base64.RawURLEncoding.EncodeToString(captured.Body),
		"privateKey": device.PrivateKey(), "auth": device.Auth()})
	cmd := exec.Command(node, "e2e/ece-decrypt.mjs") // #nosec G204 -- the test's own script
	cmd.Dir = web
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("http_ece: %v\n%s", err, stderr.String())
	}
	if !bytes.Equal(out, payload) {
		t.Fatalf("http_ece decrypted %q, want %q", out, payload)
	}
	// A wrong secret does not decrypt.
	bad, _ := json.Marshal(map[string]string{"body": base64.RawURLEncoding.EncodeToString(captured.Body),
		"privateKey": device.PrivateKey(), "auth": base64.RawURLEncoding.EncodeToString(make([]byte, 16))})
	cmd = exec.Command(node, "e2e/ece-decrypt.mjs") // #nosec G204 -- the test's own script
	cmd.Dir = web
	cmd.Stdin = bytes.NewReader(bad)
	if out, err := cmd.Output(); err == nil {
		t.Fatalf("decrypted with a wrong secret: %q", out)
	}
}
