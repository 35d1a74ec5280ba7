package app

import (
	"context"
	"errors"
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
	// ServerRootMounts are handlers outside /api that use the server's
	// cookies and sessions (the OpenID Connect provider).
	ServerRootMounts []func(*httpapi.Server, *http.ServeMux)
	Background       []func(context.Context)
	// Release free what the background jobs hold in the database (leases),
	// run once they have stopped at a graceful shutdown.
	Release []func(context.Context) error
	Closers []func() error
}

// ReleaseLeases runs the Release functions, returning the first error.
func (f *Features) ReleaseLeases(ctx context.Context) error {
	var first error
	for _, r := range f.Release {
		if err := r(ctx); err != nil && first == nil {
			first = err
		}
	}
	return first
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
	// What a feature needs from another one is handed to it: the products
	// get the payment engine they register with, the privacy export the
	// saved cards.
	conn, err := a.wireGateway(ctx, cfg, f)
	if err != nil {
		return nil, err
	}
	pay, err := a.wirePayments(ctx, cfg, f, conn)
	if err != nil {
		return nil, err
	}

	pts, err := a.wirePoints(ctx, cfg, f, pay)
	if err != nil {
		return nil, err
	}

	coupons, err := a.wirePasses(ctx, cfg, f, pay)
	if err != nil {
		return nil, err
	}
	if c := pay.Checkouts; c.Points == nil || c.Pass == nil || c.Coupon == nil {
		return nil, errors.New("app: a product sold through the payment API did not register")
	}

	if err := a.wireSecurity(ctx, cfg, f, pay, pts, coupons); err != nil {
		return nil, err
	}

	if err := a.wireOIDC(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wirePasskeys(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wireFlights(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wirePush(ctx, cfg, f); err != nil {
		return nil, err
	}

	if err := a.wireMembersFeed(ctx, cfg, f); err != nil {
		return nil, err
	}

	return f, nil
}
