package store

import "github.com/pressly/goose/v3"

// Migration 00244: the search views' SQLite triggers (00220) without an
// aggregate ORDER BY, which SQLite reads from 3.44 on: the sqlite3 of
// Debian 12 (3.40) refused the whole database ("malformed database
// schema") for those triggers, so an operator could not open it, check
// it or back it up with the distribution's tool (docs/operations.md,
// "Backup and restore"). The new triggers aggregate an ordered subquery
// instead: SQLite does not flatten a subquery with ORDER BY into an
// aggregate query, so the rows reach json_group_array in position order
// and the views are the same text as before (search_views_test.go
// compares them with the tables after every kind of write). PostgreSQL's
// functions stay as they are.
const migrationViewsSQLite340 = 244

// orderedArraySQL is the JSON array of cols, each row a JSON array, of
// table's rows (alias a) of the reservation whose id is the SQL
// expression id, in position order, on SQLite from 3.40 on. json(v) keeps
// each row an array, not a string, in the outer aggregate.
func orderedArraySQL(cols, table, alias, id string) string {
	return `(SELECT json_group_array(json(v)) FROM (SELECT json_array(` + cols + `) AS v FROM ` + table + ` ` + alias +
		` WHERE ` + alias + `.reservation_id = ` + id + ` ORDER BY ` + alias + `.position))`
}

// viewTriggersSQLite are the search views' triggers on SQLite, view being
// the SQL of a reservation's view (segmentsViewSQL's form or
// orderedArraySQL's).
func viewTriggersSQLite(segments, passengers func(id string) string) []string {
	var out []string
	for _, t := range []struct{ table, column, view string }{
		{"reservation_segments", "segments_view", segments("reservations.id")},
		{"reservation_passengers", "passengers_view", passengers("reservations.id")},
	} {
		set := `UPDATE reservations SET ` + t.column + ` = ` + t.view + ` WHERE id `
		out = append(out,
			`DROP TRIGGER IF EXISTS `+t.table+`_view_ins`, `DROP TRIGGER IF EXISTS `+t.table+`_view_upd`, `DROP TRIGGER IF EXISTS `+t.table+`_view_del`,
			`CREATE TRIGGER `+t.table+`_view_ins AFTER INSERT ON `+t.table+` BEGIN `+set+`= NEW.reservation_id; END`,
			`CREATE TRIGGER `+t.table+`_view_upd AFTER UPDATE ON `+t.table+` BEGIN `+set+`IN (OLD.reservation_id, NEW.reservation_id); END`,
			`CREATE TRIGGER `+t.table+`_view_del AFTER DELETE ON `+t.table+` BEGIN `+set+`= OLD.reservation_id; END`,
		)
	}
	return out
}

func viewsSQLite340Migration(engine Engine) *goose.Migration {
	var up, down []string
	if engine == SQLite {
		up = viewTriggersSQLite(
			func(id string) string { return orderedArraySQL(segmentCols220, "reservation_segments", "s", id) },
			func(id string) string { return orderedArraySQL(paxCols, "reservation_passengers", "x", id) })
		down = viewTriggersSQLite(
			func(id string) string { return segmentsViewSQL(SQLite, segmentCols220, id) },
			func(id string) string { return passengersViewSQL(SQLite, id) })
	}
	return statementsMigration(migrationViewsSQLite340, "search views for SQLite 3.40", up, down)
}
