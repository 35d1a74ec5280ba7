package auth

import (
	"strings"
	"sync"
	"testing"
)

func TestHasher(t *testing.T) {
	t.Parallel()
	h := NewHasher(DefaultPasswordCost)
	a, err := h.Hash("Demo1234")
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Hash("Demo1234")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("PHC string %q lacks the OWASP parameters", a)
	}
	if a == b {
		t.Error("two hashes of one password are equal (salt not random)")
	}
	tests := []struct {
		name, password, hash string
		ok                   bool
	}{
		{"right", "Demo1234", a, true},
		{"right, other salt", "Demo1234", b, true},
		{"wrong", "Demo1235", a, false},
		{"case", "demo1234", a, false},
		{"empty", "", a, false},
		{"prefix", "Demo123", a, false},
		{"garbage hash", "Demo1234", "not-a-hash", false},
		{"bcrypt hash", "Demo1234", "$2a$10$abcdefghijklmnopqrstuu", false},
		{"wrong algorithm", "Demo1234", strings.Replace(a, "argon2id", "argon2i", 1), false},
		{"bad params", "Demo1234", strings.Replace(a, "m=19456", "m=x", 1), false},
		{"bad salt", "Demo1234", strings.Replace(a, "$m=19456,t=2,p=1$", "$m=19456,t=2,p=1$!!", 1), false},
		{"empty key", "Demo1234", a[:strings.LastIndexByte(a, '$')+1], false},
	}
	for _, tt := range tests {
		if got := h.Verify(tt.password, tt.hash); got != tt.ok {
			t.Errorf("%s: Verify = %v, want %v", tt.name, got, tt.ok)
		}
	}
}

// TestHasherBoundsConcurrency: more goroutines than slots all finish.
func TestHasherBoundsConcurrency(t *testing.T) {
	t.Parallel()
	h := &Hasher{cost: DefaultPasswordCost, slots: make(chan struct{}, 1)}
	enc, err := h.Hash("pw123456")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !h.Verify("pw123456", enc) {
				t.Error("verify failed")
			}
		}()
	}
	wg.Wait()
	if len(h.slots) != 0 {
		t.Errorf("slots not released: %d", len(h.slots))
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	a, err := RandomToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomToken()
	if a == b || len(a) < 43 { // 256 bits
		t.Errorf("tokens %q %q", a, b)
	}
	if HashToken(a) == a || len(HashToken(a)) != 64 || HashToken(a) != HashToken(a) {
		t.Errorf("HashToken(%q) = %q", a, HashToken(a))
	}
}

// TestHasherCostIsRecorded: a hash carries its own cost, so a hasher of
// another cost verifies it (the tests' cheap hashes, an older cost).
func TestHasherCostIsRecorded(t *testing.T) {
	t.Parallel()
	cheap := NewHasher(PasswordCost{Time: 1, MemoryKiB: 8, Threads: 1})
	real := NewHasher(DefaultPasswordCost)
	c, err := cheap.Hash("Demo1234")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c, "$argon2id$v=19$m=8,t=1,p=1$") {
		t.Errorf("PHC string %q does not record the cheap cost", c)
	}
	r, err := real.Hash("Demo1234")
	if err != nil {
		t.Fatal(err)
	}
	if !real.Verify("Demo1234", c) || !cheap.Verify("Demo1234", r) {
		t.Error("a hash of one cost does not verify with a hasher of another")
	}
	if real.Verify("Demo1235", c) || cheap.Verify("Demo1235", r) {
		t.Error("a wrong password verified across costs")
	}
}
