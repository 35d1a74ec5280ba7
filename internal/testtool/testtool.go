// Package testtool finds the command-line tools some tests run (sqlite3,
// pdftotext, stripe-mock, nginx, openapi-typescript). On a developer's
// machine a missing tool skips the test and says how to install it; under
// CI (CI=true or 1, set by .ci/run, which installs every tool) it fails
// the test, so that a test never passes by not running.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns the path of the tool name: found in PATH, else the first of
// also that exists. install says how to get it.
func Path(t testing.TB, name, install string, also ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, p := range also {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if ci := os.Getenv("CI"); ci == "true" || ci == "1" {
		t.Fatalf("%s is required in CI (%s)", name, install)
	} else {
		t.Skipf("%s is not installed (%s)", name, install)
	}
	return ""
}
