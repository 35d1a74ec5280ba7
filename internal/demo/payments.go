package demo

import (
	"fmt"
	"time"

	"members/internal/payment"
	"members/internal/store"
)

// seedPayments gives the first demo member an expired saved card (the
// expired-card dialog). The cards that pay are tokenised by the sandbox
// gateway once it runs (app.seedDemoCards): its tokens are its own.
func seedPayments(s *store.Seed, now time.Time) error {
	exp := now.In(time.FixedZone("JST", 9*3600)).AddDate(0, -2, 0).Format("06/01")
	err := s.Card(payment.SavedCard{
		MemberID: Member1, Gateway: "ndhk", Token: "tok_demo_expired_visa", Brand: "visa", Last4: "1881", ExpirationDate: exp,
		HolderName: "TARO PEACH", Currency: "JPY", CreatedAt: now.Add(-400 * 24 * time.Hour),
	})
	if err != nil {
		return fmt.Errorf("demo: saved cards: %w", err)
	}
	return nil
}
