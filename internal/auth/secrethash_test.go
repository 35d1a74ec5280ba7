package auth

import (
	"bytes"
	"strings"
	"testing"
)

func TestSecretHasher(t *testing.T) {
	t.Parallel()
	oldKey, newKey, otherKey := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{3}, 32)
	slow := NewHasher(DefaultPasswordCost)
	legacy, err := slow.Hash("24681357")
	if err != nil {
		t.Fatal(err)
	}
	before, err := NewSecretHasher(slow, oldKey)
	if err != nil {
		t.Fatal(err)
	}
	underOld, err := before.Hash("24681357")
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewSecretHasher(slow, newKey, oldKey) // the new key first, the old one still verifies
	if err != nil {
		t.Fatal(err)
	}
	a, err := h.Hash("24681357")
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Hash("24681357")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, "$hmac-sha256$k="+KeyID(newKey)+"$") {
		t.Errorf("hash %q is not under the first key", a)
	}
	if a == b {
		t.Error("two hashes of one secret are equal (salt not random)")
	}
	other, err := NewSecretHasher(slow, otherKey)
	if err != nil {
		t.Fatal(err)
	}
	mac := a[strings.LastIndexByte(a, '$')+1:]
	tests := []struct {
		name, secret, hash string
		h                  *SecretHasher
		ok                 bool
	}{
		{"right", "24681357", a, h, true},
		{"right, other salt", "24681357", b, h, true},
		{"made under the old key", "24681357", underOld, h, true},
		{"argon2id of before", "24681357", legacy, h, true},
		{"argon2id, wrong secret", "24681358", legacy, h, false},
		{"wrong secret", "24681358", a, h, false},
		{"prefix of the secret", "2468135", a, h, false},
		{"empty secret", "", a, h, false},
		{"another server's key", "24681357", a, other, false},
		{"key id swapped", "24681357", strings.Replace(a, KeyID(newKey), KeyID(oldKey), 1), h, false},
		{"unknown key id", "24681357", strings.Replace(a, KeyID(newKey), "00000000", 1), h, false},
		{"truncated mac", "24681357", strings.TrimSuffix(a, mac) + mac[:20], h, false},
		{"salt changed", "24681357", strings.Replace(a, "="+KeyID(newKey)+"$", "="+KeyID(newKey)+"$AAAA", 1), h, false},
		{"garbage", "24681357", "not-a-hash", h, false},
		{"empty hash", "24681357", "", h, false},
		{"too few parts", "24681357", "$hmac-sha256$k=" + KeyID(newKey) + "$" + mac, h, false},
	}
	for _, tt := range tests {
		if got := tt.h.Verify(tt.secret, tt.hash); got != tt.ok {
			t.Errorf("%s: Verify = %v, want %v", tt.name, got, tt.ok)
		}
	}
}

func TestSecretHasherKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		keys [][]byte
		ok   bool
	}{
		{"none", nil, false},
		{"short", [][]byte{make([]byte, 31)}, false},
		{"one short of two", [][]byte{make([]byte, 32), make([]byte, 16)}, false},
		{"256 bits", [][]byte{make([]byte, 32)}, true},
		{"two", [][]byte{make([]byte, 32), make([]byte, 64)}, true},
	}
	for _, tt := range tests {
		if _, err := NewSecretHasher(nil, tt.keys...); (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
