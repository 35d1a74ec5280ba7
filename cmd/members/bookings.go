package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
)

// seedBench fills a database with reservations for benchmarks.
func seedBench(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	return fmt.Errorf("seed-bench: not available yet")
}
