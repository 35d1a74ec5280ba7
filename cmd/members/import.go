package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"members/internal/importer"
)

const importUsage = `usage: members import <kind> FILE [flags]

  members FILE   one member a line (NDJSON: the PUT /ops/v1/members body plus memberNumber)
  bookings FILE  one booking a line (NDJSON: the PUT /ops/v1/reservations body plus pnr)

FILE "-" reads standard input. Flags: --db, --dry-run (check every line, write
nothing), --rejects FILE (each refused line with its number and reason),
--batch N (lines per transaction). Progress goes to standard error; the last
line of standard output is the summary. Exit 0 when every line was taken, 1
when some were rejected, 2 when the import could not run. A run again after
an interruption takes up where the database stands.
`

// importKind is one kind of import: its outcomes (the summary's order)
// and how it runs one file once the flags are read.
type importKind struct {
	outcomes []string
	// run opens what the kind needs and imports r with opt.
	run func(ctx context.Context, dsn string, r io.Reader, opt importer.Options, logger *slog.Logger) (importer.Summary, error)
}

// importKinds are the kinds `members import` takes. The members kind
// plugs in the provisioning service of the members feed, the bookings kind
// the snapshot service of the bookings feed: each is an importer.Applier
// over its own line type.
func importKinds() map[string]importKind {
	return map[string]importKind{
		"members": {
			outcomes: []string{"created", "updated", "unchanged"},
			run: func(context.Context, string, io.Reader, importer.Options, *slog.Logger) (importer.Summary, error) {
				return importer.Summary{}, errors.New("import members: the members' provisioning service is not in this build yet")
			},
		},
		"bookings": {
			outcomes: []string{"applied", "stale", "duplicate"},
			run: func(context.Context, string, io.Reader, importer.Options, *slog.Logger) (importer.Summary, error) {
				return importer.Summary{}, errors.New("import bookings: the bookings feed's snapshot service is not in this build yet")
			},
		},
	}
}

// errRejected ends an import some lines of which were refused (exit 1).
type errRejected struct{ n int }

func (e errRejected) Error() string {
	return fmt.Sprintf("import: %d lines rejected", e.n)
}

func (e errRejected) As(target any) bool {
	if p, ok := target.(*exitCode); ok {
		*p = 1
		return true
	}
	return false
}

// importCmd is `members import KIND FILE`.
func importCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	return runImportCmd(ctx, args, os.Stdin, stdout, stderr, logger, importKinds())
}

func runImportCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, logger *slog.Logger, kinds map[string]importKind) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, importUsage)
		if len(args) == 0 {
			return errors.New("import: no kind given")
		}
		return nil
	}
	kind, ok := kinds[args[0]]
	if !ok {
		fmt.Fprint(stderr, importUsage)
		return fmt.Errorf("import: unknown kind %q (members or bookings)", args[0])
	}
	fs := flag.NewFlagSet("import "+args[0], flag.ContinueOnError)
	dsn := dbFlag(fs)
	dry := fs.Bool("dry-run", false, "check every line and write nothing")
	rejectsPath := fs.String("rejects", "", "write each refused line's number and reason to this file")
	batch := fs.Int("batch", importer.DefaultBatch, "lines per batch (one transaction each)")
	pos, err := parseArgs(fs, args[1:], stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("import %s: one FILE (or - for standard input) is needed", args[0])
	}
	if *batch < 1 {
		return fmt.Errorf("import %s: --batch must be at least 1", args[0])
	}

	in, size, closeIn, err := openImportInput(pos[0], stdin)
	if err != nil {
		return fmt.Errorf("import %s: %w", args[0], err)
	}
	defer closeIn()
	opt := importer.Options{Outcomes: kind.outcomes, Batch: *batch, DryRun: *dry}
	if *rejectsPath != "" {
		f, err := os.Create(*rejectsPath)
		if err != nil {
			return fmt.Errorf("import %s: --rejects: %w", args[0], err)
		}
		defer f.Close()
		opt.Rejects = f
	}
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = importer.IsTerminal(f)
	}
	opt.Progress = importer.NewProgress(stderr, tty, size, nil)

	sum, err := kind.run(ctx, *dsn, in, opt, logger)
	if err != nil {
		if sum.Lines() > 0 {
			fmt.Fprintln(stdout, sum.String())
		}
		return err
	}
	if f, ok := opt.Rejects.(*os.File); ok {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("import %s: --rejects: %w", args[0], err)
		}
	}
	if *dry {
		fmt.Fprintln(stderr, "import: dry run, nothing written")
	}
	fmt.Fprintln(stdout, sum.String())
	if sum.Rejected > 0 {
		return errRejected{sum.Rejected}
	}
	return nil
}

// openImportInput opens FILE, or standard input for "-"; size is the
// file's length in bytes (0 when unknown) for the progress' time left.
func openImportInput(path string, stdin io.Reader) (io.Reader, int64, func(), error) {
	if path == "-" {
		return stdin, 0, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, err
	}
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return f, size, func() { _ = f.Close() }, nil
}
