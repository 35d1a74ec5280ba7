package httpapi

import (
	"errors"
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
// (flightops.SignatureHeader over "<t>.<body>"), read by the signed feeds'
// shared front (ReadSignedFeed), which logs each refused signature as a
// warning with its reason. Without a secret it answers 503 and reads
// nothing. Answers are JSON for the operations system: 200 {eventId,
// outcome, bookings}; 400 a malformed body {error, field, message}; 401 a
// bad signature or a stale timestamp; 413 too large; 422 an unknown
// flight. Nothing is stored unless 200.
func FlightEvents(svc *flightops.Service, secret []byte, now func() time.Time, logger *slog.Logger, unavailable func(error) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev flightops.Event
		refused := func(reason string) { logger.Warn("flight event signature refused", "reason", reason) }
		if !readSignedFeed(w, r, FeedSecrets{Current: secret}, now(), maxFlightEventBody, &ev, refused) {
			return
		}
		res, err := svc.Apply(r.Context(), ev, flightops.SourceFeed)
		var fe *flightops.FieldError
		switch {
		case errors.As(err, &fe):
			FeedReply(w, http.StatusBadRequest, map[string]string{"error": "invalid", "field": fe.Field, "message": fe.Reason})
		case errors.Is(err, flightops.ErrUnknownFlight):
			FeedFail(w, http.StatusUnprocessableEntity, "unknown_flight", "no booking holds this flight on this date")
		case err != nil && unavailable(err) != "":
			// the database restarting, unreachable or full: the sender
			// sends it again after Retry-After
			logger.Warn("flight event: "+unavailable(err)+" unavailable", "err", err, "event", ev.ID)
			w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
			FeedFail(w, http.StatusServiceUnavailable, "unavailable", "the event could not be applied just now; send it again after Retry-After")
		case err != nil:
			logger.Error("flight event", "err", err, "event", ev.ID)
			FeedFail(w, http.StatusInternalServerError, "internal", "the event could not be applied; send it again")
		default:
			FeedReply(w, http.StatusOK, res)
		}
	})
}
