package api_test

// TestGeneratedCodeIsFresh fails when the committed generated code differs
// from what `make gen` would produce from api/openapi.yaml: the Go package
// of every internal/api/*/oapi.yaml, and web/src/api/schema.d.ts.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the module root (the test runs in internal/api).
const root = "../.."

// outputLine is the config's top-level output path; the test writes to
// stdout instead so the committed file is never touched.
var outputLine = regexp.MustCompile(`(?m)^output:.*$`)

func TestGeneratedGoIsFresh(t *testing.T) {
	configs, err := filepath.Glob("*/oapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(configs) == 0 {
		t.Fatal("no internal/api/*/oapi.yaml found")
	}
	for _, cfg := range configs {
		pkg := filepath.Dir(cfg)
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !outputLine.Match(raw) {
				t.Fatalf("%s has no output: line", cfg)
			}
			tmp := filepath.Join(t.TempDir(), "oapi.yaml")
			if err := os.WriteFile(tmp, outputLine.ReplaceAll(raw, nil), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "tool", "oapi-codegen", "-config", tmp, "api/openapi.yaml")
			cmd.Dir = root
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("oapi-codegen %s: %v\n%s", cfg, err, stderr.String())
			}
			want, err := os.ReadFile(filepath.Join(pkg, "api.gen.go"))
			if err != nil {
				t.Fatalf("%s/api.gen.go: %v (run make gen)", pkg, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("internal/api/%s/api.gen.go is stale: run `make gen` and commit the result\n%s",
					pkg, firstDiff(string(want), string(got)))
			}
		})
	}
}

func TestGeneratedTypeScriptIsFresh(t *testing.T) {
	web, err := filepath.Abs(filepath.Join(root, "web"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(web, "node_modules", ".bin", "openapi-typescript")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("web/node_modules is missing in CI: cannot check web/src/api/schema.d.ts (%v)", err)
		}
		t.Skip("web/node_modules missing (run make deps); only the Go code was checked")
	}
	out := filepath.Join(t.TempDir(), "schema.d.ts")
	cmd := exec.Command(bin, "../api/openapi.yaml", "-o", out)
	cmd.Dir = web
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("openapi-typescript: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(web, "src", "api", "schema.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("web/src/api/schema.d.ts is stale: run `make gen` and commit the result\n%s",
			firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first differing line of the committed and fresh text.
func firstDiff(committed, fresh string) string {
	a, b := strings.Split(committed, "\n"), strings.Split(fresh, "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n  committed: " + x + "\n  generated: " + y
		}
	}
	return "(only line endings differ)"
}
