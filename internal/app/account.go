package app

import "context"

// wireAccount mounts the account, passengers, password reset and mail
// feature.
func (a *App) wireAccount(ctx context.Context, cfg Config, f *Features) error { return nil }
