package httpapi_test

import (
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

// PUT /api/user takes back the document GET /api/user gave (its read-only
// fields are ignored, not refused), and a field the API does not know gets
// a 400 that names it.
func TestPutUserAcceptsTheGetDocument(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		doc := c.Get("/api/user").Map(t)
		if _, ok := doc["profileId"]; !ok {
			t.Fatalf("GET /api/user has no profileId: %v", doc)
		}
		doc["firstname"] = "Hanae"
		doc["isEmployee"] = !(doc["isEmployee"] == true) // read-only: ignored
		r := c.Do(http.MethodPut, "/api/user", doc)
		if r.Status != http.StatusOK {
			t.Fatalf("PUT the GET document = %d %s", r.Status, r.Body)
		}
		after := c.Get("/api/user").Map(t)
		if after["firstname"] != "Hanae" {
			t.Errorf("firstname = %v", after["firstname"])
		}
		if after["isEmployee"] == doc["isEmployee"] {
			t.Errorf("a read-only field changed: isEmployee = %v", after["isEmployee"])
		}

		doc["shoeSize"] = 42
		if got := fieldError(t, c.Do(http.MethodPut, "/api/user", doc), "shoeSize"); got != "The field shoeSize is not accepted here." {
			t.Errorf("unknown field message %q", got)
		}
		delete(doc, "shoeSize")
		doc["firstname"] = 7
		if got := fieldError(t, c.Do(http.MethodPut, "/api/user", doc, "X-Lang", "jp"), "firstname"); got != "項目 firstname の型が正しくありません。" {
			t.Errorf("wrong type message %q", got)
		}
	})
}

// GET /api/masters/relations lists the relations in the member's language.
func TestRelations(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		var list []struct{ Code, Name string }
		c.Do(http.MethodGet, "/api/masters/relations", nil, "X-Lang", "jp").JSON(t, &list)
		if len(list) != 10 || list[0].Code != "spouse" || list[0].Name != "配偶者" {
			t.Errorf("relations = %v", list)
		}
		if r := env.Client(t).Get("/api/masters/relations"); r.Status != http.StatusForbidden {
			t.Errorf("without a session = %d", r.Status)
		}
	})
}

// POST /api/external_services/online_shop/register moves
// onlineShopAccountStatus from unknown to registered, once, for the caller only.
func TestOnlineShopRegister(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		if got := c.Get("/api/user").Map(t)["onlineShopAccountStatus"]; got != "unknown" {
			t.Fatalf("before = %v", got)
		}
		for i := 0; i < 2; i++ {
			r := c.Do(http.MethodPost, "/api/external_services/online_shop/register", nil)
			if r.Status != http.StatusOK || r.Map(t)["onlineShopAccountStatus"] != "registered" {
				t.Fatalf("register #%d = %d %s", i+1, r.Status, r.Body)
			}
		}
		if got := c.Get("/api/user").Map(t)["onlineShopAccountStatus"]; got != "registered" {
			t.Errorf("after = %v", got)
		}
		if got := env.Member2(t).Get("/api/user").Map(t)["onlineShopAccountStatus"]; got != "unknown" {
			t.Errorf("the other member = %v", got)
		}
		c.NoCSRF = true
		if r := c.Do(http.MethodPost, "/api/external_services/online_shop/register", nil); r.Status != http.StatusForbidden {
			t.Errorf("without CSRF = %d", r.Status)
		}
		if r := env.Client(t).Do(http.MethodPost, "/api/external_services/online_shop/register", nil); r.Status != http.StatusForbidden {
			t.Errorf("without a session = %d", r.Status)
		}
	})
}
