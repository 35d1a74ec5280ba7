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
	br := bufio.NewReaderSize(r, 64<<10)
	batch := make([]Line[T], 0, size)
	number := 0
	var read int64

	// the lines refused before the applier saw them wait for their batch,
	// so that the rejects come out in the lines' order
	type refused struct {
		n      int
		reason error
	}
	var pending []refused
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
	flushPending := func(before int) error {
		for len(pending) > 0 && pending[0].n < before {
			if err := reject(pending[0].n, pending[0].reason); err != nil {
				return err
			}
			pending = pending[1:]
		}
		return nil
	}
	flush := func() error {
		if len(batch) == 0 {
			err := flushPending(number + 1)
			pending = pending[:0]
			opt.Progress.update(sum.Lines(), read)
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := a.Apply(ctx, batch, opt.DryRun)
		if err != nil {
			return fmt.Errorf("import: lines %d to %d: %w", batch[0].Number, batch[len(batch)-1].Number, err)
		}
		if len(res) != len(batch) {
			return fmt.Errorf("import: lines %d to %d: the applier answered %d results for %d lines", batch[0].Number, batch[len(batch)-1].Number, len(res), len(batch))
		}
		for i, rs := range res {
			if err := flushPending(batch[i].Number); err != nil {
				return err
			}
			switch {
			case rs.Reject != nil:
				if err := reject(batch[i].Number, rs.Reject); err != nil {
					return err
				}
			case known[rs.Outcome]:
				sum.Counts[rs.Outcome]++
			default:
				return fmt.Errorf("import: line %d: unknown outcome %q", batch[i].Number, rs.Outcome)
			}
		}
		if err := flushPending(number + 1); err != nil {
			return err
		}
		batch, pending = batch[:0], pending[:0]
		opt.Progress.update(sum.Lines(), read)
		return nil
	}
	refuse := func(n int, reason error) {
		pending = append(pending, refused{n, reason})
	}

	for {
		raw, n, tooLong, err := readLine(br)
		read += int64(n)
		if n > 0 {
			number++
			raw = bytes.TrimSpace(raw)
			switch {
			case tooLong:
				refuse(number, fmt.Errorf("line longer than %d bytes", MaxLine))
			case len(raw) == 0:
				// a blank line is no record
			default:
				var v T
				if derr := decode(raw, &v); derr != nil {
					refuse(number, derr)
				} else {
					batch = append(batch, Line[T]{Number: number, Value: v})
				}
			}
			if len(batch)+len(pending) >= size {
				if ferr := flush(); ferr != nil {
					return sum, ferr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sum, fmt.Errorf("import: reading line %d: %w", number+1, err)
		}
	}
	if err := flush(); err != nil {
		return sum, err
	}
	opt.Progress.done(sum.Lines(), read)
	return sum, nil
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
