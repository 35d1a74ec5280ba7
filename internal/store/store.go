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
	"hash/fnv"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
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

// DB is the database handle shared by every store.
type DB struct {
	*sql.DB
	Engine Engine
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// Open connects to dsn: "sqlite:<path>" (or a bare path) or "postgres://…".
// It checks the connection but does not migrate.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var (
		db     *sql.DB
		engine Engine
		err    error
	)
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		engine = Postgres
		db, err = sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		db.SetMaxOpenConns(8)
		db.SetMaxIdleConns(8)
		db.SetConnMaxIdleTime(5 * time.Minute)
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
		q := url.Values{}
		// 32 MiB of page cache per connection keeps a large reservations index
		// in memory; temp tables (sorts) stay in memory too.
		for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)",
			"cache_size(-32768)", "temp_store(MEMORY)"} {
			q.Add("_pragma", p)
		}
		q.Set("_txlock", "immediate")
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		db, err = sql.Open("sqlite", path+sep+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
		// One writer at a time is SQLite's model; a small pool keeps readers
		// concurrent under WAL without piling up busy writers.
		db.SetMaxOpenConns(4)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", engine, err)
	}
	return &DB{DB: db, Engine: engine, Now: time.Now}, nil
}

// Migrate applies every pending migration, each in its own transaction.
func (db *DB) Migrate(ctx context.Context) error {
	dialect := goose.DialectSQLite3
	if db.Engine == Postgres {
		dialect = goose.DialectPostgres
	}
	var opts []goose.ProviderOption
	if db.Engine == Postgres {
		// Instances started together on one database would race on the
		// schema (duplicate keys, "relation exists"). A session-level
		// advisory lock makes them take turns; the later ones find nothing
		// pending. The lock id is per schema, so databases in other schemas
		// (each test has its own) do not wait for each other.
		var schema string
		if err := db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
			return fmt.Errorf("migrate: current schema: %w", err)
		}
		h := fnv.New64a()
		h.Write([]byte("members-migrations:" + schema))
		locker, err := lock.NewPostgresSessionLocker(
			lock.WithLockID(int64(h.Sum64()&(1<<62-1))), // #nosec G115 -- masked to 62 bits, fits int64
			lock.WithLockTimeout(1, 600),                // poll every second, give up after 10 minutes
		)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db.DB, mustSub(migrations, "migrations"), opts...)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Tx runs fn in a transaction, committing when it returns nil.
func (db *DB) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", Translate(err))
	}
	return nil
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
