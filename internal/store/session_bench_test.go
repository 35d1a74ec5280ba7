package store_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/demo"
	"members/internal/store"
)

// BenchmarkSessionByHash is the session lookup of every request (the store
// part) for 1,000 members' sessions picked in turn, on SQLite, or on
// PostgreSQL with MEMBERS_BENCH_ENGINE=postgres (the test server, a
// schema of its own).
func BenchmarkSessionByHash(b *testing.B) {
	ctx := context.Background()
	engine := store.SQLite
	if os.Getenv("MEMBERS_BENCH_ENGINE") == "postgres" {
		engine = store.Postgres
	}
	dsn := apitest.DSN(b, engine)
	db, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	const members = 1000
	if err := demo.SeedBench(ctx, db, "!", members, 0, 0, time.Now(), nil); err != nil {
		b.Fatal(err)
	}
	ids := make([]string, members)
	for i := range ids {
		ids[i] = demo.BenchMemberID(i)
	}
	tokens, err := demo.BenchSessions(ctx, db, ids, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	hashes := make([]string, len(tokens))
	for i, t := range tokens {
		hashes[i] = auth.HashToken(t)
	}
	st := store.NewAuthStore(db)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if _, err := st.SessionByHash(ctx, hashes[i%members]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// cpuTime is the process's user and system CPU time: on a machine shared
// with other work, the CPU an operation costs is steadier than its wall
// time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
