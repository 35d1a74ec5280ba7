// Package ratelimit counts events in fixed time windows kept in the
// database, so every server instance sees the same counts.
package ratelimit

import (
	"context"
	"time"
)

// Counters is the storage the limiter needs.
type Counters interface {
	// Incr adds one to key in the window starting at windowStart (unix ms)
	// and returns the new count.
	Incr(ctx context.Context, key string, windowStart int64) (int, error)
	// Count returns the count of key in the window (0 when none).
	Count(ctx context.Context, key string, windowStart int64) (int, error)
	// Reset forgets every window of key.
	Reset(ctx context.Context, key string) error
}

// Window is a fixed-window limit: at most Limit events per Length.
type Window struct {
	Counters Counters
	Length   time.Duration
	Limit    int
	Now      func() time.Time
}

// Start returns the start of the current window in unix ms.
func (w Window) Start() int64 {
	ms := w.Length.Milliseconds()
	return w.Now().UnixMilli() / ms * ms
}

// Remaining returns how long until the current window ends.
func (w Window) Remaining() time.Duration {
	end := w.Start() + w.Length.Milliseconds()
	return time.Duration(end-w.Now().UnixMilli()) * time.Millisecond
}

// Allow counts one event for key and reports whether it is within the limit.
func (w Window) Allow(ctx context.Context, key string) (bool, error) {
	n, err := w.Counters.Incr(ctx, key, w.Start())
	if err != nil {
		return false, err
	}
	return n <= w.Limit, nil
}

// Exceeded reports whether key has already reached the limit, without counting.
func (w Window) Exceeded(ctx context.Context, key string) (bool, error) {
	n, err := w.Counters.Count(ctx, key, w.Start())
	if err != nil {
		return false, err
	}
	return n >= w.Limit, nil
}
