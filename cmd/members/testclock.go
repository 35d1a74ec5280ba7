package main

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// testClock is the server's clock under --test-clock: the real time plus an
// offset that browser tests move forward (POST /_test/clock
// {"advanceSeconds": N}), to pass the session idle limit without waiting.
// It exists only when the flag is given, and only on a loopback address.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) Now() time.Time {
	return time.Now().Add(time.Duration(c.offset.Load()))
}

// wrap answers POST /_test/clock and passes every other request to next.
func (c *testClock) wrap(next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_test/clock", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			AdvanceSeconds int64 `json:"advanceSeconds"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&body); err != nil || body.AdvanceSeconds < 0 {
			http.Error(w, "want {\"advanceSeconds\": N >= 0}", http.StatusBadRequest)
			return
		}
		c.offset.Add(int64(time.Duration(body.AdvanceSeconds) * time.Second))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"now": c.Now().UTC().Format(time.RFC3339)})
	})
	mux.Handle("/", next)
	return mux
}

// loopbackOnly refuses a listen address other people could reach.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return errors.New("--test-clock needs a loopback --addr (it lets any caller move the server's clock)")
	}
	return nil
}
