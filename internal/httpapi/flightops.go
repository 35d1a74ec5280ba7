package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"members/internal/flightops"
)

// FlightEventsPath is where the airline's operations system posts flight
// events.
const FlightEventsPath = "/ops/v1/flight-events"

// maxFlightEventBody caps an event's body.
const maxFlightEventBody = 64 << 10

// FlightEvents is the operations feed: one signed event per request
// (flightops.SignatureHeader over "<t>.<body>"). Without a secret it
// answers 503 and reads nothing. Answers are JSON for the operations
// system: 200 {eventId, outcome, bookings}; 400 a malformed body
// {error, field, message}; 401 a bad signature or a stale timestamp; 413
// too large; 422 an unknown flight. Nothing is stored unless 200.
func FlightEvents(svc *flightops.Service, secret []byte, now func() time.Time, logger *slog.Logger, unavailable func(error) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply := func(status int, v any) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(v)
		}
		fail := func(status int, code, msg string) {
			reply(status, map[string]string{"error": code, "message": msg})
		}
		if len(secret) == 0 {
			fail(http.StatusServiceUnavailable, "not_configured", "the flight events feed has no secret configured")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxFlightEventBody))
		if err != nil {
			fail(http.StatusRequestEntityTooLarge, "too_large", "the body is over 64 KiB")
			return
		}
		switch err := flightops.Verify(secret, r.Header.Get(flightops.SignatureHeader), body, now()); {
		case errors.Is(err, flightops.ErrStale):
			logger.Warn("flight event signature refused", "reason", "timestamp more than the tolerance from the server's clock")
			fail(http.StatusUnauthorized, "stale_timestamp", "the signature's timestamp is more than 5 minutes from the server's clock")
			return
		case err != nil:
			logger.Warn("flight event signature refused", "reason", "no valid signature under the feed's secret")
			fail(http.StatusUnauthorized, "bad_signature", "the "+flightops.SignatureHeader+" header does not match the body")
			return
		}
		var ev flightops.Event
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ev); err != nil || dec.More() {
			fail(http.StatusBadRequest, "malformed", "the body is not one event object (JSON; times in RFC 3339)")
			return
		}
		res, err := svc.Apply(r.Context(), ev, flightops.SourceFeed)
		var fe *flightops.FieldError
		switch {
		case errors.As(err, &fe):
			reply(http.StatusBadRequest, map[string]string{"error": "invalid", "field": fe.Field, "message": fe.Reason})
		case errors.Is(err, flightops.ErrUnknownFlight):
			fail(http.StatusUnprocessableEntity, "unknown_flight", "no booking holds this flight on this date")
		case err != nil && unavailable(err) != "":
			// the database restarting, unreachable or full: the sender
			// sends it again after Retry-After
			logger.Warn("flight event: "+unavailable(err)+" unavailable", "err", err, "event", ev.ID)
			w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
			fail(http.StatusServiceUnavailable, "unavailable", "the event could not be applied just now; send it again after Retry-After")
		case err != nil:
			logger.Error("flight event", "err", err, "event", ev.ID)
			fail(http.StatusInternalServerError, "internal", "the event could not be applied; send it again")
		default:
			reply(http.StatusOK, res)
		}
	})
}
