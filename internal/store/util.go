package store

import (
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"time"
)

// NewID returns a random 128-bit id as 32 hex characters.
func NewID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

// NewSortableID is NewID with the time first: 12 hexadecimal digits of
// the Unix milliseconds, then 80 random bits, the same length and
// alphabet. Rows keyed by such ids are written at the end of their
// indexes rather than all over them (the bookings a batch of the import
// adds), and stay as hard to guess.
func NewSortableID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b[6:])
	ms := uint64(time.Now().UnixMilli()) // #nosec G115 -- after 1970
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	return hex.EncodeToString(b)
}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embedded folder is fixed at build time
	}
	return s
}
