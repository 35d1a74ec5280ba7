package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
)

// mailCmd reads the mail outbox: mail list | mail show ID.
func mailCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	return fmt.Errorf("mail: not available yet")
}
