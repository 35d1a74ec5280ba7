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

// PasswordCost is the work of one argon2id hash: passes, memory and lanes.
// A hash records its own cost, so a hash of any cost verifies.
type PasswordCost struct {
	Time      uint32
	MemoryKiB uint32
	Threads   uint8
}

// DefaultPasswordCost is OWASP's setting of 19 MiB, 2 passes, 1 lane: what
// every server and command uses. Only tests choose another (apitest), as
// most of their CPU was spent hashing the demo password.
var DefaultPasswordCost = PasswordCost{Time: 2, MemoryKiB: 19 * 1024, Threads: 1}

const (
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Hasher hashes passwords with argon2id. It bounds concurrent hashes to the
// core count so a burst of logins cannot exhaust memory.
type Hasher struct {
	cost  PasswordCost
	slots chan struct{}
}

// NewHasher returns a Hasher of the given cost allowing one hash per core at
// a time.
func NewHasher(cost PasswordCost) *Hasher {
	return &Hasher{cost: cost, slots: make(chan struct{}, runtime.NumCPU())}
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
	c := h.cost
	k := h.key(password, salt, c.Time, c.MemoryKiB, c.Threads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, c.MemoryKiB, c.Time, c.Threads, enc.EncodeToString(salt), enc.EncodeToString(k)), nil
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
