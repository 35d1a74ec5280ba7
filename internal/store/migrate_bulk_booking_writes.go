package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// Migration 00280: a bulk writer of bookings (a batch of the bookings
// import or of the bookings feed, reservationfeed_batch.go) may turn the
// booking triggers off for its own transaction and do their work itself,
// once for the whole batch: the search views (00220) of the bookings it
// wrote, rebuilt by the same expressions from their rows, and the bookings
// version (00032) of every member concerned, bumped once.
//
// Why: the triggers do that work per statement on PostgreSQL and per row
// on SQLite, several times for one booking (its row, then each segment,
// then each passenger rewrites the booking's views and bumps its member).
// A batch of 500 bookings spent most of its time there: 0.6 s of its
// PostgreSQL statements a batch, and on SQLite a rewrite of the booking's
// covering index entry (which holds the views) per segment and passenger.
//
// The references of segments and passengers to their booking become
// deferrable on PostgreSQL (still checked at once unless a transaction
// defers them): there the batch writes a new booking's segments and
// passengers first and then the booking with its views made from them,
// one write of the booking's row instead of an insert and an update.
//
// The switch holds only for the writer's transaction, whatever happens:
// on PostgreSQL it is the transaction-local setting
// members.bulk_booking_writes ('on'); on SQLite a row of the table
// bulk_booking_writes, inserted in the writer's transaction and deleted
// before its commit (SQLite has one writer at a time, and no reader sees
// a row not committed). Every other writer (the server, the operations
// feed, a script) fires the triggers as before.
const migrationBulkBookingWrites = 280

// bulkWritesSetting is PostgreSQL's switch (set_config, local to the
// transaction); bulkWritesTable is SQLite's.
const (
	bulkWritesSetting = "members.bulk_booking_writes"
	bulkWritesTable   = "bulk_booking_writes"
)

// pgBulkGuard is the first statement of each booking trigger function
// from 00280 on.
const pgBulkGuard = `
	IF current_setting('` + bulkWritesSetting + `', true) = 'on' THEN
		RETURN NULL;
	END IF;`

// sqliteBulkGuard is the condition added to each booking trigger of SQLite.
const sqliteBulkGuard = `NOT EXISTS (SELECT 1 FROM ` + bulkWritesTable + `)`

// viewFunction is the PostgreSQL trigger function that rebuilds column
// (view, the SQL of the view of reservation r) of the reservations of
// table's rows (the function of 00220, rebuildViewFunctionSQL, without JIT
// as 00230 set it), with the bulk writer's guard when guarded.
func viewFunction(table, column, view string, guarded bool) string {
	f := strings.Replace(rebuildViewFunctionSQL(table, column, view), " LANGUAGE plpgsql AS $$", " LANGUAGE plpgsql "+noJIT+" AS $$", 1)
	if guarded {
		f = strings.Replace(f, "\nBEGIN", "\nBEGIN"+pgBulkGuard, 1)
	}
	return f
}

// pgBookingFunctions are the booking trigger functions of PostgreSQL,
// guarded or as 00230 left them, the segments' view of the columns cols.
func pgBookingFunctions(guarded bool, cols string) []string {
	var out []string
	for _, table := range versionedTables {
		f := bumpVersionFunction("CREATE OR REPLACE", table, true)
		if guarded {
			f = strings.Replace(f, "\nBEGIN", "\nBEGIN"+pgBulkGuard, 1)
		}
		out = append(out, f)
	}
	out = append(out,
		viewFunction(searchViewTables[0], "segments_view", segmentsViewSQL(Postgres, cols, "r.id"), guarded),
		viewFunction(searchViewTables[1], "passengers_view", passengersViewSQL(Postgres, "r.id"), guarded))
	return out
}

// sqliteBookingTriggers are the booking triggers of SQLite (the bookings
// version's of 00032, the views' of 00244), guarded or not, each dropped
// and made again, the segments' view of the columns cols.
func sqliteBookingTriggers(guarded bool, cols string) []string {
	var out []string
	creates := append([]string{}, bookingsVersionSQLite[1:]...) // [0] adds the column
	creates = append(creates, viewTriggersSQLite(
		func(id string) string { return orderedArraySQL(cols, "reservation_segments", "s", id) },
		func(id string) string { return orderedArraySQL(paxCols, "reservation_passengers", "x", id) })...)
	for _, c := range creates {
		if !strings.HasPrefix(c, "CREATE TRIGGER ") {
			continue // viewTriggersSQLite's own DROP TRIGGER IF EXISTS
		}
		name := strings.Fields(c)[2]
		if guarded {
			c = guardSQLiteTrigger(c)
		}
		out = append(out, `DROP TRIGGER IF EXISTS `+name, c)
	}
	return out
}

// guardSQLiteTrigger adds sqliteBulkGuard to a CREATE TRIGGER statement's
// WHEN clause (making one when it has none).
func guardSQLiteTrigger(create string) string {
	i := strings.Index(create, " BEGIN")
	head, body := create[:i], create[i:]
	if strings.Contains(head, " WHEN ") {
		return head + " AND " + sqliteBulkGuard + body
	}
	return head + " WHEN " + sqliteBulkGuard + body
}

func bulkBookingWritesMigration(engine Engine) *goose.Migration {
	// The segments' columns as they were at 00280 (00291 adds one and makes
	// the segments' view triggers again, guarded).
	var up, down []string
	if engine == Postgres {
		up, down = pgBookingFunctions(true, segmentCols220), pgBookingFunctions(false, segmentCols220)
		for _, c := range bookingReferences {
			table := strings.TrimSuffix(c, "_reservation_id_fkey")
			up = append(up, `ALTER TABLE `+table+` ALTER CONSTRAINT `+c+` DEFERRABLE INITIALLY IMMEDIATE`)
			down = append(down, `ALTER TABLE `+table+` ALTER CONSTRAINT `+c+` NOT DEFERRABLE`)
		}
	} else {
		up = append([]string{`CREATE TABLE ` + bulkWritesTable + ` (writer INTEGER NOT NULL)`}, sqliteBookingTriggers(true, segmentCols220)...)
		down = append(sqliteBookingTriggers(false, segmentCols220), `DROP TABLE `+bulkWritesTable)
	}
	return statementsMigration(migrationBulkBookingWrites, "bulk booking writes", up, down)
}

// withBookingTriggersOff runs fn in tx with the booking triggers off
// (migration 00280): fn must leave the search views and the bookings
// versions as the triggers would have (bulkBookingWrites does). The
// triggers are on again when it returns, whatever fn did.
func withBookingTriggersOff(ctx context.Context, tx *sql.Tx, engine Engine, fn func() error) error {
	// Without JIT, as the triggers' functions (noJIT): the rebuild of a
	// batch's views was planned at 600 ms of compiling for 150 ms of work.
	on, off := `SELECT set_config('`+bulkWritesSetting+`', 'on', true), set_config('jit', 'off', true)`,
		`SELECT set_config('`+bulkWritesSetting+`', 'off', true)`
	if engine == SQLite {
		on, off = `INSERT INTO `+bulkWritesTable+` (writer) VALUES (1)`, `DELETE FROM `+bulkWritesTable
	}
	if _, err := tx.ExecContext(ctx, on); err != nil {
		return fmt.Errorf("booking triggers off: %w", err)
	}
	err := fn()
	if _, oerr := tx.ExecContext(ctx, off); oerr != nil && err == nil {
		err = fmt.Errorf("booking triggers on: %w", oerr)
	}
	return err
}

// viewsSQL are the SQL of the search views of the reservation whose id
// is the SQL expression id, as the triggers make them.
func viewsSQL(engine Engine, id string) (segments, passengers string) {
	if engine == SQLite {
		return orderedArraySQL(segmentCols, "reservation_segments", "s", id), orderedArraySQL(paxCols, "reservation_passengers", "x", id)
	}
	return segmentsViewSQL(Postgres, segmentCols, id), passengersViewSQL(Postgres, id)
}

// bookingReferences are the references of the segments and passengers to
// their booking (PostgreSQL's constraint names), deferrable from 00280 on.
var bookingReferences = []string{"reservation_segments_reservation_id_fkey", "reservation_passengers_reservation_id_fkey"}

// deferBookingReferences defers (or checks now, and no longer defers) the
// references of segments and passengers to their booking in tx
// (PostgreSQL), so a batch may write a new booking's segments before the
// booking.
func deferBookingReferences(ctx context.Context, tx *sql.Tx, deferred bool) error {
	mode := ` IMMEDIATE`
	if deferred {
		mode = ` DEFERRED`
	}
	if _, err := tx.ExecContext(ctx, `SET CONSTRAINTS `+strings.Join(bookingReferences, ", ")+mode); err != nil {
		return fmt.Errorf("booking references: %w", err)
	}
	return nil
}

// rebuildViews sets the search views of the reservations ids from their
// rows (the triggers' expressions: segmentsViewSQL on PostgreSQL,
// orderedArraySQL on SQLite). The caller has locked those another writer
// could see (the triggers lock them first, by id).
func rebuildViews(ctx context.Context, tx *sql.Tx, engine Engine, ids []string) error {
	segs, pax := viewsSQL(engine, "reservations.id")
	return execIn(ctx, tx, engine, ids, func(list string) []string {
		return []string{`UPDATE reservations SET segments_view = ` + segs + `, passengers_view = ` + pax + ` WHERE id IN ` + list}
	})
}

// bumpVersions moves the bookings version of the members ids (sorted:
// the lock order), once each.
func bumpVersions(ctx context.Context, tx *sql.Tx, engine Engine, ids []string) error {
	return execIn(ctx, tx, engine, ids, func(list string) []string {
		return []string{`UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN ` + list}
	})
}

// execIn runs the statements stmts makes for each chunk of keys (their
// "IN" list), the keys bound.
func execIn(ctx context.Context, tx *sql.Tx, engine Engine, keys []string, stmts func(list string) []string) error {
	for start := 0; start < len(keys); {
		n := chunkRows(min(len(keys)-start, maxInList), 1)
		args := make([]any, n)
		for k, id := range keys[start : start+n] {
			args[k] = id
		}
		start += n
		for _, q := range stmts(inList(engine, 0, n)) {
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return err
			}
		}
	}
	return nil
}
