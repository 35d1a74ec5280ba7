package upgrade_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"members/internal/apitest"
)

// manifest is what the upgrade test needs to know of the fixture
// (testdata/upgrade/<release>/<engine>/manifest.json). This file and
// makefixture_test.go are what scripts/make-upgrade-fixture.sh copies into
// the release it makes a fixture with: keep it to what that release has.
type manifest struct {
	Release      string           `json:"release"`
	Engine       string           `json:"engine"`
	Now          time.Time        `json:"now"` // the release's clock when the fixture was made
	Session      string           `json:"session"`
	MemberEmail  string           `json:"memberEmail"`
	CouponID     string           `json:"couponId"`
	CouponRefund int64            `json:"couponRefund"`
	SavedCard    string           `json:"savedCard"`
	Voucher      string           `json:"voucher"` // expired, reissuable: its PIN is checked
	VoucherPIN   string           `json:"voucherPin"`
	BoughtPoints string           `json:"boughtPoints"`
	Pending      string           `json:"pending"` // member 2's pending purchase
	Rows         map[string]int64 `json:"rows"`    // every table's rows
}

// SchemaPlaceholder stands for the schema in a PostgreSQL dump; the test
// puts its own in.
const SchemaPlaceholder = "upgrade_fixture_schema"

func tokenize(t *testing.T, env *apitest.Env, number string) string {
	t.Helper()
	return str(env.Tokenize(t, number, "123")["token"])
}

var seq int

func requestID() string {
	seq++
	return fmt.Sprintf("upgrade-fixture-%d-%d", time.Now().UnixNano(), seq)
}

func str(v any) string { s, _ := v.(string); return s }

func process(t *testing.T, r *apitest.Response) map[string]any {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("purchase call = %d %s", r.Status, r.Body)
	}
	return r.Map(t)
}

// settle buys product with fields and runs the purchase to settlement.
func settle(t *testing.T, env *apitest.Env, c *apitest.Client, product string, fields map[string]any) map[string]json.RawMessage {
	t.Helper()
	fields["requestId"] = requestID()
	p := process(t, c.Do(http.MethodPost, "/api/"+product+"/buy", fields))
	id := str(p["paymentProcessId"])
	p = process(t, c.Do(http.MethodPost, "/api/"+product+"/buy/"+id+"/continue", nil))
	deadline := time.Now().Add(30 * time.Second)
	for str(p["status"]) != "settled" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if str(p["status"]) == "pending" {
			env.Clock.Advance(5 * time.Second)
			if _, err := env.App.Payments.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		p = process(t, c.Get("/api/"+product+"/buy/"+id+"/status"))
	}
	if str(p["status"]) != "settled" {
		t.Fatalf("%s: %v", product, p)
	}
	goods, _ := json.Marshal(p["goods"])
	return map[string]json.RawMessage{"goods": goods}
}
