package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"members/internal/account"
	"members/internal/app"
	"members/internal/apperr"
	"members/internal/importer"
	"members/internal/store"
)

const importUsage = `usage: members import <kind> FILE [flags]

  members FILE   one member a line (NDJSON: the PUT /ops/v1/members body plus memberNumber)
  bookings FILE  one booking a line (NDJSON: the PUT /ops/v1/reservations body plus pnr)

FILE "-" reads standard input. Flags: --db, --dry-run (check every line, write
nothing), --rejects FILE (each refused line with its number and reason),
--batch N (lines handed over at a time), --public-url (links in the mails
queued). Progress goes to standard error; the last
line of standard output is the summary. Exit 0 when every line was taken, 1
when some were rejected, 2 when the import could not run. A run again after
an interruption takes up where the database stands.
`

// importKind is one kind of import: its outcomes (the summary's order)
// and how it runs one file once the flags are read.
type importKind struct {
	outcomes []string
	// run opens what the kind needs and imports r with opt.
	run func(ctx context.Context, env importEnv, r io.Reader, opt importer.Options, logger *slog.Logger) (importer.Summary, error)
}

// importEnv is what the flags give every kind.
type importEnv struct {
	dsn       string
	publicURL string // the base of links in the mails an import queues
}

// importKinds are the kinds `members import` takes. The members kind
// plugs in the provisioning service of the members feed, the bookings kind
// the snapshot service of the bookings feed: each is an importer.Applier
// over its own line type.
func importKinds() map[string]importKind {
	return map[string]importKind{
		"members": {
			outcomes: []string{"created", "updated", "unchanged"},
			run:      importMembers,
		},
		"bookings": {
			outcomes: []string{"applied", "stale", "duplicate"},
			run: func(ctx context.Context, env importEnv, r io.Reader, opt importer.Options, logger *slog.Logger) (importer.Summary, error) {
				return importBookingsRun(ctx, env.dsn, r, opt, logger)
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
	publicURL := fs.String("public-url", envOr("MEMBERS_PUBLIC_URL", ""), "public base URL of the site, for the links in the mails queued (env MEMBERS_PUBLIC_URL)")
	batch := fs.Int("batch", importer.DefaultBatch, "lines per batch (one transaction each)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the import to this file (benchmarks)")
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

	if *cpuprofile != "" {
		stop, err := startCPUProfile(*cpuprofile)
		if err != nil {
			return fmt.Errorf("import %s: %w", args[0], err)
		}
		defer stop()
	}
	in, size, closeIn, err := openImportInput(pos[0], stdin)
	if err != nil {
		return fmt.Errorf("import %s: %w", args[0], err)
	}
	defer closeIn()
	opt := importer.Options{Outcomes: kind.outcomes, Batch: *batch, DryRun: *dry}
	if *rejectsPath != "" {
		f, err := os.Create(*rejectsPath) // #nosec G304 G703 -- the operator's own --rejects path
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

	sum, err := kind.run(ctx, importEnv{dsn: *dsn, publicURL: *publicURL}, in, opt, logger)
	if err != nil {
		if tty {
			fmt.Fprintln(stderr) // end the bar's line before the error's
		}
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
	f, err := os.Open(path) // #nosec G304 G703 -- the operator's own import file
	if err != nil {
		return nil, 0, nil, err
	}
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return f, size, func() { _ = f.Close() }, nil
}

// memberLine is one line of a members import: the PUT body plus its key.
type memberLine struct {
	MemberNumber string `json:"memberNumber"`
	account.ProvisionInput
}

// importCrashEnv (tests only) names a line number: the members import
// kills itself with SIGKILL in the transaction of the batch holding that
// line, after the batch's writes and before its commit, so the crash test
// sees a run ended in the middle of a batch.
const importCrashEnv = "MEMBERS_TEST_IMPORT_CRASH"

// memberProvisioner is what the members import needs of the provisioning
// (account.Provisioner, the same service as PUT /ops/v1/members).
type memberProvisioner interface {
	ProvisionBatch(ctx context.Context, items []account.ProvisionItem, opt account.BatchOptions) ([]account.ProvisionResult, error)
}

// membersApplier provisions a batch as the feed's PUT does each member,
// the whole batch in one transaction (account.Provisioner.ProvisionBatch):
// a refused line writes nothing and does not stop the others, and a kill
// leaves whole batches only; a run again finds the members already there
// unchanged.
type membersApplier struct {
	prov    memberProvisioner
	crashAt int
}

func (a membersApplier) Apply(ctx context.Context, batch []importer.Line[memberLine], dry bool) ([]importer.Result, error) {
	items := make([]account.ProvisionItem, len(batch))
	opt := account.BatchOptions{DryRun: dry}
	for i, l := range batch {
		items[i] = account.ProvisionItem{Number: l.Value.MemberNumber, Input: l.Value.ProvisionInput}
		if a.crashAt == l.Number {
			opt.BeforeCommit = func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
		}
	}
	res, err := a.prov.ProvisionBatch(ctx, items, opt)
	if err != nil {
		return nil, fmt.Errorf("lines %d to %d: %w", batch[0].Number, batch[len(batch)-1].Number, err)
	}
	out := make([]importer.Result, len(batch))
	for i, r := range res {
		if r.Err == nil {
			out[i].Outcome = r.Outcome
			continue
		}
		reason := lineRefusal(r.Err)
		if reason == "" {
			return nil, fmt.Errorf("line %d: %w", batch[i].Number, r.Err)
		}
		out[i].Reject = errors.New(reason)
	}
	return out, nil
}

// lineRefusal tells a line's own fault (a field rule, an address another
// member holds), which refuses the line with this reason, from a failure
// of the run ("").
func lineRefusal(err error) string {
	var ae *apperr.Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, account.ErrEmailTaken):
		return "email: email_taken"
	case errors.As(err, &ae) && ae.Code == apperr.Invalid && len(ae.Fields) > 0:
		fields := make([]string, 0, len(ae.Fields))
		for f, m := range ae.Fields {
			fields = append(fields, f+": "+m.Key)
		}
		slices.Sort(fields)
		return strings.Join(fields, "; ")
	}
	return ""
}

// importMembers is `members import members FILE`.
func importMembers(ctx context.Context, env importEnv, r io.Reader, opt importer.Options, logger *slog.Logger) (importer.Summary, error) {
	a, err := app.Open(ctx, app.Options{DSN: env.dsn, Logger: logger})
	if err != nil {
		return importer.Summary{}, err
	}
	defer a.Close()
	if err := a.DB.ForBulkWrites(ctx, store.BulkWriteCacheMiB); err != nil {
		return importer.Summary{}, err
	}
	prov, err := a.Provisioning(app.Config{PublicURL: env.publicURL})
	if err != nil {
		return importer.Summary{}, err
	}
	crashAt, _ := strconv.Atoi(os.Getenv(importCrashEnv))
	return importer.Run[memberLine](ctx, r, membersApplier{prov: prov, crashAt: crashAt}, opt)
}
