// Package store opens the database (SQLite by default, PostgreSQL in
// production), applies the embedded migrations and implements the store
// interfaces of the domain packages. SQL is written once for both engines:
// $N placeholders, TEXT ids made in Go, BIGINT unix milliseconds for
// instants, TEXT YYYY-MM-DD for calendar dates.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"members/internal/migratelock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Engine names the database engine in use.
type Engine string

// The two supported engines.
const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// SQLite memory: the page cache budget of every connection together, the
// pools' sizes, and the limit of SQLite's whole heap (cache, statements,
// sorts).
const (
	sqliteCacheBudgetKiB = 16 * 1024
	sqliteMaxConns       = 4
	sqliteReadConns      = 2
	sqliteHeapLimitKiB   = 32 * 1024
)

// postgresReadConns is the size of PostgreSQL's pool of the hot reads.
// A PostgreSQL read is a round trip to another process, during which the
// connection's request waits without using the CPU: with 2, the eight
// connections of the booking search's benchmark queued for the pool while
// the CPUs had room (an uncached search was 5 statements then, 4 round
// trips; it is 2 now, the session lookup and SearchPage's one statement).
const postgresReadConns = 4

// DB is the database handle shared by every store.
type DB struct {
	*sql.DB
	Engine Engine
	// Now is the clock; tests replace it.
	Now func() time.Time
	// reads is the pool of the hot reads (the session lookup on every
	// request, the booking search): read-only, apart from the pool of
	// every other statement, so that a read never waits for a connection
	// behind write transactions (docs/speed.md, "Server": the read pool).
	// It is the main pool for an in-memory SQLite database.
	reads *sql.DB
	// faults remembers writes refused for lack of space (faults.go).
	faults *faults
}

// Open connects to dsn: "sqlite:<path>" (or a bare path) or "postgres://…".
// It checks the connection but does not migrate.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var (
		db, reads *sql.DB
		engine    Engine
		err       error
	)
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		engine = Postgres
		if db, err = sql.Open("pgx", dsn); err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		db.SetMaxOpenConns(8)
		db.SetMaxIdleConns(8)
		db.SetConnMaxIdleTime(5 * time.Minute)
		if reads, err = sql.Open("pgx", dsn); err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		reads.SetMaxOpenConns(postgresReadConns)
		reads.SetMaxIdleConns(postgresReadConns)
		reads.SetConnMaxIdleTime(5 * time.Minute)
	default:
		engine = SQLite
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" {
			return nil, errors.New("open sqlite: empty path")
		}
		if path != ":memory:" && !strings.HasPrefix(path, "file:") {
			if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
				return nil, fmt.Errorf("open sqlite: create folder: %w", err)
			}
		}
		if db, err = openSQLite(path, sqliteMaxConns, false); err != nil {
			return nil, err
		}
		// An in-memory database is one per connection: its reads stay on
		// the main pool.
		if path != ":memory:" && !strings.Contains(path, "mode=memory") {
			if reads, err = openSQLite(path, sqliteReadConns, true); err != nil {
				_ = db.Close()
				return nil, err
			}
		}
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		_ = db.Close()
		if reads != nil {
			_ = reads.Close()
		}
		return nil, fmt.Errorf("connect to %s database: %w", engine, err)
	}
	out := &DB{DB: db, Engine: engine, Now: time.Now, reads: reads, faults: &faults{}}
	if reads == nil {
		out.reads = db
	}
	return out, nil
}

// sqliteBusyTimeoutMs is how long a statement waits for SQLite's write
// lock before it fails.
const sqliteBusyTimeoutMs = 10000

// openSQLite opens a pool of conns connections to the SQLite database at
// path; readOnly pools refuse every write (query_only).
func openSQLite(path string, conns int, readOnly bool) (*sql.DB, error) {
	q := url.Values{}
	// One memory budget for SQLite, not one per pooled connection: the
	// page cache budget is split over every connection of both pools
	// (cache_size in KiB per connection), and the soft heap limit, which
	// is process-wide, makes SQLite give back cache pages before its whole
	// heap passes the budget. Pages beyond it come from the operating
	// system's file cache, which is shared by every connection and process.
	//
	// secure_delete overwrites what a statement deletes with zeros, in the
	// table's page and in pages it frees: a mail's secrets, once deleted
	// (mail.go), are gone from the database file, not left in free space.
	for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeoutMs), "synchronous(NORMAL)",
		"secure_delete(1)",
		fmt.Sprintf("cache_size(-%d)", sqliteCacheBudgetKiB/(sqliteMaxConns+sqliteReadConns)), "temp_store(MEMORY)",
		fmt.Sprintf("soft_heap_limit(%d)", sqliteHeapLimitKiB*1024)} {
		q.Add("_pragma", p)
	}
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	conn, err := sqlite.NewConnector(path + sep + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	// each connection keeps its compiled statements (sqlitestmts.go)
	db := sql.OpenDB(statementCachingConnector{conn})
	// One writer at a time is SQLite's model; a small pool keeps readers
	// concurrent under WAL without piling up busy writers.
	db.SetMaxOpenConns(conns)
	// Keep every pooled connection open. database/sql keeps only 2 idle
	// by default: under load the other two were closed after each use
	// and opened again (pragmas, schema parse, statements prepared
	// anew, page cache thrown away): a seventh of the session check's
	// CPU and an eighth of the booking search's went there.
	db.SetMaxIdleConns(conns)
	return db, nil
}

// LimitPools bounds each of the two pools to n connections. Tests use one:
// then a path that asks a pool for a second connection while it holds one
// waits for itself, which a deadline turns into a failure, instead of
// passing unnoticed until more members than connections do it at once.
func (db *DB) LimitPools(n int) {
	db.SetMaxOpenConns(n)
	db.reads.SetMaxOpenConns(n)
}

// BulkWriteCacheMiB is the SQLite page cache of a bulk writer (the
// imports): the indexes of the tables a batch fills stay in memory, where
// the server's budget (sqliteCacheBudgetKiB over every connection) had
// their pages read from and written to the files over and over within a
// batch's transaction.
const BulkWriteCacheMiB = 32

// ForBulkWrites readies the handle of a process that only writes
// batches, one after another (the members and bookings imports), on one
// connection. On SQLite it gets a page cache of cacheMiB (and SQLite's
// heap limit raised to match). On PostgreSQL every statement is planned
// for the tables as they are when it runs (plan_cache_mode): a batch's
// statements repeat thousands of times while the tables they read grow
// from nothing, and PostgreSQL's generic plan, made after five runs for
// the tables as they were then, kept scanning a table of 20,000 members
// for each of a batch's 500 numbers (48 s for 20,000 members instead of
// 3 s). Without JIT either (below).
func (db *DB) ForBulkWrites(ctx context.Context, cacheMiB int) error {
	db.SetMaxOpenConns(1)
	pragmas := []string{fmt.Sprintf("PRAGMA cache_size = -%d", cacheMiB*1024),
		fmt.Sprintf("PRAGMA soft_heap_limit = %d", (cacheMiB+sqliteHeapLimitKiB/1024)<<20)}
	if db.Engine == Postgres {
		// and without JIT: a batch's lookups of hundreds of keys in tables
		// without statistics yet were estimated at hundreds of thousands
		// of rows and compiled first (the views' rebuild: 600 ms of
		// compiling for 150 ms of work)
		pragmas = []string{"SET plan_cache_mode = force_custom_plan", "SET jit = off"}
	}
	for _, p := range pragmas {
		if _, err := db.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("bulk writes: %w", err)
		}
	}
	return nil
}

// Close closes both pools.
func (db *DB) Close() error {
	if db.reads != db.DB {
		_ = db.reads.Close()
	}
	return db.DB.Close()
}

// queryHot is QueryContext on the read pool (hot read paths). On SQLite
// the connection it takes keeps the statement compiled (sqlitestmts.go);
// pgx caches prepared statements per connection on PostgreSQL.
func (db *DB) queryHot(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.reads.QueryContext(ctx, query, args...)
}

// queryRowHot is QueryRowContext on the read pool.
func (db *DB) queryRowHot(ctx context.Context, query string, args ...any) *sql.Row {
	return db.reads.QueryRowContext(ctx, query, args...)
}

// reader runs reads on the read pool, or inside a read transaction when
// tx is set (the tests' old multi-statement search, export_test.go). A
// statement of a read transaction runs on the transaction's own
// connection: nothing inside it waits for a second connection of the
// pool, which other readers may hold while they wait in turn (with 2
// pooled connections and a few first searches at once, that was a
// deadlock). SearchPage needs none: its answer is one statement.
type reader struct {
	db *DB
	tx *sql.Tx
	// lockSegments (in tx, PostgreSQL) locks the segments read, as a
	// flight event's writes would (the bookings import's batch).
	lockSegments bool
}

func (r reader) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if r.tx == nil {
		return r.db.queryHot(ctx, query, args...)
	}
	return r.tx.QueryContext(ctx, query, args...)
}

func (r reader) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if r.tx == nil {
		return r.db.queryRowHot(ctx, query, args...)
	}
	return r.tx.QueryRowContext(ctx, query, args...)
}

// Migrate applies every pending migration, each in its own transaction.
func (db *DB) Migrate(ctx context.Context) error {
	p, err := db.migrations(ctx, true)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// MigrationsCurrent reports whether every migration this build carries is
// applied (the readiness check: an instance of a newer build on an older
// schema is not ready). It takes no lock.
func (db *DB) MigrationsCurrent(ctx context.Context) (bool, error) {
	p, err := db.migrations(ctx, false)
	if err != nil {
		return false, err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("migrations: %w", err)
	}
	return !pending, nil
}

// migrations is the goose provider of the embedded migrations; lock makes
// instances started together take turns on PostgreSQL.
func (db *DB) migrations(ctx context.Context, lock bool) (*goose.Provider, error) {
	dialect := goose.DialectSQLite3
	if db.Engine == Postgres {
		dialect = goose.DialectPostgres
	}
	var opts []goose.ProviderOption
	if lock && db.Engine == Postgres {
		// Instances started together take turns (docs/security.md).
		locker, err := migratelock.Postgres(ctx, db.DB, "members-migrations")
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	// Migration numbers are handed out to pieces of work in advance, so a
	// lower number can land after a higher one was applied: apply it
	// then, instead of refusing to start (the migrations are independent).
	opts = append(opts, goose.WithGoMigrations(bookingsVersionMigration(db.Engine), searchViewsMigration(db.Engine),
		bookingTriggersMigration(db.Engine), viewsSQLite340Migration(db.Engine), bulkBookingWritesMigration(db.Engine),
		previousGateMigration(db.Engine)), goose.WithAllowOutofOrder(true))
	p, err := goose.NewProvider(dialect, db.DB, mustSub(migrations, "migrations"), opts...)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return p, nil
}

// Tx runs fn in a transaction, committing when it returns nil.
func (db *DB) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		db.note(err)
		return err
	}
	if err := tx.Commit(); err != nil {
		db.note(err)
		return fmt.Errorf("commit: %w", Translate(err))
	}
	return nil
}

// txAttempts bounds the runs of TxRetry.
const txAttempts = 5

// TxRetry is Tx, run again from the start (up to txAttempts runs in all)
// when PostgreSQL ended the transaction to break a deadlock (40P01) or as
// a serialization failure (40001): the imports' batches, whose many locks
// may cross those of the requests served meanwhile (a flight event on
// the same bookings, members whose bookings version both bump). fn must
// set everything it answers afresh on each run.
func (db *DB) TxRetry(ctx context.Context, fn func(*sql.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := db.Tx(ctx, fn)
		if err == nil || attempt == txAttempts || !retryable(err) {
			return err
		}
		t := time.NewTimer(time.Duration(attempt*attempt) * 10 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// retryable reports a PostgreSQL deadlock or serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// NowMillis is the clock in unix milliseconds, the storage form of instants.
func (db *DB) NowMillis() int64 { return db.Now().UnixMilli() }

// ErrNotFound and ErrConflict are what stores return for a missing row and
// a unique-key clash on either engine; domain packages map them.
var (
	ErrNotFound = errors.New("store: not found")
	ErrConflict = errors.New("store: conflict")
)

// Translate turns driver errors of both engines into ErrNotFound or
// ErrConflict, leaving others as they are.
func Translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return fmt.Errorf("%w: %s", ErrConflict, pgErr.ConstraintName)
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %v", ErrConflict, err)
		}
	}
	return err
}
