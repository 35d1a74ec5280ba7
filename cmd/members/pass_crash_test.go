package main

import (
	"sync"
	"testing"
	"time"

	"members/internal/demo"
	"members/internal/store"
)

// TestPassPaymentCrashSafety does for the pass purchases what
// TestPaymentCrashSafety does for points: the real server is killed with
// SIGKILL after the tentative order of an unlimited pass and in the middle
// of a burst of continues of a coupon pass, restarted, and every process
// ends settled with exactly one pass or coupon and one captured payment.
func TestPassPaymentCrashSafety(t *testing.T) {
	// the server's --demo seeds the catalogue
	forEachServer(t, nil, func(t *testing.T, engine store.Engine, srv *realServer) {
		openPassSales(srv)
		m := newMember(t, srv.base())
		visa := m.tokenize("4242424242424242")
		buy := func(product string, fields map[string]any) string {
			t.Helper()
			fields["paymentMethod"], fields["creditCardToken"] = "creditCard", visa
			return m.buyProduct(product, fields)
		}
		settle := func(product, id string) {
			t.Helper()
			deadline := time.Now().Add(40 * time.Second)
			for time.Now().Before(deadline) {
				code, p := m.do("GET", "/api/payment_processes/"+id+"/status", nil)
				if code == 200 {
					switch p["status"] {
					case "prepared":
						m.do("POST", "/api/"+product+"/buy/"+id+"/continue", nil)
					case "settled":
						return
					case "failed", "expired":
						t.Fatalf("%s %s: %v", product, id, p["status"])
					}
				}
				time.Sleep(300 * time.Millisecond)
			}
			t.Fatalf("%s %s not settled", product, id)
		}
		type bought struct{ table, id string }
		var all []bought

		// 1. an unlimited pass, killed after the tentative order
		id := buy("gogo_pass", map[string]any{"planId": demo.DemoPlanAll, "periodId": demo.DemoPeriodNext, "fareType": "happlus"})
		all = append(all, bought{"gogo_passes", id})
		srv.restart()
		settle("gogo_pass", id)

		// 2. coupon passes, killed during a burst of continues
		coupon := map[string]any{"productId": demo.DemoCouponKansai, "periodId": demo.DemoCouponPeriodWin, "fareType": "lite", "agreeTerms": true,
			"additionalPassengers": []any{map[string]string{"passengerType": "adult", "lastname": "Lee", "firstname": "Mina", "gender": "female",
				"dateOfBirth": "1990-01-01", "nationalityCode": "KR", "passportNo": "M1234567", "dateOfEntry": "2026-12-03",
				"inboundTransportMethod": "air", "inboundFlightNo": "MM702"}}}
		for round := range 2 {
			id := buy("coupon_ticket", coupon)
			all = append(all, bought{"coupons", id})
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() { defer wg.Done(); m.do("POST", "/api/coupon_ticket/buy/"+id+"/continue", nil) }()
			}
			time.Sleep(time.Duration(20+round*60) * time.Millisecond)
			srv.kill()
			wg.Wait()
			srv.start()
			settle("coupon_ticket", id)
		}
		srv.kill()

		db := srv.db()
		for _, b := range all {
			var status string
			var goods, captured int
			if err := db.QueryRow(`SELECT status FROM payment_processes WHERE id = $1`, b.id).Scan(&status); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*) FROM `+b.table+` WHERE payment_process_id = $1`, b.id).Scan(&goods); err != nil { // #nosec G202 -- b.table is one of this test's two table names
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*) FROM gw_payments WHERE reference = $1 AND status = 'captured'`, b.id).Scan(&captured); err != nil {
				t.Fatal(err)
			}
			if status != "settled" || goods != 1 || captured != 1 {
				t.Errorf("%s %s: %s, %d goods, %d captured payments", b.table, b.id, status, goods, captured)
			}
		}
	})
}

// openPassSales opens the unlimited pass (purchasable, out of
// maintenance) and the coupon pass for sale: the server is stopped for the
// operator's commands and started again.
func openPassSales(srv *realServer) {
	srv.kill()
	srv.command("admin", "gogo-pass", "--public", "--purchasable", "--maintenance", "off")
	srv.command("admin", "coupon-ticket", "--public")
	srv.start()
}
