package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

// Many members' first searches at once: every search brings statement
// texts the database has not seen (its page size and offset are part of
// the text), and there are far more searches at once than connections in
// the read pool. A search must never wait for a second connection while
// it holds one: each one answers, in rounds of new texts. The deadline
// turns a deadlock into a failure instead of a hang; it is no speed check.
func TestFirstSearchesAtOnce(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		now := time.Now()
		const members = 32
		if err := demo.SeedBench(ctx, db, "!", members, 0, members*40, now, nil); err != nil {
			t.Fatal(err)
		}
		st := store.NewBookingStore(db)
		for round := range 3 {
			dctx, cancel := context.WithTimeout(ctx, time.Minute)
			start := make(chan struct{})
			var wg sync.WaitGroup
			errs := make(chan error, members)
			for i := range members {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					q := booking.Query{MemberID: demo.BenchMemberID(i), Limit: i + 1, Offset: round, Desc: i%2 == 0}
					if _, err := st.SearchPage(dctx, q); err != nil {
						errs <- err
					}
				}()
			}
			close(start)
			wg.Wait()
			cancel()
			close(errs)
			for err := range errs {
				t.Fatalf("round %d: a first search failed (a search waited for a second connection): %v", round, err)
			}
		}
	})
}
