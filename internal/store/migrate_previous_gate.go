package store

import (
	"strings"

	"github.com/pressly/goose/v3"
)

// Migration 00291: a booking segment remembers the departure gate it
// showed before the operations feed's last gate change
// (reservation_segments.previous_gate, flightops.PreviousGate), so the
// flight's card shows the old gate struck through beside the new one.
//
// The search reads a segment from its booking's view (00220), so the
// views' triggers are made again with the new column (segmentCols), and
// the segments' covering index (00151) takes it too. The views written
// before keep their shorter segments until a write to the booking
// rebuilds them; the search's reader takes a segment without the previous
// gate as one without (searchjson.go), and a gate change writes the
// segment, so its view holds the gate from then on. No booking is
// rewritten by the migration (its down rewrites them all).
const migrationPreviousGate = 291

// The segments' covering index of the booking's own reads (ByPNR), with
// and without the previous gate.
const (
	segmentsViewIndex220 = `CREATE INDEX reservation_segments_view ON reservation_segments(reservation_id, position,
    seg_key, status_code, flight, flight_number, is_show_hotel_link,
    origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
    depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status,
    change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to)`
	segmentsViewIndex291 = `CREATE INDEX reservation_segments_view ON reservation_segments(reservation_id, position,
    seg_key, status_code, flight, flight_number, is_show_hotel_link,
    origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
    depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status,
    change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to, previous_gate)`
)

// segmentViewTriggers are the statements that make the segments' view
// triggers (SQLite) or trigger function (PostgreSQL, without JIT as 00230
// set it: a replaced function loses its settings) read cols, with the
// bulk writer's guard that 00280 gave them.
func segmentViewTriggers(engine Engine, cols string) []string {
	if engine == Postgres {
		return []string{viewFunction(searchViewTables[0], "segments_view", segmentsViewSQL(Postgres, cols, "r.id"), true)}
	}
	var out []string
	for _, c := range viewTriggersSQLite(
		func(id string) string { return orderedArraySQL(cols, "reservation_segments", "s", id) },
		func(id string) string { return orderedArraySQL(paxCols, "reservation_passengers", "x", id) }) {
		if strings.HasPrefix(c, "CREATE TRIGGER ") {
			c = guardSQLiteTrigger(c)
		}
		out = append(out, c)
	}
	return out
}

func previousGateMigration(engine Engine) *goose.Migration {
	up := append([]string{
		`ALTER TABLE reservation_segments ADD COLUMN previous_gate TEXT NOT NULL DEFAULT ''`,
		`DROP INDEX reservation_segments_view`, segmentsViewIndex291,
	}, segmentViewTriggers(engine, segmentCols)...)
	// Down: every view written since has the longer segments, which the
	// reader of a build before this migration refuses, so each booking's
	// view is written again without the column.
	rewrite := `UPDATE reservations SET segments_view = ` + orderedArraySQL(segmentCols220, "reservation_segments", "s", "reservations.id")
	if engine == Postgres {
		rewrite = `UPDATE reservations r SET segments_view = ` + segmentsViewSQL(Postgres, segmentCols220, "r.id")
	}
	down := append(segmentViewTriggers(engine, segmentCols220), rewrite,
		`DROP INDEX reservation_segments_view`, segmentsViewIndex220,
		`ALTER TABLE reservation_segments DROP COLUMN previous_gate`)
	return statementsMigration(migrationPreviousGate, "previous gate", up, down)
}
