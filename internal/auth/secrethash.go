package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// MinSecretKeyLen is the shortest key a SecretHasher takes (256 bits).
const MinSecretKeyLen = 32

// SecretHasher stores secrets the server generates itself and shows once
// (a voucher's PIN, an exchange code's password) under a keyed
// HMAC-SHA256: "$hmac-sha256$k=<key id>$<salt>$<mac>", the mac taken over
// the salt and the secret. Such a secret is random, so nothing is gained by
// a slow hash against a guesser who has the stored hashes and the key; what
// protects it when the database leaks is the key, which lives outside the
// database (--pin-key). Hashing costs microseconds instead of argon2id's
// tens of milliseconds of CPU (docs/security.md, "Server-generated secrets").
//
// The first key hashes; every key verifies (a key id in the hash picks
// it), so a new key can be put first while hashes made under the old one
// still verify. Hashes made before (argon2id PHC strings) are verified by
// the password hasher.
type SecretHasher struct {
	keys []secretKey
	slow *Hasher
}

type secretKey struct {
	id  string
	key []byte
}

// KeyID names a key in the hashes it makes: the first 8 hex digits of its
// SHA-256 (not secret: it only picks the key at verification).
func KeyID(key []byte) string {
	s := sha256.Sum256(key)
	return hex.EncodeToString(s[:4])
}

// NewSecretHasher returns a hasher that hashes with keys[0], verifies with
// any of keys, and verifies argon2id hashes with slow.
func NewSecretHasher(slow *Hasher, keys ...[]byte) (*SecretHasher, error) {
	if len(keys) == 0 {
		return nil, errors.New("secret hasher: no key")
	}
	h := &SecretHasher{slow: slow}
	for _, k := range keys {
		if len(k) < MinSecretKeyLen {
			return nil, fmt.Errorf("secret hasher: key of %d bytes, need at least %d", len(k), MinSecretKeyLen)
		}
		h.keys = append(h.keys, secretKey{id: KeyID(k), key: k})
	}
	return h, nil
}

// secretPrefix starts a keyed hash (a format marker, not a credential).
const secretPrefix = "$hmac-sha256$k=" // #nosec G101 -- the hash format's prefix, no secret

func mac(key, salt []byte, secret string) []byte {
	m := hmac.New(sha256.New, key)
	_, _ = m.Write(salt)
	_, _ = m.Write([]byte(secret))
	return m.Sum(nil)
}

// Hash returns the keyed hash of secret under the first key.
func (h *SecretHasher) Hash(secret string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash secret: %w", err)
	}
	k := h.keys[0]
	enc := base64.RawStdEncoding
	return secretPrefix + k.id + "$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(mac(k.key, salt, secret)), nil
}

// Verify reports whether secret matches encoded: a keyed hash under one of
// the hasher's keys, or an argon2id hash of before.
func (h *SecretHasher) Verify(secret, encoded string) bool {
	if strings.HasPrefix(encoded, "$argon2id$") {
		return h.slow != nil && h.slow.Verify(secret, encoded)
	}
	rest, ok := strings.CutPrefix(encoded, secretPrefix)
	if !ok {
		return false
	}
	parts := strings.Split(rest, "$")
	if len(parts) != 3 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[1])
	want, err2 := enc.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(want) != sha256.Size {
		return false
	}
	for _, k := range h.keys {
		if k.id == parts[0] {
			return hmac.Equal(mac(k.key, salt, secret), want)
		}
	}
	return false
}
