// Package importer is the one bulk import of NDJSON files (members import
// members, members import bookings): it reads one JSON value a line,
// streaming, hands the decoded lines to an Applier in batches, writes
// each refused line with its number and reason to the rejects writer,
// reports progress, and counts the outcomes for the last summary line.
//
// The rules and the writes are the applier's: it applies one batch in one
// transaction of its own and answers one Result per line. A line it
// refuses (a field rule, an e-mail taken) is a reject and must leave
// nothing written; a failure of the whole batch (the database gone) ends
// the run. Appliers are idempotent (an upsert keyed by the line's own
// number), so a run again after an interruption takes up where the
// database stands: what is already there comes back "unchanged".
package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DefaultBatch is the lines of one batch (one transaction).
const DefaultBatch = 500

// MaxLine is the longest line taken; a longer one is refused whole.
const MaxLine = 1 << 20

// Line is one decoded line of the input: its 1-based number in the file
// and its value.
type Line[T any] struct {
	Number int
	Value  T
}

// Result is the applier's answer for one line: the outcome counted
// (one of the applier's Outcomes) or, when Reject is set, the reason the
// line was refused (it wrote nothing).
type Result struct {
	Outcome string
	Reject  error
}

// Applier applies one batch of decoded lines, in one transaction of its
// own, and answers one Result per line, in the batch's order. With
// dryRun it checks each line as it would apply it and writes nothing.
// An error is a failure of the whole batch: the import stops there.
type Applier[T any] interface {
	Apply(ctx context.Context, batch []Line[T], dryRun bool) ([]Result, error)
}

// Options tune a run.
type Options struct {
	// Outcomes names the outcomes in the summary's order
	// (members: created, updated, unchanged).
	Outcomes []string
	// Batch is the lines of one batch; DefaultBatch when 0.
	Batch int
	// DryRun checks every line and writes nothing.
	DryRun bool
	// Rejects receives each refused line as "line N: reason"; nil: none.
	Rejects io.Writer
	// Progress is told of every batch done; nil: none.
	Progress *Progress
}

// Summary counts the lines of a run.
type Summary struct {
	outcomes []string
	Counts   map[string]int
	Rejected int
}

// Lines is every line counted (taken and refused).
func (s Summary) Lines() int {
	n := s.Rejected
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// String is the last line: "created N, updated N, unchanged N, rejected N".
func (s Summary) String() string {
	parts := make([]string, 0, len(s.outcomes)+1)
	for _, o := range s.outcomes {
		parts = append(parts, fmt.Sprintf("%s %d", o, s.Counts[o]))
	}
	parts = append(parts, fmt.Sprintf("rejected %d", s.Rejected))
	return strings.Join(parts, ", ")
}

// Run imports r through a. It returns the summary of what was done even
// when it stops on an error (the input unreadable, a batch failed, the
// context ended): lines of a failed batch are not counted.
//
// The input is read and decoded one batch ahead, in a goroutine of its
// own, while the applier writes the batch before: the decoding and the
// database's work share the machine's cores instead of taking turns. The
// batches, rejects and counts are the same as one after the other.
func Run[T any](ctx context.Context, r io.Reader, a Applier[T], opt Options) (Summary, error) {
	sum := Summary{outcomes: opt.Outcomes, Counts: map[string]int{}}
	size := opt.Batch
	if size <= 0 {
		size = DefaultBatch
	}
	known := map[string]bool{}
	for _, o := range opt.Outcomes {
		known[o] = true
	}
	reject := func(n int, reason error) error {
		sum.Rejected++
		if opt.Rejects == nil {
			return nil
		}
		if _, err := fmt.Fprintf(opt.Rejects, "line %d: %s\n", n, oneLine(reason)); err != nil {
			return fmt.Errorf("import: writing the rejects: %w", err)
		}
		return nil
	}
	done := make(chan struct{})
	defer close(done)
	chunks := make(chan chunk[T], 1)
	go readChunks(r, size, chunks, done)

	for c := range chunks {
		// the lines refused before the applier saw them wait for their
		// place, so that the rejects come out in the lines' order
		pending := c.refused
		flushPending := func(before int) error {
			for len(pending) > 0 && pending[0].n < before {
				if err := reject(pending[0].n, pending[0].reason); err != nil {
					return err
				}
				pending = pending[1:]
			}
			return nil
		}
		if len(c.batch) > 0 {
			if err := ctx.Err(); err != nil {
				return sum, err
			}
			first, last := c.batch[0].Number, c.batch[len(c.batch)-1].Number
			res, err := a.Apply(ctx, c.batch, opt.DryRun)
			if err != nil {
				return sum, fmt.Errorf("import: lines %d to %d: %w", first, last, err)
			}
			if len(res) != len(c.batch) {
				return sum, fmt.Errorf("import: lines %d to %d: the applier answered %d results for %d lines", first, last, len(res), len(c.batch))
			}
			for i, rs := range res {
				if err := flushPending(c.batch[i].Number); err != nil {
					return sum, err
				}
				switch {
				case rs.Reject != nil:
					if err := reject(c.batch[i].Number, rs.Reject); err != nil {
						return sum, err
					}
				case known[rs.Outcome]:
					sum.Counts[rs.Outcome]++
				default:
					return sum, fmt.Errorf("import: line %d: unknown outcome %q", c.batch[i].Number, rs.Outcome)
				}
			}
		}
		if err := flushPending(c.last + 1); err != nil {
			return sum, err
		}
		if c.err != nil {
			return sum, c.err
		}
		opt.Progress.update(sum.Lines(), c.read)
		if c.end {
			opt.Progress.done(sum.Lines(), c.read)
			return sum, nil
		}
	}
	return sum, nil
}

// chunk is one batch of the input as read: the decoded lines, the lines
// refused by the reading itself (too long, not JSON), the number of the
// last line read and the bytes read so far. The last chunk has end set,
// or err when the input could not be read further.
type chunk[T any] struct {
	batch   []Line[T]
	refused []refusal
	last    int
	read    int64
	end     bool
	err     error
}

// refusal is a line refused before the applier saw it.
type refusal struct {
	n      int
	reason error
}

// readChunks reads r into chunks of size lines (decoded or refused) until
// its end or a read error, each sent on out; it stops early when done is
// closed, and closes out.
func readChunks[T any](r io.Reader, size int, out chan<- chunk[T], done <-chan struct{}) {
	defer close(out)
	br := bufio.NewReaderSize(r, 64<<10)
	c := chunk[T]{batch: make([]Line[T], 0, size)}
	send := func() bool {
		select {
		case out <- c:
			c = chunk[T]{batch: make([]Line[T], 0, size), last: c.last, read: c.read}
			return true
		case <-done:
			return false
		}
	}
	for {
		raw, n, tooLong, err := readLine(br)
		c.read += int64(n)
		if n > 0 {
			c.last++
			raw = bytes.TrimSpace(raw)
			switch {
			case tooLong:
				c.refused = append(c.refused, refusal{c.last, fmt.Errorf("line longer than %d bytes", MaxLine)})
			case len(raw) == 0:
				// a blank line is no record
			default:
				var v T
				if derr := decode(raw, &v); derr != nil {
					c.refused = append(c.refused, refusal{c.last, derr})
				} else {
					c.batch = append(c.batch, Line[T]{Number: c.last, Value: v})
				}
			}
			if len(c.batch)+len(c.refused) >= size && !send() {
				return
			}
		}
		if errors.Is(err, io.EOF) {
			c.end = true
			send()
			return
		}
		if err != nil {
			// as a failed batch: the lines of this chunk are not taken
			c.batch, c.refused = nil, nil
			c.err = fmt.Errorf("import: reading line %d: %w", c.last+1, err)
			send()
			return
		}
	}
}

// readLine reads one line (without its newline) and the bytes it took;
// a line over MaxLine is read to its end and answered tooLong, its bytes
// dropped, so memory stays flat whatever the input.
func readLine(br *bufio.Reader) (line []byte, n int, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, isPrefix, rerr := br.ReadLine()
		n += len(chunk)
		if !tooLong {
			if len(buf)+len(chunk) > MaxLine {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if rerr != nil {
			return buf, n, tooLong, rerr
		}
		if !isPrefix {
			return buf, n + 1, tooLong, nil // +1: the newline
		}
	}
}

// decode reads exactly one JSON object, refusing unknown fields.
func decode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("malformed: %w", err)
	}
	if dec.More() {
		return errors.New("malformed: more than one JSON value on the line")
	}
	return nil
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
