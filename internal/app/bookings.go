package app

import "context"

// wireBookings mounts the bookings and travel documents feature.
func (a *App) wireBookings(ctx context.Context, cfg Config, f *Features) error { return nil }
