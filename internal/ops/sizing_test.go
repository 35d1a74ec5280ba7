package ops_test

import (
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// TestStorageGrowthPerPurchase measures what a points purchase by card
// adds to a SQLite database, every table and index counted (the payment
// process and its audit, the voucher and its ledger, the mail, the
// gateway sandbox's rows), and holds it to the figure docs/operations.md
// gives ("Sizing"): about 8 KB, under 12 KB.
func TestStorageGrowthPerPurchase(t *testing.T) {
	env := apitest.New(t, store.SQLite, func(c *app.Config) { c.GatewayTimeout = 3 * time.Second })
	c := env.Member(t)
	buy := func() {
		t.Helper()
		tok := env.Tokenize(t, "4242424242424242", "123")
		body := map[string]any{"nominee": "Hanako Yamada", "currencyCode": "JPY", "amount": 3000, "paymentMethod": "creditCard",
			"creditCardToken": tok["token"], "requestId": fmt.Sprintf("size-%d", time.Now().UnixNano())}
		r := c.Do(http.MethodPost, "/api/peachpoints/buy", body)
		id, _ := r.Map(t)["paymentProcessId"].(string)
		p := c.Do(http.MethodPost, "/api/peachpoints/buy/"+id+"/continue", nil).Map(t)
		for i := 0; p["status"] != "settled" && i < 100; i++ {
			time.Sleep(20 * time.Millisecond)
			p = c.Get("/api/peachpoints/buy/" + id + "/status").Map(t)
		}
		if p["status"] != "settled" {
			t.Fatalf("purchase: %v", p)
		}
	}
	used := func() (int64, map[string]int64) {
		t.Helper()
		var pages, free, size int64
		db := env.App.DB
		if err := db.QueryRow(`SELECT (SELECT page_count FROM pragma_page_count()), (SELECT freelist_count FROM pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())`).Scan(&pages, &free, &size); err != nil {
			t.Fatal(err)
		}
		per := map[string]int64{}
		rows, err := db.Query(`SELECT name, SUM(pgsize) FROM dbstat GROUP BY name`)
		if err == nil {
			for rows.Next() {
				var n string
				var s int64
				_ = rows.Scan(&n, &s)
				per[n] = s
			}
			rows.Close()
		}
		return (pages - free) * size, per
	}
	buy() // the first purchase makes the tables' first pages
	before, perBefore := used()
	const n = 60
	for range n {
		buy()
	}
	after, perAfter := used()
	growth := (after - before) / n
	t.Logf("SQLite: %d bytes a purchase by card (%d purchases, %d → %d bytes in use)", growth, n, before, after)
	var names []string
	for k := range perAfter {
		if perAfter[k] != perBefore[k] {
			names = append(names, k)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		return perAfter[names[i]]-perBefore[names[i]] > perAfter[names[j]]-perBefore[names[j]]
	})
	for _, k := range names {
		t.Logf("  %-48s %6d bytes a purchase", k, (perAfter[k]-perBefore[k])/n)
	}
	if growth <= 0 || growth > 12*1024 {
		t.Errorf("%d bytes a purchase; docs/operations.md says about 8 KB", growth)
	}
}
