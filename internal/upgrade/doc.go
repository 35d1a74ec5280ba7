// Package upgrade holds the upgrade tests: a database made by an earlier
// release (testdata/upgrade/<release>/, made by
// scripts/make-upgrade-fixture.sh) is migrated by this build on both
// engines and still works (docs/operations.md, "Upgrades").
package upgrade
