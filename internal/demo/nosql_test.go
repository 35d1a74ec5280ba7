package demo

import (
	"testing"

	"members/internal/archtest"
)

// The demo and benchmark data go through the store's seeding (store.Seed)
// and its counts: no file of the loader, nor the seed-bench command,
// imports database/sql or runs a statement of its own, so a schema change
// is made in the store once.
func TestDemoWritesNoSQLOfItsOwn(t *testing.T) {
	files := archtest.Files(t, []string{"."}, "../../cmd/members/bookings.go")
	archtest.NoImport(t, files, "database/sql")
	archtest.NoCall(t, files, "ExecContext", "QueryContext", "QueryRowContext", "Exec", "Query", "QueryRow")
}
