package app

import (
	"context"
	"net/http"

	"members/internal/httpapi"
)

// Features are the API mounts, anonymous paths, background jobs and
// closers of the feature packages, wired in wireAccount and wireBookings.
type Features struct {
	Mounts    []func(*httpapi.Server, *http.ServeMux)
	Anonymous []string
	// RootMounts are handlers outside /api (gateway, webhooks).
	RootMounts []func(*http.ServeMux)
	Background []func(context.Context)
	Closers    []func() error
}

// Close runs the closers.
func (f *Features) Close() {
	for _, c := range f.Closers {
		_ = c()
	}
}

// wireFeatures builds every feature on top of the core app.
func (a *App) wireFeatures(ctx context.Context, cfg Config) (*Features, error) {
	f := &Features{}
	// Notification settings first: the senders of the features ask them.
	if err := a.wireNotify(ctx, cfg, f); err != nil {
		return nil, err
	}
	if err := a.wireAccount(ctx, cfg, f); err != nil {
		return nil, err
	}
	if err := a.wireBookings(ctx, cfg, f); err != nil {
		return nil, err
	}
	// Payments (saved cards, the payment engine, the sandbox gateway) come
	// before the products that register with the engine.
	if err := a.wireGateway(ctx, cfg, f); err != nil {
		return nil, err
	}
	if err := a.wirePayments(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wirePoints(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wirePasses(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wireSecurity(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wirePasskeys(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wireFlights(ctx, cfg, f); err != nil {
		return nil, err
	}

	return f, nil
}
