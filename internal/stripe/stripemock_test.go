package stripe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/payment"
	"members/internal/testtool"
)

// stripeMockURL starts Stripe's own mock server (stripe-mock, installed by
// .ci/run: go install github.com/stripe/stripe-mock@v0.203.0) for the
// test and returns its URL. stripe-mock checks every request against
// Stripe's OpenAPI description and refuses what Stripe would refuse; it
// keeps no state. Under CI=true a missing stripe-mock fails the test.
func stripeMockURL(t *testing.T) string {
	t.Helper()
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		out, _ := exec.Command("go", "env", "GOPATH").Output()
		gopath = strings.TrimSpace(string(out))
	}
	bin := testtool.Path(t, "stripe-mock", "go install github.com/stripe/stripe-mock@v0.203.0", filepath.Join(gopath, "bin", "stripe-mock"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	cmd := exec.Command(bin, "-http-port", fmt.Sprint(port)) // #nosec G204 -- the test's own tool
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, url+"/v1/customers/cus_123", nil)
		req.SetBasicAuth("sk_test_123", "")
		if res, err := http.DefaultClient.Do(req); err == nil {
			_ = res.Body.Close()
			return url
		}
	}
	t.Fatal("stripe-mock did not start")
	return ""
}

// members is an in-memory Members.
type members struct {
	mu  sync.Mutex
	ids map[string]string
}

func (m *members) CustomerID(_ context.Context, id string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ids[id], nil
}

func (m *members) KeepCustomerID(_ context.Context, member, id string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ids == nil {
		m.ids = map[string]string{}
	}
	if kept := m.ids[member]; kept != "" {
		return kept, nil
	}
	m.ids[member] = id
	return id, nil
}

func (m *members) Contact(context.Context, string) (string, string, error) {
	return "taro@example.com", "Taro Peach", nil
}

// Every request the adapter makes is one Stripe's API takes: stripe-mock
// answers each with its fixture (it refuses a malformed one with 400,
// which the adapter reports as ErrGatewayRefused).
func TestRequestShapesAgainstStripeMock(t *testing.T) {
	g := New(Config{SecretKey: "sk_test_123", APIURL: stripeMockURL(t), Members: &members{}})
	ctx := context.Background()
	ok := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, err := g.Token(ctx, "pm_123")
	ok("retrieve payment method", err)
	ok("detach", g.DeleteToken(ctx, "pm_123"))
	_, err = g.SetupCard(ctx, "cs_key", payment.CardSetupInput{MemberID: "m1", Token: "pm_123", Scope: "JPY", ReturnURL: "https://members.example.com/payment-methods"})
	ok("customer + setup intent create + confirm", err)
	_, err = g.CardSetupStatus(ctx, "seti_123")
	ok("setup intent retrieve", err)
	for _, in := range []payment.CreatePayment{
		{Amount: 3000, Currency: "JPY", Method: "card", Token: "pm_123", MemberID: "m1", SaveCard: true},
		{Amount: 3000, Currency: "JPY", Method: "card", Token: "pm_123"},
		{Amount: 5000, Currency: "JPY", Method: "konbini", MemberID: "m1"},
		{Amount: 100, Currency: "CNY", Method: payment.OtherAlipay},
		{Amount: 100, Currency: "CNY", Method: payment.OtherWeChat},
	} {
		in.Description, in.Reference, in.ReturnURL = "Peach Points", "proc1", "https://members.example.com/payment/peachpoints/proc1/result"
		_, err := g.CreatePayment(ctx, "pp_proc1_create", in)
		ok("create "+in.Method, err)
	}
	_, err = g.Authorize(ctx, "pp_proc1_authorize", "pi_123", true)
	ok("retrieve + confirm", err)
	_, err = g.Authorize(ctx, "pp_proc1_authorize", "pi_123", false)
	ok("confirm with manual capture", err)
	_, err = g.Capture(ctx, "pp_proc1_capture", "pi_123")
	ok("capture", err)
	_, err = g.Refund(ctx, "pp_proc1_refund_fee", "pi_123", 900)
	ok("partial refund", err)
	_, err = g.Cancel(ctx, "pp_proc1_cancel", "pi_123")
	ok("cancel", err)
	_, err = g.Payment(ctx, "pi_123")
	ok("retrieve with expand", err)
	found, err := g.PaymentsByReference(ctx, "proc1")
	ok("search by metadata.reference", err)
	_ = found // stripe-mock's fixture carries no metadata: the adapter keeps only exact matches

	// PayPay is not in the API description stripe-mock v0.203.0 and
	// stripe-go v85 ship: Stripe would refuse it where it is not enabled;
	// the adapter reports a refusal, which fails the process.
	_, err = g.CreatePayment(ctx, "pp_proc2_create", payment.CreatePayment{Amount: 100, Currency: "JPY", Method: payment.OtherPayPay, Reference: "proc2"})
	if !errors.Is(err, payment.ErrGatewayRefused) {
		t.Errorf("paypay at stripe-mock: %v, want ErrGatewayRefused", err)
	}
	// ids that are not Stripe's never reach the API
	if _, err := g.Token(ctx, "tok_../x"); !errors.Is(err, payment.ErrUnknownToken) {
		t.Errorf("bad id: %v", err)
	}
}
