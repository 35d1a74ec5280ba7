package store

import "github.com/pressly/goose/v3"

// Migration 00220: each reservation keeps its segments and passengers as
// the booking search returns them (segments_view, passengers_view: JSON
// arrays of positional arrays in segmentCols and paxCols order, by
// position), kept by triggers in the transaction of every insert, update
// or delete of a segment or passenger, whoever writes it (any instance,
// the booking feed, a script), like the bookings version (00032).
//
// Why: an uncached search built each of its page's bookings from two
// index seeks into the segments and passengers (tables of millions of
// rows, so a page read each from outside any cache) and an ordered
// aggregate of each (a sorter each): twenty seeks and twenty sorts a page
// of ten, most of the search's cost. Read from the booking's own row, the
// page costs a row read a booking and no aggregate.
//
// The triggers differ between the engines, hence a Go migration: SQLite
// has row triggers only; PostgreSQL gets statement triggers over the
// transition tables, so a bulk insert builds each booking's view once.
const migrationSearchViews = 220

// The view of the reservation whose id is the SQL expression id, on each
// engine, of the segment columns cols (segmentCols220 here; 00291 adds the
// previous gate). A booking without segments (or passengers) has '[]' on
// SQLite and NULL on PostgreSQL, as their aggregates give; decodePage
// reads both.
func segmentsViewSQL(engine Engine, cols, id string) string {
	if engine == Postgres {
		return `(SELECT json_agg(json_build_array(` + cols + `) ORDER BY s.position)::text FROM reservation_segments s WHERE s.reservation_id = ` + id + `)`
	}
	return `(SELECT json_group_array(json_array(` + cols + `) ORDER BY s.position) FROM reservation_segments s WHERE s.reservation_id = ` + id + `)`
}

func passengersViewSQL(engine Engine, id string) string {
	if engine == Postgres {
		return `(SELECT json_agg(json_build_array(` + paxCols + `) ORDER BY x.position)::text FROM reservation_passengers x WHERE x.reservation_id = ` + id + `)`
	}
	return `(SELECT json_group_array(json_array(` + paxCols + `) ORDER BY x.position) FROM reservation_passengers x WHERE x.reservation_id = ` + id + `)`
}

// addSearchViewColumns adds the views to the bookings, on both engines.
var addSearchViewColumns = []string{
	`ALTER TABLE reservations ADD COLUMN segments_view TEXT`,
	`ALTER TABLE reservations ADD COLUMN passengers_view TEXT`,
}

// searchViewsSQLite: a trigger for each write to each table
// (viewTriggersSQLite; 00244 rewrote them for SQLite 3.40); an update
// that moves a row to another reservation rebuilds both bookings' views.
// A reservation deleted with its rows (ON DELETE CASCADE) is gone before
// its view would be rebuilt: the UPDATE finds no row.
func searchViewsSQLite() []string {
	out := append([]string{}, addSearchViewColumns...)
	out = append(out, viewTriggersSQLite(
		func(id string) string { return segmentsViewSQL(SQLite, segmentCols220, id) },
		func(id string) string { return passengersViewSQL(SQLite, id) })...)
	// the bookings written before this migration, in one pass (each row
	// updated once: every update also bumps its member's version)
	out = append(out, `UPDATE reservations SET segments_view = `+segmentsViewSQL(SQLite, segmentCols220, "reservations.id")+
		`, passengers_view = `+passengersViewSQL(SQLite, "reservations.id"))
	// The member's index (00031) takes the views too: a page's bookings
	// are then read side by side from the index, not each from its own
	// table page (a search at 1,000,000 reservations: 147 µs of CPU with
	// the table's rows, 90 µs from the index). On SQLite only: an index
	// entry may spill to overflow pages there, where PostgreSQL refuses an
	// entry over a third of a page (a booking of many segments).
	return append(out, `DROP INDEX reservations_member_search`, `CREATE INDEX reservations_member_search ON reservations(member_id, first_depart_at, id,
		booked_at, last_depart_at, status_code, pnr, currency, total_amount, contact_email, segments_view, passengers_view)`)
}

var searchViewsSQLiteDown = []string{
	`DROP INDEX reservations_member_search`, `CREATE INDEX reservations_member_search ON reservations(member_id, first_depart_at, id,
		booked_at, last_depart_at, status_code, pnr, currency, total_amount, contact_email)`,
	`DROP TRIGGER reservation_passengers_view_del`, `DROP TRIGGER reservation_passengers_view_upd`,
	`DROP TRIGGER reservation_passengers_view_ins`, `DROP TRIGGER reservation_segments_view_del`,
	`DROP TRIGGER reservation_segments_view_upd`, `DROP TRIGGER reservation_segments_view_ins`,
	`ALTER TABLE reservations DROP COLUMN passengers_view`, `ALTER TABLE reservations DROP COLUMN segments_view`,
}

// searchViewsPostgres: one function per table; each statement trigger
// rebuilds the views of the reservations its rows belong to.
//
// It locks those reservations first, in a statement of its own. Under READ
// COMMITTED each statement of the function takes a new snapshot, so the
// rebuild starts after every concurrent writer of the same bookings has
// committed and reads their rows too: two flight events changing two
// segments of one booking at once would otherwise each rebuild its view
// from a snapshot without the other's segment, and the later rebuild
// would drop the earlier change. (The server's transactions are all READ
// COMMITTED, PostgreSQL's default; under REPEATABLE READ the lock would
// fail the later transaction with a serialization error instead.) SQLite
// has one writer at a time: its triggers read everything committed.
// rebuildViewFunction is the PostgreSQL trigger function that rebuilds
// the views of table's reservations (a table of searchViewTables).
func rebuildViewFunction(table string) string { return table + "_rebuild_view()" }

// searchViewTables are the tables whose rows the search views hold.
var searchViewTables = []string{"reservation_segments", "reservation_passengers"}

func searchViewsPostgres() []string {
	out := append([]string{}, addSearchViewColumns...)
	for _, t := range []struct{ table, column, view string }{
		{searchViewTables[0], "segments_view", segmentsViewSQL(Postgres, segmentCols220, "r.id")},
		{searchViewTables[1], "passengers_view", passengersViewSQL(Postgres, "r.id")},
	} {
		out = append(out, rebuildViewFunctionSQL(t.table, t.column, t.view))
		out = append(out, statementTriggers(t.table, "view", rebuildViewFunction(t.table))...)
	}
	// the bookings written before this migration, in one pass
	out = append(out, `UPDATE reservations r SET segments_view = `+segmentsViewSQL(Postgres, segmentCols220, "r.id")+
		`, passengers_view = `+passengersViewSQL(Postgres, "r.id"))
	return out
}

// rebuildViewFunctionSQL makes (or replaces) table's trigger function,
// which rebuilds column of the reservations its statement's rows belong
// to from the SQL view (of r.id).
func rebuildViewFunctionSQL(table, column, view string) string {
	return `CREATE OR REPLACE FUNCTION ` + rebuildViewFunction(table) + ` RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		ids := ARRAY(SELECT DISTINCT reservation_id FROM new_rows);
	ELSIF TG_OP = 'DELETE' THEN
		ids := ARRAY(SELECT DISTINCT reservation_id FROM old_rows);
	ELSE
		ids := ARRAY(SELECT reservation_id FROM old_rows UNION SELECT reservation_id FROM new_rows);
	END IF;
	PERFORM 1 FROM reservations WHERE id = ANY(ids) ORDER BY id FOR UPDATE;
	UPDATE reservations r SET ` + column + ` = ` + view + ` WHERE r.id = ANY(ids);
	RETURN NULL;
END $$`
}

var searchViewsPostgresDown = []string{
	`DROP FUNCTION reservation_passengers_rebuild_view() CASCADE`,
	`DROP FUNCTION reservation_segments_rebuild_view() CASCADE`,
	`ALTER TABLE reservations DROP COLUMN passengers_view`, `ALTER TABLE reservations DROP COLUMN segments_view`,
}

// searchViewsMigration is migration 00220 for engine.
func searchViewsMigration(engine Engine) *goose.Migration {
	if engine == Postgres {
		return statementsMigration(migrationSearchViews, "search views", searchViewsPostgres(), searchViewsPostgresDown)
	}
	return statementsMigration(migrationSearchViews, "search views", searchViewsSQLite(), searchViewsSQLiteDown)
}
