package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"
)

// Migration 00032: a version of each member's bookings, bumped by triggers
// in the transaction of every change to the member's reservations, their
// segments or their passengers, whoever writes them (any instance, any
// tool). An instance that cached an answer built from the bookings compares
// the version it saw with the current one on every request: one
// primary-key read tells it whether the answer still holds, so a change
// made on one instance is seen at once on every other.
//
// The triggers differ between the engines, hence a Go migration: SQLite
// has row triggers only; PostgreSQL gets statement triggers over the
// transition tables, so a bulk insert bumps each member once, not once
// per row.
const migrationBookingsVersion = 32

var bookingsVersionSQLite = []string{
	`ALTER TABLE members ADD COLUMN bookings_version BIGINT NOT NULL DEFAULT 0`,
	`CREATE TRIGGER reservations_version_ins AFTER INSERT ON reservations WHEN NEW.member_id IS NOT NULL BEGIN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id = NEW.member_id; END`,
	`CREATE TRIGGER reservations_version_upd AFTER UPDATE ON reservations BEGIN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (OLD.member_id, NEW.member_id); END`,
	`CREATE TRIGGER reservations_version_del AFTER DELETE ON reservations WHEN OLD.member_id IS NOT NULL BEGIN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id = OLD.member_id; END`,
	`CREATE TRIGGER reservation_segments_version_ins AFTER INSERT ON reservation_segments BEGIN
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id = (SELECT member_id FROM reservations WHERE id = NEW.reservation_id); END`,
	`CREATE TRIGGER reservation_segments_version_upd AFTER UPDATE ON reservation_segments BEGIN
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id IN (SELECT member_id FROM reservations WHERE id IN (OLD.reservation_id, NEW.reservation_id)); END`,
	`CREATE TRIGGER reservation_segments_version_del AFTER DELETE ON reservation_segments BEGIN
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id = (SELECT member_id FROM reservations WHERE id = OLD.reservation_id); END`,
	`CREATE TRIGGER reservation_passengers_version_ins AFTER INSERT ON reservation_passengers BEGIN
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id = (SELECT member_id FROM reservations WHERE id = NEW.reservation_id); END`,
	`CREATE TRIGGER reservation_passengers_version_upd AFTER UPDATE ON reservation_passengers BEGIN
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id IN (SELECT member_id FROM reservations WHERE id IN (OLD.reservation_id, NEW.reservation_id)); END`,
	`CREATE TRIGGER reservation_passengers_version_del AFTER DELETE ON reservation_passengers BEGIN
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id = (SELECT member_id FROM reservations WHERE id = OLD.reservation_id); END`,
}

var bookingsVersionSQLiteDown = []string{
	`DROP TRIGGER reservation_passengers_version_del`, `DROP TRIGGER reservation_passengers_version_upd`,
	`DROP TRIGGER reservation_passengers_version_ins`, `DROP TRIGGER reservation_segments_version_del`,
	`DROP TRIGGER reservation_segments_version_upd`, `DROP TRIGGER reservation_segments_version_ins`,
	`DROP TRIGGER reservations_version_del`, `DROP TRIGGER reservations_version_upd`, `DROP TRIGGER reservations_version_ins`,
	`ALTER TABLE members DROP COLUMN bookings_version`,
}

// bookingsVersionPostgres: one function per table; each statement trigger
// bumps the members named by the rows the statement touched (for the
// segments and passengers, the members of their reservations). These are
// the functions as migration 00032 made them; 00230 replaced them
// (bumpVersionFunction).
func bookingsVersionPostgres() []string {
	out := []string{`ALTER TABLE members ADD COLUMN bookings_version BIGINT NOT NULL DEFAULT 0`}
	for _, table := range versionedTables {
		out = append(out, bumpVersionFunction("CREATE", table, false))
		out = append(out, statementTriggers(table, "version", table+"_bump_version()")...)
	}
	return out
}

// versionedTables are the tables whose changes bump the bookings version.
var versionedTables = []string{"reservations", "reservation_segments", "reservation_passengers"}

// bumpVersionFunction is the PostgreSQL trigger function of table's
// version bump (verb CREATE, or CREATE OR REPLACE). An UPDATE names the
// members of both its old and its new rows: asked as "id IN (old) OR id IN
// (new)" (byKey false, as migration 00032 wrote it), PostgreSQL can only
// test each member row against both lists, a scan of the whole members
// table on every update of a booking; "id IN (old UNION new)" looks each
// member up by its key. byKey also turns JIT off in the function
// (noJIT).
func bumpVersionFunction(verb, table string, byKey bool) string {
	// the members of the rows in a transition table
	members := func(rows string) string {
		if table == "reservations" {
			return `SELECT member_id FROM ` + rows
		}
		return `SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM ` + rows + `)`
	}
	updated := `id IN (` + members("old_rows") + `) OR id IN (` + members("new_rows") + `)`
	set := ""
	if byKey {
		updated = `id IN (` + members("old_rows") + ` UNION ` + members("new_rows") + `)`
		set = ` ` + noJIT
	}
	return verb + ` FUNCTION ` + table + `_bump_version() RETURNS trigger LANGUAGE plpgsql` + set + ` AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (` + members("new_rows") + `);
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (` + members("old_rows") + `);
	ELSE
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE ` + updated + `;
	END IF;
	RETURN NULL;
END $$`
}

// noJIT is the setting of the booking triggers' functions. PostgreSQL
// plans a trigger's statements without knowing how many rows its
// transition tables hold, and for the larger guesses it compiled them with
// JIT first: 25 ms and more of compiling for a statement that then ran in
// a few. These statements are small by nature (one statement's rows).
const noJIT = "SET jit = off"

// Migration 00230: the booking triggers' work on PostgreSQL. The version
// bump of an UPDATE looks its members up by key (bumpVersionFunction).
// Since the search views (00220), every change to a segment or a passenger
// also updates its booking, so the old form's scan of the members table
// ran on every booking write. With 20,000 members that was 0.6 s a
// statement, and seeding a million bookings for the benchmark took half an
// hour. The bump and view functions also run without JIT (noJIT). SQLite's
// row triggers name their one or two members directly, so nothing changes
// there.
const migrationBookingTriggers = 230

func bookingTriggersMigration(engine Engine) *goose.Migration {
	var up, down []string
	if engine == Postgres {
		for _, table := range versionedTables {
			up = append(up, bumpVersionFunction("CREATE OR REPLACE", table, true))
			down = append(down, bumpVersionFunction("CREATE OR REPLACE", table, false))
		}
		for _, table := range searchViewTables { // the views' functions (00220)
			up = append(up, `ALTER FUNCTION `+rebuildViewFunction(table)+` `+noJIT)
			down = append(down, `ALTER FUNCTION `+rebuildViewFunction(table)+` RESET jit`)
		}
	}
	return statementsMigration(migrationBookingTriggers, "booking triggers", up, down)
}

var bookingsVersionPostgresDown = []string{
	`DROP FUNCTION reservation_passengers_bump_version() CASCADE`,
	`DROP FUNCTION reservation_segments_bump_version() CASCADE`,
	`DROP FUNCTION reservations_bump_version() CASCADE`,
	`ALTER TABLE members DROP COLUMN bookings_version`,
}

// bookingsVersionMigration is migration 00032 for engine.
func bookingsVersionMigration(engine Engine) *goose.Migration {
	if engine == Postgres {
		return statementsMigration(migrationBookingsVersion, "bookings version", bookingsVersionPostgres(), bookingsVersionPostgresDown)
	}
	return statementsMigration(migrationBookingsVersion, "bookings version", bookingsVersionSQLite, bookingsVersionSQLiteDown)
}

// statementTriggers are PostgreSQL's AFTER INSERT, UPDATE and DELETE
// statement triggers <table>_<name>_ins/upd/del on table, calling fn with
// the statement's rows as the transition tables new_rows and old_rows.
func statementTriggers(table, name, fn string) []string {
	var out []string
	for _, ev := range []struct{ name, op, ref string }{
		{"ins", "INSERT", "NEW TABLE AS new_rows"},
		{"upd", "UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"},
		{"del", "DELETE", "OLD TABLE AS old_rows"},
	} {
		out = append(out, `CREATE TRIGGER `+table+`_`+name+`_`+ev.name+` AFTER `+ev.op+` ON `+table+
			` REFERENCING `+ev.ref+` FOR EACH STATEMENT EXECUTE FUNCTION `+fn)
	}
	return out
}

// statementsMigration is a Go migration that runs up (or down) in order
// in one transaction: the migrations whose statements differ between the
// engines.
func statementsMigration(version int64, what string, up, down []string) *goose.Migration {
	run := func(stmts []string) func(ctx context.Context, tx *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error {
			for _, s := range stmts {
				if _, err := tx.ExecContext(ctx, s); err != nil {
					return fmt.Errorf("%s: %w", what, err)
				}
			}
			return nil
		}
	}
	return goose.NewGoMigration(version, &goose.GoFunc{RunTx: run(up)}, &goose.GoFunc{RunTx: run(down)})
}
