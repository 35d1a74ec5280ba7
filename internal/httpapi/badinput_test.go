package httpapi_test

import (
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/platform"
	"members/internal/store"
)

// TestBadInputTable: every kind of bad input gets the same treatment on
// every call. A value of the wrong type names its field with "has the
// wrong type", in a body or a query; a missing required field or
// parameter names it; a currency is read the same (case-insensitively)
// on every call; a PUT takes back the document its GET gave.
func TestBadInputTable(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		setFlags(t, env, platform.GogoPassStatus{IsGogoPassPublic: true, IsGogoPassPurchasable: true}, true)
		c := env.Member(t)

		wrongType := []struct {
			method, path string
			body         any
			field        string
		}{
			{http.MethodPut, "/api/user", map[string]any{"firstname": 7}, "firstname"},
			{http.MethodPost, "/api/user/passengers", map[string]any{"birth": 19900101}, "birth"},
			{http.MethodPut, "/api/user/password", map[string]any{"passwordOld": true}, "passwordOld"},
			{http.MethodPost, "/api/peachpoints/buy/validate", map[string]any{"nominee": "TARO PEACH", "currencyCode": "JPY", "amount": "1000", "paymentMethod": "creditCard"}, "amount"},
			{http.MethodPost, "/api/peachpoints/buy", map[string]any{"paymentMethod": 1}, "paymentMethod"},
			{http.MethodPost, "/api/gogo_pass/buy/validate", map[string]any{"planId": 1, "paymentMethod": "creditCard"}, "planId"},
			{http.MethodPost, "/api/coupon_ticket/buy/validate", map[string]any{"fareType": []int{1}, "paymentMethod": "creditCard"}, "fareType"},
			{http.MethodPost, "/api/peachpoints/reissue/validate", map[string]any{"pointNumber": 1, "pin": "1", "email": "a@b.jp"}, "pointNumber"},
			{http.MethodPost, "/api/cc/register", map[string]any{"token": 5, "currency": "JPY"}, "token"},
			{http.MethodPost, "/api/user/coupon_ticket/refund", map[string]any{"id": 5}, "id"},
			{http.MethodGet, "/api/peachpoints?page=abc", nil, "page"},
			{http.MethodGet, "/api/reservations?page=abc", nil, "page"},
		}
		for _, tc := range wrongType {
			r := c.Do(tc.method, tc.path, tc.body)
			if got := fieldErrors(t, r)[tc.field]; r.Status != http.StatusBadRequest || len(got) != 1 || got[0] != "The field "+tc.field+" has the wrong type." {
				t.Errorf("%s %s: %d %s, want the wrong-type message on %s", tc.method, tc.path, r.Status, r.Body, tc.field)
			}
		}

		missing := []struct {
			method, path string
			body         any
			field        string
		}{
			{http.MethodDelete, "/api/cc/tok_demo_visa", nil, "gateway"},
			{http.MethodPost, "/api/user/coupon_ticket/refund", map[string]any{}, "id"},
			{http.MethodPost, "/api/user/coupon_ticket/refund", map[string]any{"id": " "}, "id"},
			{http.MethodGet, "/api/payment_availability", nil, "currency"},
		}
		for _, tc := range missing {
			r := c.Do(tc.method, tc.path, tc.body)
			if got := fieldErrors(t, r)[tc.field]; r.Status != http.StatusBadRequest || len(got) != 1 || got[0] != "This field is required." {
				t.Errorf("%s %s: %d %s, want the required message on %s", tc.method, tc.path, r.Status, r.Body, tc.field)
			}
		}

		// A currency in lower case is read as in upper case on every call.
		lower := []struct {
			method, path string
			body         any
			field        string
		}{
			{http.MethodGet, "/api/payment_availability?currency=jpy", nil, "currency"},
			{http.MethodGet, "/api/peachpoints?currencyCode=jpy", nil, "currencyCode"},
			{http.MethodGet, "/api/peachpoints/expired_in?month=2026-12&currencyCode=jpy", nil, "currencyCode"},
			{http.MethodPost, "/api/peachpoints/buy/validate", map[string]any{"nominee": "TARO PEACH", "currencyCode": "jpy", "amount": 1000,
				"paymentMethod": "convenienceStore"}, "currencyCode"},
			{http.MethodPost, "/api/cc/register", map[string]any{"token": "tok_unknown", "gateway": "ndhk", "currency": "non_jpy"}, "currency"},
		}
		for _, tc := range lower {
			r := c.Do(tc.method, tc.path, tc.body)
			if r.Status >= 500 || len(fieldErrors(t, r)[tc.field]) != 0 {
				t.Errorf("%s %s: %d %s, a lower-case currency refused", tc.method, tc.path, r.Status, r.Body)
			}
		}
		for _, tc := range []struct{ path, cur string }{{"/api/payment_availability?currency=xxx", "currency"}, {"/api/peachpoints?currencyCode=xxx", "currencyCode"}} {
			if r := c.Get(tc.path); len(fieldErrors(t, r)[tc.cur]) != 1 {
				t.Errorf("%s: %d %s, an unknown currency accepted", tc.path, r.Status, r.Body)
			}
		}

		// PUT /api/user/passengers/{id} takes back its GET document, as
		// PUT /api/user does; POST takes a GET document too.
		var list struct{ Passengers []map[string]any }
		c.Get("/api/user/passengers").JSON(t, &list)
		if len(list.Passengers) == 0 {
			t.Fatal("the demo member has no passengers")
		}
		id := list.Passengers[0]["id"].(string)
		doc := c.Get("/api/user/passengers/" + id).Map(t)
		if _, ok := doc["passportNationality"]; !ok {
			t.Fatalf("the passenger has no passportNationality: %v", doc)
		}
		doc["firstname"] = "Kenta"
		if r := c.Do(http.MethodPut, "/api/user/passengers/"+id, doc); r.Status != http.StatusOK {
			t.Errorf("PUT the GET document = %d %s", r.Status, r.Body)
		}
		if got := c.Get("/api/user/passengers/" + id).Map(t); got["firstname"] != "Kenta" {
			t.Errorf("firstname = %v", got["firstname"])
		}
		doc["shoeSize"] = 42
		if got := fieldError(t, c.Do(http.MethodPut, "/api/user/passengers/"+id, doc), "shoeSize"); got != "The field shoeSize is not accepted here." {
			t.Errorf("unknown field on a passenger: %q", got)
		}
	})
}

// TestAddressStreet: the spec's addressStreet is address1 under its other
// name: both in GET /api/user, either saved by PUT, checked like address1.
func TestAddressStreet(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		doc := c.Get("/api/user").Map(t)
		if doc["addressStreet"] == "" || doc["addressStreet"] != doc["address1"] {
			t.Fatalf("GET: addressStreet %v, address1 %v", doc["addressStreet"], doc["address1"])
		}
		// The GET document edited under the spec's name.
		doc["addressStreet"] = "2-3 Rinku Ourai Kita"
		if r := c.Do(http.MethodPut, "/api/user", doc); r.Status != http.StatusOK {
			t.Fatalf("PUT addressStreet = %d %s", r.Status, r.Body)
		}
		got := c.Get("/api/user").Map(t)
		if got["address1"] != "2-3 Rinku Ourai Kita" || got["addressStreet"] != "2-3 Rinku Ourai Kita" {
			t.Errorf("after addressStreet: %v / %v", got["address1"], got["addressStreet"])
		}
		// Edited under the old name, the other one still holding the stored line.
		got["address1"] = "1 Senshu Kuko Naka"
		if r := c.Do(http.MethodPut, "/api/user", got); r.Status != http.StatusOK {
			t.Fatalf("PUT address1 = %d %s", r.Status, r.Body)
		}
		if after := c.Get("/api/user").Map(t); after["addressStreet"] != "1 Senshu Kuko Naka" {
			t.Errorf("after address1: %v", after["addressStreet"])
		}
		// Both changed, differently: refused, nothing saved.
		got["address1"], got["addressStreet"] = "A street", "Another street"
		if msg := fieldError(t, c.Do(http.MethodPut, "/api/user", got), "addressStreet"); msg == "" {
			t.Error("two different streets accepted")
		}
		got["address1"], got["addressStreet"] = "1 Senshu Kuko Naka", "Street \U0001F600"
		if msg := fieldError(t, c.Do(http.MethodPut, "/api/user", got), "addressStreet"); msg != "Characters such as emoji cannot be used." {
			t.Errorf("emoji in addressStreet: %q", msg)
		}
		if after := c.Get("/api/user").Map(t); after["address1"] != "1 Senshu Kuko Naka" {
			t.Errorf("a refused save changed the street: %v", after["address1"])
		}
	})
}
