package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters: OWASP's setting of 19 MiB, 2 passes, 1 lane.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Hasher hashes passwords with argon2id. It bounds concurrent hashes to the
// core count so a burst of logins cannot exhaust memory.
type Hasher struct {
	slots chan struct{}
}

// NewHasher returns a Hasher allowing one hash per core at a time.
func NewHasher() *Hasher {
	return &Hasher{slots: make(chan struct{}, runtime.NumCPU())}
}

func (h *Hasher) key(password string, salt []byte, t, m uint32, p uint8, n uint32) []byte {
	h.slots <- struct{}{}
	defer func() { <-h.slots }()
	return argon2.IDKey([]byte(password), salt, t, m, p, n)
}

// Hash returns the PHC string form of an argon2id hash of password.
func (h *Hasher) Hash(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	k := h.key(password, salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, enc.EncodeToString(salt), enc.EncodeToString(k)), nil
}

// Verify reports whether password matches the PHC-encoded hash.
func (h *Hasher) Verify(password, encoded string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := h.key(password, salt, t, m, p, uint32(len(want))) // #nosec G115 -- len(want) is the stored hash length (32 bytes), far below 2^32
	return subtle.ConstantTimeCompare(got, want) == 1
}
