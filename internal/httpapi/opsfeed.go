package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"members/internal/flightops"
)

// FeedSecrets are the two secrets of a signed server-to-server feed: the
// current one and, during a rotation, the previous one (empty when none).
// They come from flags or the environment, never from the database.
type FeedSecrets struct {
	Current, Previous []byte
}

// FeedReply writes a feed's JSON answer (never cached).
func FeedReply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// FeedFail writes a feed's error answer {error, message}.
func FeedFail(w http.ResponseWriter, status int, code, msg string) {
	FeedReply(w, status, map[string]string{"error": code, "message": msg})
}

// ReadSignedFeed is the shared front of the signed feeds (the flight
// events feed, the members provisioning feed, the bookings feed): without
// a current secret it answers 503 not_configured; it reads at most limit
// bytes (413 too_large); checks Ops-Signature over "<t>.<body>" under the
// current then the previous secret, within flightops.Tolerance (401
// bad_signature or stale_timestamp); and, when v is not nil, decodes one
// JSON object refusing unknown fields and trailing data (400 malformed,
// with the unknown field named in "field"). It writes the answer itself and
// returns false on any failure; nothing has been read into v then.
func ReadSignedFeed(w http.ResponseWriter, r *http.Request, secrets FeedSecrets, now time.Time, limit int64, v any) bool {
	return readSignedFeed(w, r, secrets, now, limit, v, nil)
}

// readSignedFeed is ReadSignedFeed that, when refused is not nil, tells it
// why a signature was refused (for a feed that logs its refusals).
func readSignedFeed(w http.ResponseWriter, r *http.Request, secrets FeedSecrets, now time.Time, limit int64, v any, refused func(reason string)) bool {
	if len(secrets.Current) == 0 {
		FeedFail(w, http.StatusServiceUnavailable, "not_configured", "this feed has no secret configured")
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		FeedFail(w, http.StatusRequestEntityTooLarge, "too_large", "the body is over the feed's limit")
		return false
	}
	header := r.Header.Get(flightops.SignatureHeader)
	err = flightops.Verify(secrets.Current, header, body, now)
	if errors.Is(err, flightops.ErrBadSignature) && len(secrets.Previous) > 0 {
		err = flightops.Verify(secrets.Previous, header, body, now)
	}
	if err != nil && refused != nil {
		refused(signatureReason(err))
	}
	switch {
	case errors.Is(err, flightops.ErrStale):
		FeedFail(w, http.StatusUnauthorized, "stale_timestamp", "the signature's timestamp is more than 5 minutes from the server's clock")
		return false
	case err != nil:
		FeedFail(w, http.StatusUnauthorized, "bad_signature", "the "+flightops.SignatureHeader+" header does not match the body")
		return false
	}
	if v == nil {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil || dec.More() {
		out := map[string]string{"error": "malformed", "message": "the body is not one JSON object of the documented fields"}
		if err != nil {
			if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
				out["field"] = strings.Trim(name, `"`)
				out["message"] = "unknown field"
			}
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				out["field"] = te.Field
				out["message"] = "wrong type"
			}
		}
		FeedReply(w, http.StatusBadRequest, out)
		return false
	}
	return true
}

// signatureReason is why a signature was refused, in words for the log.
func signatureReason(err error) string {
	if errors.Is(err, flightops.ErrStale) {
		return "timestamp more than the tolerance from the server's clock"
	}
	return "no valid signature under the feed's secret"
}
