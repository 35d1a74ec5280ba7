package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"members/internal/booking"
)

// ReadPoolForTest is the pool of the hot reads.
func ReadPoolForTest(db *DB) *sql.DB { return db.reads }

// FlightSegmentsSQL is the query by which a flight event finds its bookings.
const FlightSegmentsSQL = flightSegmentsSQL

// FlightSegmentsUpdateSQL is the statement by which a flight event
// updates n of its segments.
func FlightSegmentsUpdateSQL(e Engine, n int) string { return flightSegmentsUpdateSQL(e, n) }

// SearchPageStatements is SearchPage as it was before the one statement
// (SearchPageSQL): the version with the count, then the page, its
// segments and its passengers in separate statements, inside a read
// transaction on SQLite. The tests compare both.
func (s *BookingStore) SearchPageStatements(ctx context.Context, q booking.Query) (booking.Page, error) {
	p := booking.Page{List: []booking.Reservation{}}
	err := s.db.read(ctx, func(r reader) error {
		where, args := searchWhere(q)
		var lastMin sql.NullInt64
		if err := r.queryRow(ctx, `SELECT COALESCE((SELECT bookings_version FROM members WHERE id = $1), -1), COUNT(*), MIN(r.last_depart_at)
			FROM reservations r WHERE `+where, args...).Scan(&p.Version, &p.Total, &lastMin); err != nil {
			return err
		}
		if lastMin.Valid {
			p.LastDepartMin = time.UnixMilli(lastMin.Int64).UTC()
		}
		if p.Total == 0 || q.Offset >= p.Total {
			return nil
		}
		query, args := SearchSQL(q)
		var err error
		p.List, err = s.queryWith(ctx, r, query, args...)
		return err
	})
	return p, err
}

// read calls fn with a reader; on SQLite inside a read-only transaction
// (one snapshot for the count and the page), as the old search did.
func (db *DB) read(ctx context.Context, fn func(r reader) error) error {
	if db.Engine != SQLite {
		return fn(reader{db: db})
	}
	tx, err := db.reads.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(reader{db: db, tx: tx}); err != nil {
		return err
	}
	return tx.Commit()
}

// SearchViewsDown undoes migration 00220 (its down statements) on db.
func SearchViewsDown(ctx context.Context, db *DB) error {
	down := searchViewsSQLiteDown
	if db.Engine == Postgres {
		down = searchViewsPostgresDown
	}
	// 00244 rewrote 00220's SQLite triggers: a database from before 00220
	// has neither.
	for _, s := range append(down, `DELETE FROM goose_db_version WHERE version_id IN (220, 244)`) {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// MigrationDown undoes one migration (its down), as a downgrade would.
func MigrationDown(ctx context.Context, db *DB, version int64) error {
	p, err := db.migrations(ctx, true)
	if err != nil {
		return err
	}
	if _, err := p.ApplyVersion(ctx, version, false); err != nil {
		return fmt.Errorf("down %d: %w", version, err)
	}
	return nil
}
