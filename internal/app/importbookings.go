package app

import (
	"context"
	"fmt"
	"io"

	"members/internal/booking"
	"members/internal/flightops"
	"members/internal/importer"
	"members/internal/store"
)

// BookingsImportOutcomes are the summary's outcomes of `members import
// bookings`, in its order.
var BookingsImportOutcomes = []string{booking.FeedApplied, booking.FeedStale, booking.FeedDuplicate}

// BookingsImport is the applier of `members import bookings`: one line a
// booking snapshot (the feed's PUT body plus pnr), a batch applied in one
// transaction by the bookings feed's own service (the same rules, version
// order and flight changes), one outcome per line. A refused line writes
// nothing and does not stop the others; a run again after an interruption
// finds what is there as duplicate.
func (a *App) BookingsImport() importer.Applier[booking.Snapshot] {
	return bookingsApplier{feed: a.ReservationFeed()}
}

// ImportBookings imports r (NDJSON) into the app's database.
func (a *App) ImportBookings(ctx context.Context, r io.Reader, opt importer.Options) (importer.Summary, error) {
	opt.Outcomes = BookingsImportOutcomes
	if err := a.DB.ForBulkWrites(ctx, store.BulkWriteCacheMiB); err != nil {
		return importer.Summary{}, err
	}
	return importer.Run(ctx, r, a.BookingsImport(), opt)
}

type bookingsApplier struct{ feed *flightops.ReservationFeed }

func (b bookingsApplier) Apply(ctx context.Context, batch []importer.Line[booking.Snapshot], dryRun bool) ([]importer.Result, error) {
	out := make([]importer.Result, len(batch))
	var checked []flightops.Incoming
	var at []int
	for i, l := range batch {
		in, err := b.feed.Check(l.Value)
		if err != nil {
			out[i].Reject = err
			continue
		}
		in.Line = l.Number
		checked = append(checked, in)
		at = append(at, i)
	}
	res, err := b.feed.ApplyBatch(ctx, checked, dryRun)
	if err != nil {
		return nil, fmt.Errorf("import bookings: %w", err)
	}
	for j, r := range res {
		if r.Err != nil {
			out[at[j]].Reject = fmt.Errorf("%s: %w", r.PNR, r.Err)
			continue
		}
		out[at[j]].Outcome = r.Outcome
	}
	return out, nil
}
