package app

import (
	"context"
	"net/http"

	"members/internal/flightops"
	"members/internal/httpapi"
	"members/internal/store"
)

// DemoOpsSecret signs the flight events feed of a --demo server started
// without --ops-secret (docs/flight-alerts.md). Never used outside --demo.
const DemoOpsSecret = "demo-ops-secret" // #nosec G101 -- the documented demo value, not a credential

// FlightOps is the operations feed's service (the server and the
// operator's commands).
func (a *App) FlightOps() *flightops.Service {
	return flightops.NewService(store.NewFlightOpsStore(a.DB), a.DB.Now)
}

// wireFlights mounts the operations feed of flight events. Its secret
// comes from --ops-secret (env MEMBERS_OPS_SECRET) and is never kept in
// the database; without one the feed answers 503.
func (a *App) wireFlights(_ context.Context, cfg Config, f *Features) error {
	secret := cfg.OpsSecret
	if secret == "" && cfg.Demo {
		secret = DemoOpsSecret
	}
	svc := a.FlightOps()
	f.RootMounts = append(f.RootMounts, func(mux *http.ServeMux) {
		mux.Handle("POST "+httpapi.FlightEventsPath, httpapi.FlightEvents(svc, []byte(secret), a.DB.Now, a.Logger))
	})
	return nil
}
