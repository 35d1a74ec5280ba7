package store

import "database/sql"

// ReadPoolForTest is the pool of the hot reads.
func ReadPoolForTest(db *DB) *sql.DB { return db.reads }
