// Package retry holds the wait between attempts that the background
// senders share (mail, pushes, logout tokens, the sandbox's webhooks).
package retry

import "time"

// Doubling is the wait after the given number of failed attempts
// (1-based): first, doubled after each further failure, never more than
// most.
func Doubling(first, most time.Duration, attempts int) time.Duration {
	d := first
	for i := 1; i < attempts && d < most; i++ {
		d *= 2
	}
	return min(d, most)
}
