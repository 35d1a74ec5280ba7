package store

import (
	"context"
	"database/sql/driver"
	"reflect"
	"strings"
	"sync"
)

// SQLite compiles every statement it is given; the driver does not keep
// them, and database/sql only keeps those a caller prepared explicitly.
// Under `make bench` (payments) parsing was 18% of the server's CPU, as
// much as running the statements. statementCachingConnector wraps the SQLite
// driver's connector so that each connection keeps its compiled statements by SQL text
// (up to maxConnStmts), for plain queries and inside transactions alike: a
// repeat of a statement only binds and steps. A statement whose rows are
// still open when it is asked for again (a query inside the loop of the
// same query) gets a fresh, uncached one, and a multi-statement script is
// never cached.
type statementCachingConnector struct{ driver.Connector }

// maxConnStmts bounds each connection's cache; the application has a few
// hundred distinct statements, fewer on the hot paths.
const maxConnStmts = 256

// sqliteConn is what the SQLite driver's connection implements and the
// wrapper passes on.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

type stmtContext interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

func (d statementCachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := d.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(sqliteConn)
	if !ok {
		return c, nil
	}
	return &cachingConn{sqliteConn: sc, stmts: map[string]*connStmt{}}, nil
}

type cachingConn struct {
	sqliteConn
	mu    sync.Mutex
	stmts map[string]*connStmt
}

type connStmt struct {
	st   stmtContext
	busy bool // rows open, or a call running
}

// cacheable: one statement (a trailing semicolon at most).
func cacheable(query string) bool {
	return !strings.Contains(strings.TrimRight(strings.TrimSpace(query), "; \t\n"), ";")
}

// take returns the connection's compiled statement for query, marked busy,
// or nil when it cannot be cached or is busy.
func (c *cachingConn) take(ctx context.Context, query string) *connStmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil
		}
		s.busy = true
		return s
	}
	if len(c.stmts) >= maxConnStmts || !cacheable(query) {
		return nil
	}
	ds, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil // the uncached call reports the error
	}
	st, ok := ds.(stmtContext)
	if !ok {
		_ = ds.Close()
		return nil
	}
	s := &connStmt{st: st, busy: true}
	c.stmts[query] = s
	return s
}

func (c *cachingConn) give(s *connStmt) {
	c.mu.Lock()
	s.busy = false
	c.mu.Unlock()
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s := c.take(ctx, query)
	if s == nil {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	defer c.give(s)
	return s.st.ExecContext(ctx, args)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s := c.take(ctx, query)
	if s == nil {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	rows, err := s.st.QueryContext(ctx, args)
	if err != nil {
		c.give(s)
		return nil, err
	}
	return &cachedRows{Rows: rows, conn: c, s: s}, nil
}

// Close finalises the cached statements, then closes the connection
// (SQLite refuses to close a connection with live statements).
func (c *cachingConn) Close() error {
	c.mu.Lock()
	for q, s := range c.stmts {
		_ = s.st.Close()
		delete(c.stmts, q)
	}
	c.mu.Unlock()
	return c.sqliteConn.Close()
}

// cachedRows gives its statement back when closed and passes on the
// column type information of the driver's rows.
type cachedRows struct {
	driver.Rows
	conn *cachingConn
	s    *connStmt
	done bool
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	if !r.done {
		r.done = true
		r.conn.give(r.s)
	}
	return err
}

func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if x, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return x.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *cachedRows) ColumnTypeScanType(i int) reflect.Type {
	if x, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return x.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *cachedRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if x, is := r.Rows.(driver.RowsColumnTypeNullable); is {
		return x.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *cachedRows) ColumnTypeLength(i int) (int64, bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return x.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *cachedRows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return x.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}
