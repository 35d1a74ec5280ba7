package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// Multi-row statements of the imports' batches (members import, bookings
// import): one statement writes many rows, one round trip to PostgreSQL
// and one compiled statement on SQLite instead of one per row.
//
// A batch's rows go in chunks of bulkChunks rows, the largest that fits
// first: the statements' texts are few (one per chunk size and table), so
// both engines keep them compiled (SQLite's per-connection statement cache,
// pgx's prepared statements), whatever the batch's size; at most one
// statement of each smaller size follows the large ones (a batch of 500:
// 256, 128, 64, 32, 16 and 4 rows). A chunk stays within both engines'
// limit of bound parameters (SQLite 32,766).
var bulkChunks = []int{1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1}

// maxBulkParams bounds the parameters of one statement.
const maxBulkParams = 30000

// chunkRows returns the size of the next chunk of n rows of cols columns.
func chunkRows(n, cols int) int {
	for _, s := range bulkChunks {
		if s <= n && s*cols <= maxBulkParams {
			return s
		}
	}
	return 1
}

// placeholders writes rows × cols placeholders, "(?,?),(?,?)" on SQLite
// and "($1,$2),($3,$4)" on PostgreSQL, each cast to its column's type on
// PostgreSQL when casts is given (a VALUES list outside an INSERT, whose
// parameters PostgreSQL cannot type from a target column).
func placeholders(b *strings.Builder, engine Engine, rows, cols int, casts []string) {
	n := 0
	for r := range rows {
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for c := range cols {
			if c > 0 {
				b.WriteByte(',')
			}
			n++
			if engine == SQLite {
				b.WriteByte('?')
				continue
			}
			b.WriteString("$" + strconv.Itoa(n))
			if casts != nil {
				b.WriteString("::" + casts[c])
			}
		}
		b.WriteByte(')')
	}
}

// bulkExec runs head + VALUES rows + tail over rows (each of len(cols)
// values) in chunks. head is "INSERT INTO t (a, b) VALUES " or, for a
// list of values joined to a table, "WITH v (a, b) AS (VALUES " with tail
// ") UPDATE t SET … FROM v WHERE …"; casts (nil for an INSERT) types
// each column on PostgreSQL.
func bulkExec(ctx context.Context, tx Execer, engine Engine, head, tail string, casts []string, cols int, rows [][]any) error {
	args := make([]any, 0, min(len(rows), bulkChunks[0])*cols)
	for len(rows) > 0 {
		n := chunkRows(len(rows), cols)
		var b strings.Builder
		b.WriteString(head)
		placeholders(&b, engine, n, cols, casts)
		b.WriteString(tail)
		args = args[:0]
		for _, r := range rows[:n] {
			if len(r) != cols {
				return fmt.Errorf("bulk: a row of %d values for %d columns", len(r), cols)
			}
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// maxInList bounds the values of one "IN (…)" lookup of a batch.
const maxInList = 1000

// inList is "($1,$2,…)" (PostgreSQL, numbered after the first args
// parameters) or "(?,?,…)" (SQLite) for n values.
func inList(engine Engine, args, n int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if engine == SQLite {
			b.WriteByte('?')
		} else {
			b.WriteString("$" + strconv.Itoa(args+i+1))
		}
	}
	b.WriteByte(')')
	return b.String()
}

// queryIn runs query (ending in "IN ", after the parameters pre) with
// keys in lists of at most maxInList, calling scan for every row; a text
// per chunk size, as bulkExec's.
func queryIn(ctx context.Context, q queryer, engine Engine, query, tail string, pre []any, keys []string, scan func(*sql.Rows) error) error {
	for len(keys) > 0 {
		n := chunkRows(min(len(keys), maxInList), 1)
		args := append(make([]any, 0, len(pre)+n), pre...)
		for _, k := range keys[:n] {
			args = append(args, k)
		}
		if err := func() error {
			rows, err := q.QueryContext(ctx, query+inList(engine, len(pre), n)+tail, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				if err := scan(rows); err != nil {
					return err
				}
			}
			return rows.Err()
		}(); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}

// savepoint runs fn under a savepoint of tx: when fn fails, what it wrote
// is rolled back and the transaction goes on (PostgreSQL refuses every
// statement of a transaction after a failed one, until the rollback to a
// savepoint). The error is fn's.
func savepoint(ctx context.Context, tx *sql.Tx, name string, fn func() error) error {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT `+name); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	if err := fn(); err != nil {
		if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT `+name); rerr != nil {
			return fmt.Errorf("rollback to savepoint: %w (after: %v)", rerr, err)
		}
		if _, rerr := tx.ExecContext(ctx, `RELEASE SAVEPOINT `+name); rerr != nil {
			return fmt.Errorf("release savepoint: %w (after: %v)", rerr, err)
		}
		return err
	}
	if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT `+name); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}
