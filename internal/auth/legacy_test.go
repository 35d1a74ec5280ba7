package auth

import (
	"errors"
	"strings"
	"testing"
)

// Hashes of "old-Passw0rd" made by programs outside the project:
//
//	bcrypt:        htpasswd -nbB -C 5 u 'old-Passw0rd'
//	argon2id:      echo -n 'old-Passw0rd' | argon2 somesaltsalt -id -t 2 -m 12 -p 1 -e
//	SHA-512-crypt: openssl passwd -6 -salt saltsalt 'old-Passw0rd'
//	               openssl passwd -6 -salt 'rounds=10000$saltsalt' 'old-Passw0rd'
//	scrypt, pbkdf2-sha256: python3 hashlib.scrypt(pw, salt=b'scryptsalt123456',
//	  n=16384, r=8, p=1, dklen=32) and hashlib.pbkdf2_hmac('sha256', pw,
//	  b'pbkdf2salt123456', 29000, 32), written as passlib (log2 N, "./"
//	  base64 unpadded) and as Kratos (N, "i=,l=", padded base64) write them.
var legacyVectors = []struct{ name, hash string }{
	{"bcrypt 2y", "$2y$05$Z7kEPTyfMHzwnGMaDfMGD.zWnsviBn3awTut/b04.3hs6Dn4m9QdK"},
	// The same hash under the other prefixes of the same algorithm.
	{"bcrypt 2b", "$2b$05$Z7kEPTyfMHzwnGMaDfMGD.zWnsviBn3awTut/b04.3hs6Dn4m9QdK"},
	{"bcrypt 2a", "$2a$05$Z7kEPTyfMHzwnGMaDfMGD.zWnsviBn3awTut/b04.3hs6Dn4m9QdK"},
	{"argon2id", "$argon2id$v=19$m=4096,t=2,p=1$c29tZXNhbHRzYWx0$a5R6Jv9UAOZ3GrpdeqvlE++CeGTbW+ucZySLD1P1K0Q"},
	{"sha512-crypt", "$6$saltsalt$EDSH6fmRZYYa9D2.jC8HoFnIXkXuppYachEPtAsECSQxlDiuE.vj57xNKjGrP83fBirdYuPK5dosd/cL.meoT."},
	{"sha512-crypt rounds", "$6$rounds=10000$saltsalt$CKlrGM7Y6OjVOZBle942/Yd9HLgjcxQuZFpEvs1LFCrufrA.eYV86MQbw22eBSd5mSEypirAAkWbm7RkNugdx/"},
	{"scrypt passlib", "$scrypt$ln=14,r=8,p=1$c2NyeXB0c2FsdDEyMzQ1Ng$gZHkWy1j8SGxyLAhaeNpvGO+sTrvyKw6/WUYPtzg9lQ"},
	{"scrypt kratos", "$scrypt$ln=16384,r=8,p=1$c2NyeXB0c2FsdDEyMzQ1Ng==$gZHkWy1j8SGxyLAhaeNpvGO+sTrvyKw6/WUYPtzg9lQ="},
	{"pbkdf2 passlib", "$pbkdf2-sha256$29000$cGJrZGYyc2FsdDEyMzQ1Ng$vcpD7IOgORIjOTrgzzgjVqKIEZET3rzroPQo44oS69Q"},
	{"pbkdf2 kratos", "$pbkdf2-sha256$i=29000,l=32$cGJrZGYyc2FsdDEyMzQ1Ng$vcpD7IOgORIjOTrgzzgjVqKIEZET3rzroPQo44oS69Q"},
}

func TestLegacyHashesVerify(t *testing.T) {
	h := NewHasher(PasswordCost{Time: 1, MemoryKiB: 8, Threads: 1})
	for _, v := range legacyVectors {
		t.Run(v.name, func(t *testing.T) {
			if err := CheckImportedHash(v.hash); err != nil {
				t.Fatalf("refused: %v", err)
			}
			if h.IsOwnHash(v.hash) {
				t.Fatal("taken for the product's own hash: it would never be replaced")
			}
			if !h.VerifyAny("old-Passw0rd", v.hash) {
				t.Fatal("the old password does not verify")
			}
			for _, wrong := range []string{"old-Passw0rd ", "old-passw0rd", "", "old-Passw0r"} {
				if h.VerifyAny(wrong, v.hash) {
					t.Fatalf("%q verifies", wrong)
				}
			}
		})
	}
}

func TestImportedHashRefused(t *testing.T) {
	for name, hash := range map[string]string{
		"empty":              "",
		"plain text":         "old-Passw0rd",
		"md5-crypt":          "$1$saltsalt$qjXMvbEw8oaL.CzflDugX/",
		"sha256-crypt":       "$5$saltsalt$Gcm6FsVtF/Qa77ZKD.iwsJlCVPY0XSMgLJL0Hnww/c1",
		"argon2i":            "$argon2i$v=19$m=4096,t=2,p=1$c29tZXNhbHRzYWx0$a5R6Jv9UAOZ3GrpdeqvlE++CeGTbW+ucZySLD1P1K0Q",
		"argon2id v=16":      "$argon2id$v=16$m=4096,t=2,p=1$c29tZXNhbHRzYWx0$a5R6Jv9UAOZ3GrpdeqvlE++CeGTbW+ucZySLD1P1K0Q",
		"argon2id huge m":    "$argon2id$v=19$m=4194304,t=2,p=1$c29tZXNhbHRzYWx0$a5R6Jv9UAOZ3GrpdeqvlE++CeGTbW+ucZySLD1P1K0Q",
		"pbkdf2-sha1":        "$pbkdf2$29000$cGJrZGYyc2FsdDEyMzQ1Ng$vcpD7IOgORIjOTrgzzgjVqKIEZET3rzroPQo44oS69Q",
		"pbkdf2 too slow":    "$pbkdf2-sha256$999999999$cGJrZGYyc2FsdDEyMzQ1Ng$vcpD7IOgORIjOTrgzzgjVqKIEZET3rzroPQo44oS69Q",
		"scrypt N not 2^k":   "$scrypt$ln=1000,r=8,p=1$c2NyeXB0c2FsdDEyMzQ1Ng$gZHkWy1j8SGxyLAhaeNpvGO+sTrvyKw6/WUYPtzg9lQ",
		"scrypt huge N":      "$scrypt$ln=30,r=8,p=1$c2NyeXB0c2FsdDEyMzQ1Ng$gZHkWy1j8SGxyLAhaeNpvGO+sTrvyKw6/WUYPtzg9lQ",
		"bcrypt truncated":   "$2y$05$Z7kEPTyfMHzwnGMaDfMGD.zWnsviBn3awTut",
		"bcrypt cost 31":     "$2y$31$Z7kEPTyfMHzwnGMaDfMGD.zWnsviBn3awTut/b04.3hs6Dn4m9QdK",
		"sha512 truncated":   "$6$saltsalt$EDSH6fmRZYYa9D2",
		"sha512 huge rounds": "$6$rounds=999999999$saltsalt$CKlrGM7Y6OjVOZBle942/Yd9HLgjcxQuZFpEvs1LFCrufrA.eYV86MQbw22eBSd5mSEypirAAkWbm7RkNugdx/",
		"too long":           "$argon2id$" + strings.Repeat("a", 600),
	} {
		if err := CheckImportedHash(hash); !errors.Is(err, ErrHashFormat) {
			t.Errorf("%s: %v, want ErrHashFormat", name, err)
		}
		if NewHasher(PasswordCost{Time: 1, MemoryKiB: 8, Threads: 1}).VerifyAny("old-Passw0rd", hash) {
			t.Errorf("%s verifies", name)
		}
	}
}

// TestOwnHashIsNotLegacy: the product's own hash at the hasher's cost
// needs no replacement; one of another cost does.
func TestOwnHashIsNotLegacy(t *testing.T) {
	h := NewHasher(PasswordCost{Time: 1, MemoryKiB: 8, Threads: 1})
	own, err := h.Hash("pw-123456")
	if err != nil {
		t.Fatal(err)
	}
	if !h.IsOwnHash(own) || !h.VerifyAny("pw-123456", own) {
		t.Fatalf("own hash %q", own)
	}
	other := NewHasher(PasswordCost{Time: 2, MemoryKiB: 16, Threads: 1})
	if other.IsOwnHash(own) || !other.VerifyAny("pw-123456", own) {
		t.Fatal("a hash of another cost: verified and replaced")
	}
}
