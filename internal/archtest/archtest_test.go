package archtest

import (
	"fmt"
	"testing"
)

// recorder keeps what a check reports instead of failing the test.
type recorder struct {
	*testing.T
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestChecksFindWhatTheyLookFor(t *testing.T) {
	files := []string{"testdata/sample.go.txt"}
	for _, c := range []struct {
		name  string
		check func(r *recorder)
		want  int
	}{
		{"a forbidden import", func(r *recorder) { NoImport(r, files, "database/sql") }, 1},
		{"a package and below", func(r *recorder) { NoImport(r, files, "members/internal/gateway/...") }, 1},
		{"a prefix is not a package", func(r *recorder) { NoImport(r, files, "members/internal/gate/...", "database") }, 0},
		{"a forbidden call", func(r *recorder) { NoCall(r, files, "ExecContext", "QueryRow") }, 1},
	} {
		r := &recorder{T: t}
		c.check(r)
		if len(r.errs) != c.want {
			t.Errorf("%s: %d reports %v, want %d", c.name, len(r.errs), r.errs, c.want)
		}
	}
}
