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

	"members/internal/booking"
	"members/internal/flightops"
	"members/internal/signature"
)

// ReservationsFeedPath is where the reservation system puts and purges
// whole bookings (docs/airline-feeds.md, "Bookings feed").
const ReservationsFeedPath = "/ops/v1/reservations/{pnr}"

// maxSnapshotBody caps a booking snapshot's body.
const maxSnapshotBody = 64 << 10

// FeedSecrets are a feed's current secret and the previous one still
// accepted during a rotation (empty: none).
type FeedSecrets struct {
	Current, Previous []byte
}

// verify checks an Ops-Signature under the current secret, else the
// previous one: signature.ErrStale or signature.ErrBad.
func (k FeedSecrets) verify(header string, body []byte, now time.Time) error {
	err := signature.Verify(k.Current, header, body, now, flightops.Tolerance)
	if errors.Is(err, signature.ErrBad) && len(k.Previous) > 0 {
		err = signature.Verify(k.Previous, header, body, now, flightops.Tolerance)
	}
	return err
}

// ReservationsFeed is the bookings feed: PUT one whole snapshot, DELETE
// ?version=N to purge, each signed (Ops-Signature over "<t>.<body>"; a
// DELETE signs its empty body). Answers as the flight events feed's: 200
// {pnr, version, outcome}; 400 {error: malformed | invalid, field,
// message}; 401 bad_signature or stale_timestamp; 413 too_large; 503
// not_configured without a secret. Nothing is stored unless 200.
func ReservationsFeed(svc *flightops.ReservationFeed, keys FeedSecrets, now func() time.Time, logger *slog.Logger) http.Handler {
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
		if len(keys.Current) == 0 {
			fail(http.StatusServiceUnavailable, "not_configured", "the bookings feed has no secret configured")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxSnapshotBody))
		if err != nil {
			fail(http.StatusRequestEntityTooLarge, "too_large", "the body is over 64 KiB")
			return
		}
		switch err := keys.verify(r.Header.Get(flightops.SignatureHeader), body, now()); {
		case errors.Is(err, signature.ErrStale):
			fail(http.StatusUnauthorized, "stale_timestamp", "the signature's timestamp is more than 5 minutes from the server's clock")
			return
		case err != nil:
			fail(http.StatusUnauthorized, "bad_signature", "the "+flightops.SignatureHeader+" header does not match the body")
			return
		}
		var res booking.FeedResult
		if r.Method == http.MethodDelete {
			v, perr := strconv.ParseInt(r.URL.Query().Get("version"), 10, 64)
			if perr != nil || v < 1 {
				reply(http.StatusBadRequest, map[string]string{"error": "invalid", "field": "version", "message": "required: ?version= a positive integer"})
				return
			}
			res, err = svc.Purge(r.Context(), r.PathValue("pnr"), v)
		} else {
			var snap booking.Snapshot
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if derr := dec.Decode(&snap); derr != nil || dec.More() {
				fail(http.StatusBadRequest, "malformed", "the body is not one booking object (JSON; no unknown fields)")
				return
			}
			if snap.PNR != "" && snap.PNR != r.PathValue("pnr") {
				reply(http.StatusBadRequest, map[string]string{"error": "invalid", "field": "pnr", "message": "differs from the booking number of the path"})
				return
			}
			snap.PNR = r.PathValue("pnr")
			res, err = svc.Put(r.Context(), snap)
		}
		var se *booking.SnapshotError
		var fe *flightops.FieldError
		switch {
		case errors.As(err, &se):
			reply(http.StatusBadRequest, map[string]string{"error": "invalid", "field": se.Field, "message": se.Reason})
		case errors.As(err, &fe):
			reply(http.StatusBadRequest, map[string]string{"error": "invalid", "field": "segments", "message": fe.Reason})
		case errors.Is(err, booking.ErrUnknownMember):
			reply(http.StatusBadRequest, map[string]string{"error": "invalid", "field": "memberNumber", "message": "no member has this member number"})
		case err != nil:
			logger.Error("booking snapshot", "err", err, "pnr", r.PathValue("pnr"))
			fail(http.StatusInternalServerError, "internal", "the booking could not be applied; send it again")
		default:
			reply(http.StatusOK, res)
		}
	})
}
