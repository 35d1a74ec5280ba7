package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"members/internal/app"
	"members/internal/catalogue"
	"members/internal/store"
)

const catalogueUsage = `usage: members catalogue <command> [flags]

commands:
  apply FILE   make the live catalogue the file's (YAML or JSON: the unlimited pass
               plans and the coupon pass products, docs/passes.md "Catalogue"), in one
               transaction; prints each change and a summary line. The file is checked
               whole first: each problem is printed as FILE:LINE: FIELD: MESSAGE and
               nothing is applied (exit 1); so is removing, repricing or moving a
               period that members hold or are paying for.
               --dry-run prints the changes and writes nothing; --db
  export       print the live catalogue in the same format (--db)
`

// catalogueCmd applies or exports the catalogue (operator).
func catalogueCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" {
		fmt.Fprint(stdout, catalogueUsage)
		return nil
	}
	name, rest := args[0], args[1:]
	fs := flag.NewFlagSet("catalogue "+name, flag.ContinueOnError)
	dsn := dbFlag(fs)
	var dryRun *bool
	switch name {
	case "apply":
		dryRun = fs.Bool("dry-run", false, "print what would change, write nothing")
	case "export":
	default:
		fmt.Fprint(stderr, catalogueUsage)
		return fmt.Errorf("catalogue: unknown command %q", name)
	}
	pos, err := parseArgs(fs, rest, stderr)
	if err != nil {
		return err
	}
	var file *catalogue.File
	if name == "apply" {
		if len(pos) != 1 {
			return errors.New("catalogue apply: give one FILE")
		}
		data, err := os.ReadFile(pos[0]) // #nosec G304 G703 -- the operator's own catalogue file
		if err != nil {
			return fmt.Errorf("catalogue apply: %w", err)
		}
		// checked before the database is opened: a bad file touches nothing
		if file, err = catalogue.Parse(filepath.Base(pos[0]), data); err != nil {
			return catalogueRefused(stderr, err)
		}
	} else if len(pos) > 0 {
		return fmt.Errorf("catalogue export: unexpected argument %q", pos[0])
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	svc := catalogue.NewService(store.NewCatalogueStore(a.DB), a.Catalog.TextsOf)
	if name == "export" {
		c, err := svc.Export(ctx)
		if err != nil {
			return err
		}
		out, err := catalogue.Encode(c)
		if err != nil {
			return err
		}
		_, err = stdout.Write(out)
		return err
	}
	changes, err := svc.Apply(ctx, file, *dryRun)
	if err != nil {
		return catalogueRefused(stderr, err)
	}
	for _, c := range changes {
		fmt.Fprintln(stdout, c)
	}
	summary := catalogue.Summary(changes)
	if *dryRun {
		summary += " (dry run: nothing written)"
	}
	fmt.Fprintln(stdout, summary)
	return nil
}

// errRefused is a catalogue refused by its rules (exit 1); the problems
// were printed on stderr.
type errRefused struct{ n int }

func (e errRefused) Error() string {
	if e.n == 1 {
		return "catalogue apply: 1 problem, nothing applied"
	}
	return fmt.Sprintf("catalogue apply: %d problems, nothing applied", e.n)
}

func (e errRefused) As(target any) bool {
	if p, ok := target.(*exitCode); ok {
		*p = 1
		return true
	}
	return false
}

func catalogueRefused(stderr io.Writer, err error) error {
	var errs *catalogue.Errors
	if !errors.As(err, &errs) {
		return err
	}
	for _, l := range errs.Lines() {
		fmt.Fprintln(stderr, l)
	}
	return errRefused{len(errs.Issues)}
}
