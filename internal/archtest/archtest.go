// Package archtest checks the code's layering from tests: which packages a
// folder's files may import, and which calls they may make. It parses the
// source; it runs nothing.
package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Files returns the non-test Go files of dirs (and of the extra files named),
// failing the test when a folder has none.
func Files(t testing.TB, dirs []string, extra ...string) []string {
	t.Helper()
	var out []string
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				out = append(out, f)
			}
		}
	}
	return append(out, extra...)
}

// NoImport fails for every file that imports one of the packages (an import
// path, or a path followed by "/..." for it and everything below it).
func NoImport(t testing.TB, files []string, packages ...string) {
	t.Helper()
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, forbidden := range packages {
				if p == forbidden || (strings.HasSuffix(forbidden, "/...") && strings.HasPrefix(p+"/", strings.TrimSuffix(forbidden, "..."))) {
					t.Errorf("%s imports %s", f, p)
				}
			}
		}
	}
}

// NoCall fails for every file that calls a method or function of one of the
// names (a selector such as db.ExecContext).
func NoCall(t testing.TB, files []string, names ...string) {
	t.Helper()
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				for _, name := range names {
					if sel.Sel.Name == name {
						t.Errorf("%s calls %s", f, name)
					}
				}
			}
			return true
		})
	}
}
