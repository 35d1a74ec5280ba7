package gateway_test

import (
	"testing"

	"members/internal/apitest"
)

// BenchmarkCardPayment: create, authorise and capture over HTTP with a
// saved card, 64 callers at once (the members bench's concurrency).
func BenchmarkCardPayment(b *testing.B) {
	for _, engine := range apitest.Engines(b) {
		b.Run(string(engine), func(b *testing.B) {
			g := newGateway(b, engine)
			tok := g.tokenize("4242424242424242")
			b.SetParallelism(32) // × GOMAXPROCS (2 here) = 64 callers
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					p := g.create("card", tok, 1000)
					g.action(p.ID, "authorize", nil, 200)
					g.action(p.ID, "capture", nil, 200)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "payments/s")
		})
	}
}
