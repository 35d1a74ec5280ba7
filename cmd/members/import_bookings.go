package main

import (
	"context"
	"io"
	"log/slog"

	"members/internal/app"
	"members/internal/importer"
)

// importBookingsRun is the bookings kind of `members import`
// (import.go's importKinds, "bookings"): the bookings feed's snapshot
// service through importer.Run, batches of one transaction each, while
// the site serves on the same database.
func importBookingsRun(ctx context.Context, dsn string, r io.Reader, opt importer.Options, logger *slog.Logger) (importer.Summary, error) {
	a, err := app.Open(ctx, app.Options{DSN: dsn, Logger: logger})
	if err != nil {
		return importer.Summary{}, err
	}
	defer a.Close()
	return a.ImportBookings(ctx, r, opt)
}
