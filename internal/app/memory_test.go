package app

import (
	"math"
	"runtime/debug"
	"testing"
)

// The soft memory limit is set in MiB, lifted by 0, and an operator's
// GOMEMLIMIT is left alone.
func TestSetGoMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	t.Setenv("GOMEMLIMIT", "")
	if got := SetGoMemoryLimit(DefaultGoMemoryLimitMiB); got != DefaultGoMemoryLimitMiB<<20 || debug.SetMemoryLimit(-1) != got {
		t.Errorf("default: limit %d, runtime %d, want %d", got, debug.SetMemoryLimit(-1), DefaultGoMemoryLimitMiB<<20)
	}
	if got := SetGoMemoryLimit(0); got != math.MaxInt64 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("0: limit %d, want none", got)
	}
	debug.SetMemoryLimit(200 << 20) // as GOMEMLIMIT=200MiB would at start
	t.Setenv("GOMEMLIMIT", "200MiB")
	if got := SetGoMemoryLimit(DefaultGoMemoryLimitMiB); got != 200<<20 || debug.SetMemoryLimit(-1) != 200<<20 {
		t.Errorf("with GOMEMLIMIT: limit %d, want the operator's %d", got, 200<<20)
	}
}
