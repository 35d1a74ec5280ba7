package auth

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/GehirnInc/crypt/sha512_crypt"
	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/scrypt"
)

// Legacy password hashes: the formats a member's old identity system may
// hand over (the ones Ory Kratos and Google Identity Platform import). A
// member provisioned with one logs in with their old password; that first
// login verifies it and replaces it with the product's own argon2id hash
// (Service.Login), so the old hash is never used twice.
//
//   - bcrypt: $2a$, $2b$, $2y$ (golang.org/x/crypto/bcrypt)
//   - argon2id PHC: $argon2id$v=19$m=…,t=…,p=…$salt$key
//   - scrypt PHC: $scrypt$ln=…,r=…,p=…$salt$key (ln as log2 N, as passlib
//     writes it, or N itself, as Kratos writes it)
//   - PBKDF2-SHA256 PHC: $pbkdf2-sha256$i=…,l=…$salt$key (Kratos) or
//     $pbkdf2-sha256$rounds$salt$key (passlib, its "./" base64)
//   - SHA-512-crypt: $6$[rounds=…$]salt$hash (github.com/GehirnInc/crypt)

// ErrHashFormat is the answer of CheckImportedHash for a hash in no
// accepted format (or with a cost beyond the bounds below).
var ErrHashFormat = errors.New("auth: password hash format not accepted")

// Bounds of an imported hash's cost, so one imported hash cannot make a
// login take minutes or gigabytes.
const (
	maxArgonMemoryKiB = 256 * 1024
	maxArgonTime      = 16
	maxScryptN        = 1 << 20
	maxScryptRP       = 64
	maxPBKDF2Rounds   = 5_000_000
	maxSHA512Rounds   = 5_000_000
	maxKeyLen         = 128
)

// legacyHash is one parsed imported hash.
type legacyHash struct {
	verify func(password string) bool
}

// CheckImportedHash reports whether an imported hash is in an accepted
// format with a bounded cost (ErrHashFormat, wrapped with the reason,
// otherwise). Nothing else may be stored as an imported password hash.
func CheckImportedHash(encoded string) error {
	_, err := parseLegacy(nil, encoded)
	return err
}

// IsOwnHash reports whether encoded is the product's own argon2id hash at
// the hasher's cost (a hash needing no replacement at login).
func (h *Hasher) IsOwnHash(encoded string) bool {
	c := h.cost
	return strings.HasPrefix(encoded, fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$", argon2.Version, c.MemoryKiB, c.Time, c.Threads))
}

// VerifyAny checks password against the product's own hash or an imported
// one; every comparison is in constant time.
func (h *Hasher) VerifyAny(password, encoded string) bool {
	if h.IsOwnHash(encoded) {
		return h.Verify(password, encoded)
	}
	l, err := parseLegacy(h, encoded)
	if err != nil {
		return false
	}
	return l.verify(password)
}

func formatErr(reason string) error { return fmt.Errorf("%w: %s", ErrHashFormat, reason) }

// b64 decodes the base64 of PHC strings: standard or passlib's "./"
// alphabet, padded or not.
func b64(s string) ([]byte, error) {
	s = strings.TrimRight(strings.ReplaceAll(s, ".", "+"), "=")
	return base64.RawStdEncoding.DecodeString(s)
}

// phcParams reads "k=v,k=v" into integers.
func phcParams(s string) (map[string]int, error) {
	out := map[string]int{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, formatErr("parameters are not k=v")
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return nil, formatErr("parameter " + k + " is not a positive integer")
		}
		out[k] = n
	}
	return out, nil
}

func parseLegacy(h *Hasher, encoded string) (legacyHash, error) {
	if len(encoded) > 512 {
		return legacyHash{}, formatErr("too long")
	}
	switch {
	case strings.HasPrefix(encoded, "$2a$"), strings.HasPrefix(encoded, "$2b$"), strings.HasPrefix(encoded, "$2y$"):
		cost, err := bcrypt.Cost([]byte(encoded))
		if err != nil || len(encoded) != 60 {
			return legacyHash{}, formatErr("not a bcrypt hash")
		}
		if cost > 16 {
			return legacyHash{}, formatErr("bcrypt cost over 16")
		}
		return legacyHash{verify: func(pw string) bool {
			return bcrypt.CompareHashAndPassword([]byte(encoded), []byte(pw)) == nil
		}}, nil
	case strings.HasPrefix(encoded, "$6$"):
		c := sha512_crypt.New()
		rounds, err := c.Cost(encoded)
		parts := strings.Split(encoded, "$")
		if err != nil || len(parts) < 4 || len(parts[len(parts)-1]) != 86 {
			return legacyHash{}, formatErr("not a SHA-512-crypt hash")
		}
		if rounds > maxSHA512Rounds {
			return legacyHash{}, formatErr("SHA-512-crypt rounds over the bound")
		}
		// Generate is given the settings alone ("$6$[rounds=N$]salt"): with
		// the whole hash it would take up to 16 characters after "rounds=N$"
		// as the salt, the hash's own included.
		settings := encoded[:strings.LastIndex(encoded, "$")]
		return legacyHash{verify: func(pw string) bool {
			got, err := c.Generate([]byte(pw), []byte(settings))
			return err == nil && subtle.ConstantTimeCompare([]byte(got), []byte(encoded)) == 1
		}}, nil
	}
	parts := strings.Split(encoded, "$")
	if len(parts) < 5 || parts[0] != "" {
		return legacyHash{}, formatErr("not bcrypt, SHA-512-crypt or a PHC string of argon2id, scrypt or pbkdf2-sha256")
	}
	switch parts[1] {
	case "argon2id":
		if len(parts) != 6 || parts[2] != "v=19" {
			return legacyHash{}, formatErr("not an argon2id v=19 PHC string")
		}
		p, err := phcParams(parts[3])
		if err != nil {
			return legacyHash{}, err
		}
		m, t, lanes := p["m"], p["t"], p["p"]
		salt, err1 := b64(parts[4])
		key, err2 := b64(parts[5])
		if len(p) != 3 || m == 0 || t == 0 || lanes == 0 || lanes > 255 || err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 || len(key) > maxKeyLen {
			return legacyHash{}, formatErr("not an argon2id PHC string")
		}
		if m > maxArgonMemoryKiB || t > maxArgonTime {
			return legacyHash{}, formatErr("argon2id cost over the bound")
		}
		return legacyHash{verify: func(pw string) bool {
			var got []byte
			if h != nil {
				got = h.key(pw, salt, uint32(t), uint32(m), uint8(lanes), uint32(len(key))) // #nosec G115 -- bounded above
			} else {
				got = argon2.IDKey([]byte(pw), salt, uint32(t), uint32(m), uint8(lanes), uint32(len(key))) // #nosec G115 -- bounded above
			}
			return subtle.ConstantTimeCompare(got, key) == 1
		}}, nil
	case "scrypt":
		if len(parts) != 5 {
			return legacyHash{}, formatErr("not a scrypt PHC string")
		}
		p, err := phcParams(parts[2])
		if err != nil {
			return legacyHash{}, err
		}
		ln, r, par := p["ln"], p["r"], p["p"]
		salt, err1 := b64(parts[3])
		key, err2 := b64(parts[4])
		if len(p) != 3 || ln == 0 || r == 0 || par == 0 || err1 != nil || err2 != nil || len(salt) == 0 || len(key) < 16 || len(key) > maxKeyLen {
			return legacyHash{}, formatErr("not a scrypt PHC string")
		}
		n := ln
		if ln < 64 { // log2 N (passlib); Kratos writes N itself
			n = 1 << ln
		}
		if n&(n-1) != 0 || n < 2 {
			return legacyHash{}, formatErr("scrypt N is not a power of two")
		}
		if n > maxScryptN || r*par > maxScryptRP {
			return legacyHash{}, formatErr("scrypt cost over the bound")
		}
		return legacyHash{verify: func(pw string) bool {
			got, err := scrypt.Key([]byte(pw), salt, n, r, par, len(key))
			return err == nil && subtle.ConstantTimeCompare(got, key) == 1
		}}, nil
	case "pbkdf2-sha256":
		if len(parts) != 5 {
			return legacyHash{}, formatErr("not a pbkdf2-sha256 PHC string")
		}
		var rounds int
		if n, err := strconv.Atoi(parts[2]); err == nil { // passlib: the rounds alone
			rounds = n
		} else {
			p, err := phcParams(parts[2])
			if err != nil {
				return legacyHash{}, err
			}
			rounds = p["i"]
		}
		salt, err1 := b64(parts[3])
		key, err2 := b64(parts[4])
		if rounds <= 0 || err1 != nil || err2 != nil || len(salt) == 0 || len(key) < 16 || len(key) > maxKeyLen {
			return legacyHash{}, formatErr("not a pbkdf2-sha256 PHC string")
		}
		if rounds > maxPBKDF2Rounds {
			return legacyHash{}, formatErr("pbkdf2 rounds over the bound")
		}
		return legacyHash{verify: func(pw string) bool {
			got, err := pbkdf2.Key(sha256.New, pw, salt, rounds, len(key))
			return err == nil && subtle.ConstantTimeCompare(got, key) == 1
		}}, nil
	}
	return legacyHash{}, formatErr("not bcrypt, SHA-512-crypt or a PHC string of argon2id, scrypt or pbkdf2-sha256")
}
