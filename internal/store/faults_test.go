package store_test

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"members/internal/store"
)

// What a failed statement says of the database: the faults answered 503
// (docs/operations.md, "A database outage answers 503") and nothing else.
func TestFaultOf(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("payment: load: %w", err) }
	for _, tc := range []struct {
		name string
		err  error
		want store.Fault
	}{
		{"nil", nil, store.NoFault},
		{"a bug", errors.New("no such column: x"), store.NoFault},
		{"not found", wrap(store.ErrNotFound), store.NoFault},
		{"unique clash", wrap(&pgconn.PgError{Code: "23505"}), store.NoFault},
		{"disk full", wrap(&pgconn.PgError{Code: "53100"}), store.Full},
		{"I/O error", wrap(&pgconn.PgError{Code: "58030"}), store.Full},
		{"admin shutdown", wrap(&pgconn.PgError{Code: "57P01"}), store.Unreachable},
		{"starting up", wrap(&pgconn.PgError{Code: "57P03"}), store.Unreachable},
		{"connection failure", wrap(&pgconn.PgError{Code: "08006"}), store.Unreachable},
		{"too many connections", wrap(&pgconn.PgError{Code: "53300"}), store.Unreachable},
		{"refused", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), store.Unreachable},
		{"bad connection", wrap(driver.ErrBadConn), store.Unreachable},
		{"connection done", wrap(sql.ErrConnDone), store.Unreachable},
		{"pgx conn closed", wrap(pgconn.ErrConnClosed), store.Unreachable},
		{"pool closed", wrap(errors.New("sql: database is closed")), store.Unreachable},
		{"broke mid-statement", wrap(errors.New("failed to receive message: unexpected EOF")), store.Unreachable},
		{"bare unexpected EOF (restart -m immediate)", wrap(io.ErrUnexpectedEOF), store.Unreachable},
		{"EOF", wrap(io.EOF), store.Unreachable},
		{"reset", wrap(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), store.Unreachable},
		{"broken pipe", wrap(&net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}), store.Unreachable},
		{"closed socket", wrap(net.ErrClosed), store.Unreachable},
		{"crash shutdown", wrap(&pgconn.PgError{Code: "57P02"}), store.Unreachable},
		{"database dropped", wrap(&pgconn.PgError{Code: "57P04"}), store.Unreachable},
		{"idle session timeout", wrap(&pgconn.PgError{Code: "57P05"}), store.Unreachable},
		{"query cancelled is no outage", wrap(&pgconn.PgError{Code: "57014"}), store.NoFault},
		{"connection does not exist", wrap(&pgconn.PgError{Code: "08003"}), store.Unreachable},
		{"pgx statement on a closed conn", wrap(errors.New("conn closed")), store.Unreachable},
	} {
		if got := store.FaultOf(tc.err); got != tc.want {
			t.Errorf("%s: FaultOf(%v) = %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
}
