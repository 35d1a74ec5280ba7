package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"members/internal/booking"
	"members/internal/flightops"
)

// ReservationsFeedPath is where the reservation system puts and purges
// whole bookings (docs/airline-feeds.md, "Bookings feed").
const ReservationsFeedPath = "/ops/v1/reservations/{pnr}"

// maxSnapshotBody caps a booking snapshot's body.
const maxSnapshotBody = 64 << 10

// ReservationsFeed is the bookings feed: PUT one whole snapshot, DELETE
// ?version=N to purge, each signed (Ops-Signature over "<t>.<body>"; a
// DELETE signs its empty body). Answers as the flight events feed's: 200
// {pnr, version, outcome}; 400 {error: malformed | invalid, field,
// message}; 401 bad_signature or stale_timestamp; 413 too_large; 503
// not_configured without a secret. Nothing is stored unless 200.
func ReservationsFeed(svc *flightops.ReservationFeed, keys FeedSecrets, now func() time.Time, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var snap booking.Snapshot
		var into any = &snap
		if r.Method == http.MethodDelete {
			into = nil
		}
		if !ReadSignedFeed(w, r, keys, now(), maxSnapshotBody, into) {
			return
		}
		var (
			res booking.FeedResult
			err error
		)
		if r.Method == http.MethodDelete {
			v, perr := strconv.ParseInt(r.URL.Query().Get("version"), 10, 64)
			if perr != nil || v < 1 {
				FeedReply(w, http.StatusBadRequest, map[string]string{"error": "invalid", "field": "version", "message": "required: ?version= a positive integer"})
				return
			}
			res, err = svc.Purge(r.Context(), r.PathValue("pnr"), v)
		} else {
			if snap.PNR != "" && snap.PNR != r.PathValue("pnr") {
				FeedReply(w, http.StatusBadRequest, map[string]string{"error": "invalid", "field": "pnr", "message": "differs from the booking number of the path"})
				return
			}
			snap.PNR = r.PathValue("pnr")
			res, err = svc.Put(r.Context(), snap)
		}
		var se *booking.SnapshotError
		var fe *flightops.FieldError
		switch {
		case errors.As(err, &se):
			FeedReply(w, http.StatusBadRequest, map[string]string{"error": "invalid", "field": se.Field, "message": se.Reason})
		case errors.As(err, &fe):
			FeedReply(w, http.StatusBadRequest, map[string]string{"error": "invalid", "field": "segments", "message": fe.Reason})
		case errors.Is(err, booking.ErrUnknownMember):
			FeedReply(w, http.StatusBadRequest, map[string]string{"error": "invalid", "field": "memberNumber", "message": "no member has this member number"})
		case err != nil:
			logger.Error("booking snapshot", "err", err, "pnr", r.PathValue("pnr"))
			FeedFail(w, http.StatusInternalServerError, "internal", "the booking could not be applied; send it again")
		default:
			FeedReply(w, http.StatusOK, res)
		}
	})
}
