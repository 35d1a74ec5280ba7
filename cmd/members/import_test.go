package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"members/internal/importer"
)

type testRow struct {
	ID string `json:"id"`
}

// setApplier keeps ids; an id "bad" is refused.
type setApplier map[string]bool

func (s setApplier) Apply(_ context.Context, batch []importer.Line[testRow], dry bool) ([]importer.Result, error) {
	out := make([]importer.Result, len(batch))
	for i, l := range batch {
		switch {
		case l.Value.ID == "bad":
			out[i].Reject = errors.New("id: refused")
		case s[l.Value.ID]:
			out[i].Outcome = "unchanged"
		default:
			out[i].Outcome = "created"
			if !dry {
				s[l.Value.ID] = true
			}
		}
	}
	return out, nil
}

func testKinds(rows setApplier) map[string]importKind {
	return map[string]importKind{"rows": {
		outcomes: []string{"created", "updated", "unchanged"},
		run: func(ctx context.Context, _ importEnv, r io.Reader, opt importer.Options, _ *slog.Logger) (importer.Summary, error) {
			return importer.Run[testRow](ctx, r, rows, opt)
		},
	}}
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.ndjson")
	if err := os.WriteFile(file, []byte("{\"id\":\"a\"}\n{\"id\":\"bad\"}\n{\"id\":\"b\",\"x\":1}\n{\"id\":\"c\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.ndjson")
	if err := os.WriteFile(good, []byte("{\"id\":\"a\"}\n{\"id\":\"d\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rejects := filepath.Join(dir, "rejects.txt")
	tests := []struct {
		name    string
		args    []string
		stdin   string
		code    int // 0, 1 (rejected) or 2 (could not run)
		summary string
		rows    int
	}{
		{"some rejected", []string{"rows", file, "--rejects", rejects}, "", 1, "created 2, updated 0, unchanged 0, rejected 2", 2},
		{"dry run writes nothing", []string{"rows", "--dry-run", file}, "", 1, "created 2, updated 0, unchanged 0, rejected 2", 0},
		{"all taken from stdin", []string{"rows", "-"}, "{\"id\":\"a\"}\n", 0, "created 1, updated 0, unchanged 0, rejected 0", 1},
		{"missing file", []string{"rows", filepath.Join(dir, "none")}, "", 2, "", 0},
		{"no file", []string{"rows"}, "", 2, "", 0},
		{"unknown kind", []string{"things", file}, "", 2, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := setApplier{}
			var stdout, stderr bytes.Buffer
			err := runImportCmd(context.Background(), tc.args, strings.NewReader(tc.stdin), &stdout, &stderr, slog.New(slog.DiscardHandler), testKinds(rows))
			code := 0
			var ec exitCode
			switch {
			case errors.As(err, &ec):
				code = int(ec)
			case err != nil:
				code = 2
			}
			if code != tc.code {
				t.Fatalf("exit %d (%v), want %d", code, err, tc.code)
			}
			if tc.summary != "" {
				lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
				if lines[len(lines)-1] != tc.summary {
					t.Errorf("last line %q, want %q", lines[len(lines)-1], tc.summary)
				}
				if strings.ContainsAny(stderr.String(), "\r\x1b") || !strings.Contains(stderr.String(), "rows/s") {
					t.Errorf("progress on a pipe is not plain lines: %q", stderr.String())
				}
			}
			if len(rows) != tc.rows {
				t.Errorf("%d rows written, want %d", len(rows), tc.rows)
			}
		})
	}
	got, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	want := "line 2: id: refused\nline 3: malformed: json: unknown field \"x\"\n"
	if string(got) != want {
		t.Errorf("rejects file %q, want %q", got, want)
	}
}
