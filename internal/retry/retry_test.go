package retry

import (
	"testing"
	"time"
)

func TestDoubling(t *testing.T) {
	for _, tc := range []struct {
		attempts int
		want     time.Duration
	}{
		{0, time.Minute},
		{1, time.Minute},
		{2, 2 * time.Minute},
		{3, 4 * time.Minute},
		{4, 5 * time.Minute},
		{40, 5 * time.Minute},
	} {
		if got := Doubling(time.Minute, 5*time.Minute, tc.attempts); got != tc.want {
			t.Errorf("Doubling(1m, 5m, %d) = %v, want %v", tc.attempts, got, tc.want)
		}
	}
}
