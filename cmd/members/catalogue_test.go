package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"members/internal/account"
	"members/internal/apitest"
	"members/internal/app"
	"members/internal/auth"
	"members/internal/store"
)

// TestCatalogueOpensTheSalesFromNothing: a server started without --demo
// on an empty database; the operator applies the example catalogue and
// opens the sales with the admin switches; a member sees the plans and a
// purchase of one validates. Then a bad file is refused with its line and
// the exit status 1, and export prints what was applied.
func TestCatalogueOpensTheSalesFromNothing(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		env := apitest.New(t, engine, func(c *app.Config) { c.Demo = false })
		hash, err := auth.NewHasher(apitest.PasswordCost).Hash("Live1234")
		if err != nil {
			t.Fatal(err)
		}
		if err := env.App.DB.Seed(ctx, func(s *store.Seed) error {
			return s.Member(account.Member{ID: store.NewID(), Email: "first@example.com", Firstname: "Hana", Lastname: "Sato",
				Gender: "female", Birth: "1990-01-02", Tel: "0312345678", AddressCountryCode: "JP"}, hash, env.Clock.Now())
		}); err != nil {
			t.Fatal(err)
		}
		c := env.Client(t)
		c.Login("first@example.com", "Live1234")
		if r := c.Get("/api/gogo_pass"); r.Status != http.StatusNotFound {
			t.Fatalf("pass before the sales opened = %d %s", r.Status, r.Body)
		}
		cmd := func(args ...string) (string, string, error) {
			var out, errOut bytes.Buffer
			err := run(ctx, append(args, "--db", env.DSN()), &out, &errOut)
			return out.String(), errOut.String(), err
		}
		if out, stderr, err := cmd("catalogue", "apply", "../../testdata/catalogue/example.yaml", "--dry-run"); err != nil ||
			!strings.Contains(out, "added   pass plan gp-all") || !strings.Contains(out, "(dry run: nothing written)") {
			t.Fatalf("dry run: %v\n%s%s", err, out, stderr)
		}
		if out, stderr, err := cmd("catalogue", "apply", "../../testdata/catalogue/example.yaml"); err != nil ||
			!strings.HasSuffix(out, "4 added, 0 changed, 0 removed\n") {
			t.Fatalf("apply: %v\n%s%s", err, out, stderr)
		}
		for _, sw := range [][]string{{"admin", "gogo-pass", "--public", "--purchasable"}, {"admin", "coupon-ticket", "--public"}} {
			if out, stderr, err := cmd(sw...); err != nil {
				t.Fatalf("%v: %v\n%s%s", sw, err, out, stderr)
			}
		}
		r := c.Get("/api/gogo_pass")
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "GoGo Pass, all routes") || !strings.Contains(string(r.Body), "gp-all-2027-spring") {
			t.Fatalf("plans = %d %s", r.Status, r.Body)
		}
		c.Lang = "jp"
		if r := c.Get("/api/gogo_pass"); !strings.Contains(string(r.Body), "GoGoパス 全路線") {
			t.Fatalf("plans in jp = %s", r.Body)
		}
		body := map[string]any{"planId": "gp-all", "periodId": "gp-all-2027-spring", "fareType": "happy",
			"paymentMethod": "creditCard", "creditCardToken": env.Tokenize(t, "4242424242424242", "123")["token"], "requestId": "11111111-2222-4333-8444-555555555555"}
		if r := c.Do(http.MethodPost, "/api/gogo_pass/buy/validate", body); r.Status != http.StatusOK {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		// a bad file: refused with its line, exit status 1, nothing applied
		_, stderr, err := cmd("catalogue", "apply", "testdata/bad-catalogue.yaml")
		var code exitCode
		if err == nil || !asExit(err, &code) || code != 1 || !strings.Contains(stderr, "bad-catalogue.yaml:10: passPlans[0].periods[0].price.happy: must be a positive integer") {
			t.Fatalf("bad file: %v\n%s", err, stderr)
		}
		out, _, err := cmd("catalogue", "export")
		if err != nil || !strings.Contains(out, "pricePerPerson: 32800") || strings.Contains(out, "pricePerPerson: -1") {
			t.Fatalf("export: %v\n%s", err, out)
		}
	})
}

func asExit(err error, code *exitCode) bool {
	type aser interface{ As(any) bool }
	if a, ok := err.(aser); ok {
		return a.As(code)
	}
	return false
}
