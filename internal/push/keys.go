package push

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Keys are the server's VAPID key pair (RFC 8292): the private key signs
// the JWT each push carries, the public key is what browsers subscribe
// with (applicationServerKey), so a push service takes pushes for a
// subscription only from this server.
type Keys struct {
	// Private is the P-256 private scalar, base64url without padding (32
	// bytes), as web-push's `generate-vapid-keys` and `members push
	// vapid-keys` print it; Public the uncompressed public point (65
	// bytes) the same way.
	Private, Public string
	// Subject is the JWT's sub: a mailto: or https: address of the
	// operator, which push services contact about this server.
	Subject string
}

// ParseKeys reads a private key as Keys.Private has it (padded base64url
// and standard base64 are taken too) and derives the public key.
func ParseKeys(private, subject string) (*Keys, error) {
	b, err := decodeKey(private)
	if err != nil || len(b) != 32 {
		return nil, errors.New("the VAPID private key is not base64url of 32 bytes")
	}
	k, err := ecdh.P256().NewPrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("the VAPID private key is not a P-256 key: %w", err)
	}
	subject = strings.TrimSpace(subject)
	if !strings.HasPrefix(subject, "mailto:") && !strings.HasPrefix(subject, "https://") {
		return nil, fmt.Errorf("the VAPID subject %q is not a mailto: or https: address", subject)
	}
	return &Keys{Private: base64.RawURLEncoding.EncodeToString(b), Public: base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()),
		Subject: subject}, nil
}

// NewPrivateKey makes a VAPID private key (base64url), for `members push
// vapid-keys` and a demo server's own key.
func NewPrivateKey() (string, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return "", fmt.Errorf("vapid key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(k.Bytes()), nil
}
