package app

import (
	"math"
	"os"
	"runtime/debug"
)

// DefaultGoMemoryLimitMiB is serve's --go-memory-limit: the Go runtime's
// soft memory limit (heap, stacks, runtime), chosen by measurement under
// the booking search at 100,000 and 1,000,000 reservations
// (docs/speed.md, "Server"). It is soft: the collector runs more
// often as the Go memory nears it, and never takes more than about half
// of the CPU for it, so a live heap above it slows the server down rather
// than stopping it. SQLite's memory is outside it (its own budget,
// internal/store/store.go).
const DefaultGoMemoryLimitMiB = 40

// SetGoMemoryLimit sets the Go runtime's soft memory limit to mib MiB
// (0 or less: no limit) and returns the limit in force in bytes
// (math.MaxInt64 for none). A GOMEMLIMIT in the environment wins: the
// operator's setting is left as it is.
func SetGoMemoryLimit(mib int) int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	if mib <= 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		return math.MaxInt64
	}
	limit := int64(mib) << 20
	debug.SetMemoryLimit(limit)
	return limit
}
