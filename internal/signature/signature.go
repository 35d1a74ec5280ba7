// Package signature signs and verifies the webhook and feed bodies that
// cross between services: the header value
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">". The gateway's
// webhooks (Gateway-Signature) and the flight operations feed
// (Ops-Signature) use it on both ends.
package signature

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrBad is a header that does not carry a valid signature of the
	// body under the secret (or no secret is configured).
	ErrBad = errors.New("signature: bad signature")
	// ErrStale is a valid signature whose timestamp is further than the
	// tolerance from now: a replay, or a clock far off.
	ErrStale = errors.New("signature: timestamp out of tolerance")
)

// Sign returns the header value for body at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a header value against body: one of its v1 signatures
// must be the HMAC of "t.body" under secret (compared in constant time;
// ErrBad otherwise, and always for an empty secret), then t must be within
// tolerance of now (ErrStale).
func Verify(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 || len(secret) == 0 {
		return ErrBad
	}
	want := mac(secret, ts, body)
	ok := false
	for _, s := range sigs {
		got, err := hex.DecodeString(s)
		if err == nil && hmac.Equal(got, want) {
			ok = true
		}
	}
	if !ok {
		return ErrBad
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrStale
	}
	return nil
}
