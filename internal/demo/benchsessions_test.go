package demo_test

import (
	"context"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/store"
)

// The benchmarks' sessions: one per member, in order, each a distinct
// cookie value that the session lookup finds for its member; a member who
// does not exist gets none.
func TestBenchSessions(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		now := time.Now()
		if err := demo.SeedBench(ctx, db, "!", 3, 0, 0, now, nil); err != nil {
			t.Fatal(err)
		}
		ids := []string{demo.BenchMemberID(2), demo.BenchMemberID(0), demo.BenchMemberID(2)}
		tokens, err := demo.BenchSessions(ctx, db, ids, now)
		if err != nil {
			t.Fatal(err)
		}
		if len(tokens) != len(ids) || tokens[0] == tokens[2] {
			t.Fatalf("tokens %v", tokens)
		}
		st := store.NewAuthStore(db)
		for i, tok := range tokens {
			s, err := st.SessionByHash(ctx, auth.HashToken(tok))
			if err != nil || s.MemberID != ids[i] {
				t.Errorf("session %d: member %q, %v; want %q", i, s.MemberID, err, ids[i])
			}
		}
		if _, err := demo.BenchSessions(ctx, db, []string{demo.BenchMemberID(99)}, now); err == nil {
			t.Error("a session for a member who does not exist")
		}
	})
}
