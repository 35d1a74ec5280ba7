package store

import (
	"crypto/rand"
	"encoding/hex"
	"io/fs"
)

// NewID returns a random 128-bit id as 32 hex characters.
func NewID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embedded folder is fixed at build time
	}
	return s
}
