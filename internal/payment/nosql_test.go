package payment

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The engine and its products write goods through the settlement's unit
// of work (Tx) and their stores; none of them imports database/sql.
func TestEngineAndProductsImportNoSQL(t *testing.T) {
	for _, dir := range []string{".", "../points", "../pass", "../coupon"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == "database/sql" {
					t.Errorf("%s imports database/sql", f)
				}
			}
		}
	}
}
