package testtool_test

import (
	"os"
	"path/filepath"
	"testing"

	"members/internal/testtool"
)

// fakeT records how Path ended a test instead of ending this one.
type fakeT struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Skipf(string, ...any)  { f.skipped = true }

func TestPath(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, c := range []struct {
		name, ci   string
		also       []string
		want       string
		fail, skip bool
	}{
		{name: "tool", want: tool},
		{name: "absent", also: []string{filepath.Join(dir, "nope"), tool}, want: tool},
		{name: "absent", ci: "true", fail: true},
		{name: "absent", ci: "1", fail: true},
		{name: "absent", ci: "", skip: true},
	} {
		t.Setenv("CI", c.ci)
		ft := &fakeT{TB: t}
		got := testtool.Path(ft, c.name, "apt-get install it", c.also...)
		if got != c.want || ft.failed != c.fail || ft.skipped != c.skip {
			t.Errorf("Path(%q, CI=%q) = %q failed %v skipped %v; want %q failed %v skipped %v",
				c.name, c.ci, got, ft.failed, ft.skipped, c.want, c.fail, c.skip)
		}
	}
}
