package loadgen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"members/internal/demo"
	"members/internal/store"
)

// SeedMaxAge is how long a seeded benchmark database is reused: its
// booking and flight dates are relative to the day it was seeded, and the
// searches of the benchmarks to the day they run.
const SeedMaxAge = 3 * 24 * time.Hour

// SeedCacheDir is where seeded benchmark databases are kept between runs:
// $MEMBERS_BENCH_CACHE, else the user's cache folder (~/.cache/members-bench).
func SeedCacheDir() (string, error) {
	if d := os.Getenv("MEMBERS_BENCH_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "members-bench"), nil
}

// Seeded describes a benchmark database holding the reservations
// [0, Reservations) of demo.SeedBench over Members bench members.
type Seeded struct {
	DSN      string
	Reused   bool          // it was kept from an earlier run (same seed version, young enough)
	SeededAt time.Time     // when its data was generated
	Took     time.Duration // the seeding's time in this run (0 when reused)
}

// seedMark is the row kept in the database itself: a database is reused
// only when its mark names the current seed version and the same sizes.
const seedMarkTable = `bench_seed`

func readMark(ctx context.Context, db *store.DB) (version, rows, members int, at time.Time, ok bool) {
	var ms int64
	err := db.QueryRowContext(ctx, `SELECT version, reservations, members, seeded_at FROM `+seedMarkTable).Scan(&version, &rows, &members, &ms)
	if err != nil {
		return 0, 0, 0, time.Time{}, false
	}
	return version, rows, members, time.UnixMilli(ms), true
}

func writeMark(ctx context.Context, db *store.DB, rows, members int, at time.Time) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+seedMarkTable+` (version INTEGER NOT NULL, reservations INTEGER NOT NULL, members INTEGER NOT NULL, seeded_at BIGINT NOT NULL)`); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM `+seedMarkTable); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `INSERT INTO `+seedMarkTable+` VALUES ($1, $2, $3, $4)`, demo.BenchSeedVersion, rows, members, at.UnixMilli())
	return err
}

// usable reports whether the database at dsn holds the wanted seed.
func usable(ctx context.Context, dsn string, rows, members int) (time.Time, bool) {
	a, err := OpenQuiet(ctx, dsn)
	if err != nil {
		return time.Time{}, false
	}
	defer a.Close()
	v, r, m, at, ok := readMark(ctx, a.DB)
	if !ok || v != demo.BenchSeedVersion || r != rows || m != members || time.Since(at) > SeedMaxAge {
		return time.Time{}, false
	}
	// The sessions of earlier runs go; each run gives its members new ones.
	_, _ = a.DB.ExecContext(ctx, `DELETE FROM sessions WHERE user_agent IN ('wrk', 'benchpayments')`)
	if a.DB.Engine == store.SQLite {
		// statistics an earlier version of the seeding left (see seedInto)
		for _, t := range []string{"sqlite_stat1", "sqlite_stat4"} {
			_, _ = a.DB.ExecContext(ctx, `DROP TABLE IF EXISTS `+t)
		}
	} else if err := settlePostgres(ctx, a.DB, func(string) {}); err != nil {
		// A migration applied since the seeding (openQuiet migrates) may
		// have rewritten rows, and the sessions of earlier runs are gone:
		// the tables are left as after seeding (a quick pass when nothing
		// changed).
		return time.Time{}, false
	}
	return at, true
}

// seedInto fills the database at dsn up to rows reservations over members,
// starting from what it holds, and marks it.
func seedInto(ctx context.Context, dsn string, members, rows int, now time.Time, log func(string)) error {
	a, err := OpenQuiet(ctx, dsn)
	if err != nil {
		return err
	}
	defer a.Close()
	if a.DB.Engine == store.SQLite {
		// One connection with a page cache that holds the indexes being
		// filled: with the server's budget (a few MiB a connection, 32 MiB
		// in all) every insert read and wrote index pages from the disk,
		// and a million reservations took hours. Benchmark data: no
		// waiting for the disk either.
		a.DB.SetMaxOpenConns(1)
		for _, p := range []string{"PRAGMA soft_heap_limit = 0", "PRAGMA cache_size = -1048576", "PRAGMA synchronous = OFF"} {
			if _, err := a.DB.ExecContext(ctx, p); err != nil {
				return err
			}
		}
	}
	have := 0
	if _, r, _, _, ok := readMark(ctx, a.DB); ok {
		have = r
	}
	start := time.Now()
	last := start
	if err := demo.SeedBench(ctx, a.DB, "!", members, have, rows, now, func(done int) {
		if time.Since(last) > 30*time.Second {
			last = time.Now()
			log(fmt.Sprintf("seeded %d of %d reservations (%s)", done, rows, time.Since(start).Round(time.Second)))
		}
	}); err != nil {
		return err
	}
	// PostgreSQL: the state its autovacuum would leave the tables in, made
	// now rather than during the measurement. VACUUM sets the visibility
	// map (without it every "index-only" scan reads the table's rows too,
	// and the planner prefers bitmap scans of the table: about 60 random
	// table pages a search) and clears the dead member rows that the
	// bookings-version triggers leave, ANALYZE makes the statistics, and
	// CHECKPOINT writes the seeding's pages before the load starts.
	// No ANALYZE on SQLite: the server never runs it, and with its
	// statistics SQLite (a STAT4 build) compiles the search again on
	// every call whose bound member and dates differ (a tenth of the
	// search's CPU).
	if a.DB.Engine == store.Postgres {
		if err := settlePostgres(ctx, a.DB, log); err != nil {
			return err
		}
	} else if _, err := a.DB.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return err
	}
	return writeMark(ctx, a.DB, rows, members, now)
}

// settlePostgres vacuums and analyses the benchmark's tables (the
// schema's, not the whole database's: the other benchmarks' schemas are
// no business of this one) and writes their pages out (CHECKPOINT), so the
// measurement that follows pays for neither.
func settlePostgres(ctx context.Context, db *store.DB, log func(string)) error {
	if _, err := db.ExecContext(ctx, "VACUUM (ANALYZE) reservations, reservation_segments, reservation_passengers, members, sessions"); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	// CHECKPOINT needs a superuser or pg_checkpoint: without it the
	// checkpointer writes the pages later, and the figures say less.
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		log(fmt.Sprintf("no CHECKPOINT after vacuum (%v)", err))
	}
	return nil
}

// SeededSQLite returns a SQLite database in the seed cache holding rows
// reservations over members bench members, seeding it when the cache has
// none of the current seed version (docs/speed.md, "make bench"). When
// from names a smaller cached database, it is copied and continued (as
// SeedBench continues any database: reservations [from.rows, rows) over
// the larger member count) instead of starting empty. Callers that change the data work
// on a copy (CopySQLite).
func SeededSQLite(ctx context.Context, rows, members int, from *Seeded, log func(string)) (Seeded, error) {
	dir, err := SeedCacheDir()
	if err != nil {
		return Seeded{}, err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return Seeded{}, err
	}
	path := filepath.Join(dir, fmt.Sprintf("bookings-v%d-%d-%d.db", demo.BenchSeedVersion, rows, members))
	dsn := "sqlite:" + path
	if _, err := os.Stat(path); err == nil {
		if at, ok := usable(ctx, dsn, rows, members); ok {
			log(fmt.Sprintf("reusing %s (seeded %s)", path, at.UTC().Format(time.RFC3339)))
			return Seeded{DSN: dsn, Reused: true, SeededAt: at}, nil
		}
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		_ = os.Remove(path + suffix)
	}
	now := time.Now()
	if from != nil && strings.HasPrefix(from.DSN, "sqlite:") {
		if err := CopySQLite(strings.TrimPrefix(from.DSN, "sqlite:"), path); err != nil {
			return Seeded{}, err
		}
		now = from.SeededAt
	}
	start := time.Now()
	log(fmt.Sprintf("seeding %d reservations into %s", rows, path))
	if err := seedInto(ctx, dsn, members, rows, now, log); err != nil {
		return Seeded{}, err
	}
	took := time.Since(start)
	log(fmt.Sprintf("seeded %d reservations in %s", rows, took.Round(time.Second)))
	return Seeded{DSN: dsn, SeededAt: now, Took: took}, nil
}

// SeededPostgres is SeededSQLite on PostgreSQL: the schema (a name of its
// own per size) is kept between runs and seeded anew only when its mark
// does not match.
func SeededPostgres(ctx context.Context, base, schema string, rows, members int, log func(string)) (Seeded, error) {
	dsn, err := SchemaDSN(base, schema)
	if err != nil {
		return Seeded{}, err
	}
	if at, ok := usable(ctx, dsn, rows, members); ok {
		log(fmt.Sprintf("reusing schema %s (seeded %s)", schema, at.UTC().Format(time.RFC3339)))
		return Seeded{DSN: dsn, Reused: true, SeededAt: at}, nil
	}
	if err := ResetSchema(base, schema); err != nil {
		return Seeded{}, err
	}
	now := time.Now()
	start := time.Now()
	log(fmt.Sprintf("seeding %d reservations into schema %s", rows, schema))
	if err := seedInto(ctx, dsn, members, rows, now, log); err != nil {
		return Seeded{}, err
	}
	took := time.Since(start)
	log(fmt.Sprintf("seeded %d reservations in %s", rows, took.Round(time.Second)))
	return Seeded{DSN: dsn, SeededAt: now, Took: took}, nil
}

// SchemaDSN is base with search_path set to schema.
func SchemaDSN(base, schema string) (string, error) {
	if strings.ContainsAny(schema, "\"';") {
		return "", fmt.Errorf("bad schema name %q", schema)
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema, nil
}

// ResetSchema drops and creates schema on the PostgreSQL server base.
func ResetSchema(base, schema string) error {
	db, err := sql.Open("pgx", base)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(`DROP SCHEMA IF EXISTS ` + strconv.Quote(schema) + ` CASCADE`); err != nil {
		return err
	}
	_, err = db.Exec(`CREATE SCHEMA ` + strconv.Quote(schema))
	return err
}

// CopySQLite copies a closed SQLite database file (checkpointed: no WAL
// to carry) to dst.
func CopySQLite(src, dst string) error {
	if _, err := os.Stat(src + "-wal"); err == nil {
		if fi, _ := os.Stat(src + "-wal"); fi != nil && fi.Size() > 0 {
			return errors.New("copy " + src + ": its write-ahead log is not empty")
		}
	}
	in, err := os.Open(src) // #nosec G304 -- the bench's own cache file
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst) // #nosec G304 -- the bench's own file
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// PingPostgres checks that the PostgreSQL server base answers.
func PingPostgres(base string) error {
	db, err := sql.Open("pgx", base)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}
