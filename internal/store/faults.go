package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Fault is what a failed statement says of the database itself, apart
// from the statement: nothing, the database cannot be reached, or it
// cannot store more (disk full).
type Fault int

// The faults FaultOf tells apart.
const (
	NoFault     Fault = iota
	Unreachable       // no connection: refused, reset, closed, the server starting or shutting down
	Full              // the database refused a write for lack of space (disk full, quota, I/O error)
)

// FaultOf classifies err, a statement's error on either engine.
func FaultOf(err error) Fault {
	if err == nil {
		return NoFault
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() & 0xff { // the primary code of an extended one
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR:
			return Full
		case sqlite3.SQLITE_CANTOPEN:
			return Unreachable
		}
		return NoFault
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "53100", pgErr.Code == "58030": // disk_full, io_error
			return Full
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			// operator intervention: 57P01 admin shutdown, 57P02 crash
			// shutdown, 57P03 cannot connect now (starting up), 57P04
			// database dropped, 57P05 idle session timeout
			strings.HasPrefix(pgErr.Code, "57P0"),
			pgErr.Code == "53300": // too many connections
			return Unreachable
		}
		return NoFault
	}
	var connectErr *pgconn.ConnectError
	var netErr *net.OpError
	switch {
	case errors.As(err, &connectErr), errors.As(err, &netErr),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone), errors.Is(err, pgconn.ErrConnClosed),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.ETIMEDOUT), errors.Is(err, net.ErrClosed),
		// the connection ended mid-answer (PostgreSQL's restart -m
		// immediate, a proxy cut): pgx returns the reader's bare EOF
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return Unreachable
	}
	// database/sql's word for a pool closed under the statement, and
	// pgx's for a connection that broke mid-statement (PostgreSQL killed:
	// an unexpected EOF), whose error types are not exported
	msg := err.Error()
	// ("conn closed": a statement on a connection pgx already closed)
	for _, s := range []string{"sql: database is closed", "failed to receive message", "connection reset by peer", "conn closed"} {
		if strings.Contains(msg, s) {
			return Unreachable
		}
	}
	return NoFault
}

// faults remembers the writes the database refused for lack of space, for
// readiness and the metrics (WritesFailing, StorageFailures).
type faults struct {
	lastFull atomic.Int64 // unix nanoseconds of the last refusal, wall clock
	full     atomic.Int64 // refusals since start
}

// writeFailureWindow is how long after a refused write readiness says so.
const writeFailureWindow = 30 * time.Second

// Unavailable reports whether err is the database being unreachable or
// out of space (an answer worth retrying in a moment: 503), and remembers
// a refusal for lack of space.
func (db *DB) Unavailable(err error) bool {
	switch FaultOf(err) {
	case Full:
		db.noteFull()
		return true
	case Unreachable:
		return true
	}
	return false
}

func (db *DB) noteFull() {
	db.faults.full.Add(1)
	db.faults.lastFull.Store(time.Now().UnixNano())
}

// note records err's fault, if it has one (the writes of DB.Tx).
func (db *DB) note(err error) {
	if FaultOf(err) == Full {
		db.noteFull()
	}
}

// WritesFailing reports whether a write was refused for lack of space
// within the last 30 seconds (readiness: docs/operations.md).
func (db *DB) WritesFailing(context.Context) bool {
	last := db.faults.lastFull.Load()
	return last != 0 && time.Since(time.Unix(0, last)) < writeFailureWindow
}

// StorageFailures counts the writes refused for lack of space since start.
func (db *DB) StorageFailures() int64 { return db.faults.full.Load() }
