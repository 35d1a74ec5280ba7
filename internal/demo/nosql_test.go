package demo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The demo and benchmark data go through the store's seeding (store.Seed)
// and its counts: no file of the loader, nor the seed-bench command,
// imports database/sql or runs a statement of its own, so a schema change
// is made in the store once.
func TestDemoWritesNoSQLOfItsOwn(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files (%v)", err)
	}
	files = append(files, "../../cmd/members/bookings.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "database/sql" {
				t.Errorf("%s imports database/sql", f)
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "ExecContext", "QueryContext", "QueryRowContext", "Exec", "Query", "QueryRow":
					t.Errorf("%s runs a statement of its own (%s)", f, sel.Sel.Name)
				}
			}
			return true
		})
	}
}
