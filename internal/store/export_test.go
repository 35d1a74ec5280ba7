package store

import "database/sql"

// ReadPoolForTest is the pool of the hot reads.
func ReadPoolForTest(db *DB) *sql.DB { return db.reads }

// FlightSegmentsSQL is the query by which a flight event finds its bookings.
const FlightSegmentsSQL = flightSegmentsSQL
