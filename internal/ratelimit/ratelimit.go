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
	// Reserve adds one to key in the window only while the count is below
	// limit, in one statement that counts and compares (so parallel callers
	// can never take more than limit between them), and reports whether it
	// did.
	Reserve(ctx context.Context, key string, windowStart int64, limit int) (bool, error)
	// Release gives back one reservation of key in the window.
	Release(ctx context.Context, key string, windowStart int64) error
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

// Reserve takes one attempt of key before the expensive or guessable check
// it guards, atomically: false when the window's limit is reached (and
// then nothing is counted).
func (w Window) Reserve(ctx context.Context, key string) (bool, error) {
	return w.Counters.Reserve(ctx, key, w.Start(), w.Limit)
}

// Release gives back a reservation taken in the current window (an attempt
// that turned out not to count, such as a successful login).
func (w Window) Release(ctx context.Context, key string) error {
	return w.Counters.Release(ctx, key, w.Start())
}

// Limit is one key and its window, for ReserveAll.
type Limit struct {
	Window Window
	Key    string
}

// ReserveAll reserves one attempt under every limit, in order, or none:
// when one is full the ones already taken are given back. It returns the
// first full limit's index, -1 when all were reserved.
func ReserveAll(ctx context.Context, limits ...Limit) (int, error) {
	for i, l := range limits {
		ok, err := l.Window.Reserve(ctx, l.Key)
		if err == nil && ok {
			continue
		}
		for _, taken := range limits[:i] {
			if rerr := taken.Window.Release(ctx, taken.Key); rerr != nil && err == nil {
				err = rerr
			}
		}
		return i, err
	}
	return -1, nil
}

// Exceeded reports whether key has already reached the limit, without counting.
func (w Window) Exceeded(ctx context.Context, key string) (bool, error) {
	n, err := w.Counters.Count(ctx, key, w.Start())
	if err != nil {
		return false, err
	}
	return n >= w.Limit, nil
}
