package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"members/internal/store"
)

// backupCmd copies a (perhaps serving) SQLite database to --out and checks
// the copy (store.Backup); for PostgreSQL it names pg_dump.
func backupCmd(ctx context.Context, args []string, stdout, stderr io.Writer, _ *slog.Logger) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	dsn := dbFlag(fs)
	out := fs.String("out", "", "the copy to write, a new file (e.g. members-$(date +%F).db)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	rep, err := store.Backup(ctx, *dsn, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "members backup: %s -> %s, %.1f MB in %s\n", *dsn, rep.Out, float64(rep.Bytes)/1e6, rep.Took.Round(time.Millisecond))
	fmt.Fprintf(stdout, "integrity_check of the copy: %s\n", rep.Integrity)
	fmt.Fprintln(stdout, "rows in the copy:")
	w := len("tables")
	for _, t := range rep.Tables {
		w = max(w, len(t.Table))
	}
	var total int64
	for _, t := range rep.Tables {
		fmt.Fprintf(stdout, "  %-*s %12d\n", w, t.Table, t.Rows)
		total += t.Rows
	}
	_, err = fmt.Fprintf(stdout, "  %-*s %12d rows\n", w, fmt.Sprintf("%d tables", len(rep.Tables)), total)
	return err
}
