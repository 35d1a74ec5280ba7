package demo

import (
	"context"
	"database/sql"
	"time"
)

// seedBookings adds the demo members' reservations (bookings feature).
func seedBookings(ctx context.Context, tx *sql.Tx, now time.Time) error { return nil }
