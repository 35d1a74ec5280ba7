package ratelimit

import (
	"context"
	"sync"
	"testing"
	"time"
)

type memCounters struct {
	mu sync.Mutex
	m  map[string]int
}

func key(k string, w int64) string { return k + "@" + time.UnixMilli(w).UTC().Format(time.RFC3339Nano) }

func (c *memCounters) Incr(_ context.Context, k string, w int64) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key(k, w)]++
	return c.m[key(k, w)], nil
}

func (c *memCounters) Count(_ context.Context, k string, w int64) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key(k, w)], nil
}

func (c *memCounters) Reset(context.Context, string) error { return nil }

func (c *memCounters) Reserve(_ context.Context, k string, w int64, limit int) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[key(k, w)] >= limit {
		return false, nil
	}
	c.m[key(k, w)]++
	return true, nil
}

func (c *memCounters) Release(_ context.Context, k string, w int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[key(k, w)] > 0 {
		c.m[key(k, w)]--
	}
	return nil
}

func TestWindow(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 10, 0, 20, 0, time.UTC)
	w := Window{Counters: &memCounters{m: map[string]int{}}, Length: time.Minute, Limit: 3, Now: func() time.Time { return now }}
	ctx := context.Background()

	if got, want := w.Start(), time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC).UnixMilli(); got != want {
		t.Errorf("Start = %d, want %d", got, want)
	}
	if got := w.Remaining(); got != 40*time.Second {
		t.Errorf("Remaining = %v, want 40s", got)
	}
	for i := 1; i <= 5; i++ {
		over, _ := w.Exceeded(ctx, "a")
		ok, err := w.Allow(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if ok != (i <= 3) || over != (i > 3) {
			t.Errorf("event %d: Allow %v, Exceeded before %v", i, ok, over)
		}
	}
	if over, _ := w.Exceeded(ctx, "b"); over {
		t.Error("another key is limited")
	}
	// The next window starts fresh.
	now = now.Add(40 * time.Second)
	if ok, _ := w.Allow(ctx, "a"); !ok {
		t.Error("next window still limited")
	}
	if got := w.Remaining(); got != time.Minute {
		t.Errorf("Remaining at a window start = %v", got)
	}
}

func TestReserveAllTakesAllOrNone(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 10, 0, 20, 0, time.UTC)
	c := &memCounters{m: map[string]int{}}
	w := func(limit int) Window {
		return Window{Counters: c, Length: time.Minute, Limit: limit, Now: func() time.Time { return now }}
	}
	ctx := context.Background()
	a, b := Limit{Window: w(5), Key: "a"}, Limit{Window: w(2), Key: "b"}
	for i := 0; i < 2; i++ {
		if full, err := ReserveAll(ctx, a, b); err != nil || full != -1 {
			t.Fatalf("reservation %d: full %d, %v", i, full, err)
		}
	}
	if full, _ := ReserveAll(ctx, a, b); full != 1 {
		t.Fatalf("third: full = %d, want 1", full)
	}
	if n, _ := c.Count(ctx, "a", a.Window.Start()); n != 2 {
		t.Errorf("a = %d after a refused reservation, want 2 (given back)", n)
	}
}
