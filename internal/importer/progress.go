package importer

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// Progress reports an import on standard error: on a terminal a bar
// redrawn in place with rows/s and the time left, otherwise one plain
// line at most every Every (and a last one), fit for a log.
type Progress struct {
	w     io.Writer
	tty   bool
	total int64 // input bytes, 0 when unknown (standard input)
	every time.Duration
	now   func() time.Time
	start time.Time
	last  time.Time
}

// NewProgress reports to w; tty draws the bar; total is the input's size
// in bytes when known (for the share done and the time left).
func NewProgress(w io.Writer, tty bool, total int64, now func() time.Time) *Progress {
	if now == nil {
		now = time.Now
	}
	t := now()
	every := 5 * time.Second
	if tty {
		every = 200 * time.Millisecond
	}
	return &Progress{w: w, tty: tty, total: total, every: every, now: now, start: t, last: t}
}

// IsTerminal tells whether f is a terminal (the bar) or not (plain lines).
func IsTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd())) // #nosec G115 -- a file descriptor fits an int
}

func (p *Progress) update(rows int, read int64) {
	if p == nil {
		return
	}
	t := p.now()
	if t.Sub(p.last) < p.every {
		return
	}
	p.last = t
	p.print(rows, read, false)
}

func (p *Progress) done(rows int, read int64) {
	if p == nil {
		return
	}
	p.print(rows, read, true)
}

func (p *Progress) print(rows int, read int64, final bool) {
	elapsed := p.now().Sub(p.start)
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(rows) / s
	}
	share := -1.0
	if p.total > 0 {
		share = min(float64(read)/float64(p.total), 1)
	}
	left := ""
	if share > 0 && !final {
		rest := time.Duration(float64(elapsed) * (1 - share) / share).Round(time.Second)
		left = ", " + rest.String() + " left"
	}
	if !p.tty {
		pct := ""
		if share >= 0 {
			pct = fmt.Sprintf(" (%.0f%%)", share*100)
		}
		fmt.Fprintf(p.w, "import: %d rows%s, %.0f rows/s%s\n", rows, pct, rate, left)
		return
	}
	const width = 30
	bar := ""
	if share >= 0 {
		full := int(share * width)
		bar = "[" + strings.Repeat("=", full) + strings.Repeat(" ", width-full) + fmt.Sprintf("] %3.0f%% ", share*100)
	}
	end := ""
	if final {
		end = "\n"
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s%d rows, %.0f rows/s%s%s", bar, rows, rate, left, end)
}
