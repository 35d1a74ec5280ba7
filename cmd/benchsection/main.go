// Command benchsection writes its standard input into one section of
// BENCHMARKS.md (between <!-- bench:NAME --> and <!-- /bench:NAME -->), the
// way the Go benchmarks write theirs, for the benchmarks that are scripts
// (scripts/bench-import.sh). Usage: benchsection NAME [FILE] < text.
package main

import (
	"fmt"
	"io"
	"os"

	"members/internal/loadgen"
)

func main() {
	if err := run(os.Args[1:], os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "benchsection:", err)
		os.Exit(2)
	}
}

func run(args []string, in io.Reader) error {
	if len(args) < 1 || len(args) > 2 {
		return fmt.Errorf("usage: benchsection NAME [FILE] < text")
	}
	out := "BENCHMARKS.md"
	if len(args) == 2 {
		out = args[1]
	}
	body, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("read the section: %w", err)
	}
	return loadgen.WriteSection(out, args[0], string(body))
}
