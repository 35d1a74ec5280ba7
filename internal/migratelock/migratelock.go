// Package migratelock gives goose migrations on PostgreSQL a session-level
// advisory lock, so that instances started together on one database take
// turns on the schema instead of racing (duplicate keys, "relation
// exists"); the later ones find nothing pending. The members migrations
// and the sandbox gateway's each take a lock of their own.
package migratelock

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"

	"github.com/pressly/goose/v3/lock"
)

// Postgres returns the locker for the migrations called name on db. The
// lock id is derived from name and the connection's schema, so databases
// in other schemas (each test has its own) do not wait for each other.
func Postgres(ctx context.Context, db *sql.DB, name string) (lock.SessionLocker, error) {
	var schema string
	if err := db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, fmt.Errorf("migrate: current schema: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(name + ":" + schema))
	locker, err := lock.NewPostgresSessionLocker(
		lock.WithLockID(int64(h.Sum64()&(1<<62-1))), // #nosec G115 -- masked to 62 bits, fits int64
		lock.WithLockTimeout(1, 600),                // poll every second, give up after 10 minutes
	)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return locker, nil
}
