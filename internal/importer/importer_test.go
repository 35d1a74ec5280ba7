package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

type rec struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// memApplier is an upsert by id in memory; a name "bad" is refused.
type memApplier struct {
	rows    map[string]string
	batches int
	failAt  int // batch number that fails whole (1-based), 0 none
}

func (m *memApplier) Apply(_ context.Context, batch []Line[rec], dryRun bool) ([]Result, error) {
	m.batches++
	if m.batches == m.failAt {
		return nil, errors.New("database gone")
	}
	out := make([]Result, len(batch))
	for i, l := range batch {
		switch old, ok := m.rows[l.Value.ID]; {
		case l.Value.Name == "bad":
			out[i] = Result{Reject: errors.New("name: not allowed")}
			continue
		case !ok:
			out[i].Outcome = "created"
		case old == l.Value.Name:
			out[i].Outcome = "unchanged"
		default:
			out[i].Outcome = "updated"
		}
		if !dryRun {
			m.rows[l.Value.ID] = l.Value.Name
		}
	}
	return out, nil
}

var outcomes = []string{"created", "updated", "unchanged"}

func TestRun(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"1","name":"a"}`,
		`{"id":"2","name":"b"}`,
		``,
		`{"id":"3","name":"bad"}`,
		`{"id":"4","name":"d","extra":1}`,
		`not json`,
		`{"id":"1","name":"a2"}`,
		`{"id":"2","name":"b"} {"id":"9"}`,
		`{"id":"5","name":"e"}`,
	}, "\n")
	tests := []struct {
		name    string
		dry     bool
		summary string
		rows    int
	}{
		{"applies", false, "created 3, updated 1, unchanged 0, rejected 4", 3},
		{"dry run writes nothing", true, "created 4, updated 0, unchanged 0, rejected 4", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &memApplier{rows: map[string]string{}}
			var rejects bytes.Buffer
			sum, err := Run[rec](context.Background(), strings.NewReader(input), a, Options{Outcomes: outcomes, Batch: 2, DryRun: tc.dry, Rejects: &rejects})
			if err != nil {
				t.Fatal(err)
			}
			if got := sum.String(); got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
			if len(a.rows) != tc.rows {
				t.Errorf("%d rows written, want %d", len(a.rows), tc.rows)
			}
			lines := strings.Split(strings.TrimSpace(rejects.String()), "\n")
			want := []string{"line 4: name: not allowed", "line 5: malformed: json: unknown field \"extra\"", "line 6: malformed:", "line 8: malformed: more than one JSON value on the line"}
			if len(lines) != len(want) {
				t.Fatalf("rejects:\n%s", rejects.String())
			}
			for i, w := range want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("reject %d: %q, want it to start with %q", i, lines[i], w)
				}
			}
		})
	}
}

func TestRunAgainIsUnchanged(t *testing.T) {
	input := "{\"id\":\"1\",\"name\":\"a\"}\n{\"id\":\"2\",\"name\":\"b\"}\n{\"id\":\"3\",\"name\":\"c\"}\n"
	a := &memApplier{rows: map[string]string{}, failAt: 2}
	sum, err := Run[rec](context.Background(), strings.NewReader(input), a, Options{Outcomes: outcomes, Batch: 2})
	if err == nil || !strings.Contains(err.Error(), "lines 3 to 3: database gone") {
		t.Fatalf("err %v, want the failed batch named", err)
	}
	if sum.String() != "created 2, updated 0, unchanged 0, rejected 0" {
		t.Errorf("summary before the failure %q", sum)
	}
	a.failAt = 0
	sum, err = Run[rec](context.Background(), strings.NewReader(input), a, Options{Outcomes: outcomes, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.String() != "created 1, updated 0, unchanged 2, rejected 0" {
		t.Errorf("resumed summary %q", sum)
	}
}

func TestLongLineRefusedWhole(t *testing.T) {
	long := `{"id":"x","name":"` + strings.Repeat("y", MaxLine) + `"}`
	input := long + "\n" + `{"id":"1","name":"a"}` // last line without a newline
	a := &memApplier{rows: map[string]string{}}
	var rejects bytes.Buffer
	sum, err := Run[rec](context.Background(), strings.NewReader(input), a, Options{Outcomes: outcomes, Rejects: &rejects})
	if err != nil {
		t.Fatal(err)
	}
	if sum.String() != "created 1, updated 0, unchanged 0, rejected 1" || a.rows["1"] != "a" {
		t.Errorf("summary %q rows %v", sum, a.rows)
	}
	if !strings.HasPrefix(rejects.String(), "line 1: line longer than") {
		t.Errorf("rejects %q", rejects.String())
	}
}

func TestProgressPlainWhenNotATerminal(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(3 * time.Second); return clock }
	var input strings.Builder
	for i := range 6 {
		input.WriteString(`{"id":"` + string(rune('a'+i)) + `","name":"n"}` + "\n")
	}
	p := NewProgress(&out, false, int64(input.Len()), now)
	a := &memApplier{rows: map[string]string{}}
	if _, err := Run[rec](context.Background(), strings.NewReader(input.String()), a, Options{Outcomes: outcomes, Batch: 2, Progress: p}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.ContainsAny(got, "\r\x1b") {
		t.Errorf("plain progress has terminal controls: %q", got)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-1], "import: 6 rows (100%), ") || !strings.Contains(lines[0], "rows/s") || !strings.Contains(lines[0], "left") {
		t.Errorf("progress lines:\n%s", got)
	}
}

func TestProgressBarOnATerminal(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	p := NewProgress(&out, true, 100, now)
	p.update(10, 50)
	p.done(20, 100)
	got := out.String()
	if !strings.Contains(got, "\r\x1b[K[===============               ]  50% 10 rows") || !strings.Contains(got, "left") || !strings.HasSuffix(got, "\n") {
		t.Errorf("bar %q", got)
	}
}

// genReader yields n member-like lines without holding them.
type genReader struct {
	n, i int
	buf  []byte
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.i == g.n {
			return 0, io.EOF
		}
		g.i++
		g.buf = fmt.Appendf(nil, `{"id":"%d","name":"%s"}`+"\n", g.i, strings.Repeat("x", 200))
	}
	k := copy(p, g.buf)
	g.buf = g.buf[k:]
	return k, nil
}

// heapApplier applies nothing and records the largest live heap seen.
type heapApplier struct {
	batches int
	peak    uint64
}

func (h *heapApplier) Apply(_ context.Context, batch []Line[rec], _ bool) ([]Result, error) {
	h.batches++
	if h.batches%50 == 0 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.peak = max(h.peak, ms.HeapAlloc)
	}
	out := make([]Result, len(batch))
	for i := range out {
		out[i].Outcome = "created"
	}
	return out, nil
}

// TestStreamsInFlatMemory: 150,000 lines (about 33 MB) go through with
// the live heap bounded by a batch, not by the input.
func TestStreamsInFlatMemory(t *testing.T) {
	const n = 150000
	h := &heapApplier{}
	sum, err := Run[rec](context.Background(), &genReader{n: n}, h, Options{Outcomes: outcomes})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Counts["created"] != n {
		t.Fatalf("summary %s", sum)
	}
	if h.peak == 0 || h.peak > 16<<20 {
		t.Errorf("peak live heap %d bytes, want under 16 MiB", h.peak)
	}
}
