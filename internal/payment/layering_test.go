package payment

import (
	"testing"

	"members/internal/archtest"
)

// The engine and its products write goods through the settlement's unit
// of work (Tx) and their stores; none of them imports database/sql.
func TestEngineAndProductsImportNoSQL(t *testing.T) {
	archtest.NoImport(t, archtest.Files(t, []string{".", "../points", "../pass", "../coupon"}), "database/sql")
}

// The engine reaches a gateway only through its interface: the sandbox
// (internal/gateway) is one provider among others, spoken to over HTTP.
func TestEngineDoesNotImportTheSandbox(t *testing.T) {
	archtest.NoImport(t, archtest.Files(t, []string{"."}), "members/internal/gateway/...")
}
