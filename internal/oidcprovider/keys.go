package oidcprovider

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"
)

// Key is a signing key of the provider: RS256 (RSA, at least 2048 bits)
// or ES256 (ECDSA P-256). Its id is the RFC 7638 thumbprint of the public
// key, the same on every instance that holds the key. A previous key
// (during a rotation) has no private part: it is only published.
type Key struct {
	id      string
	alg     jose.SignatureAlgorithm
	private crypto.Signer
	public  crypto.PublicKey
}

// ID is the key's kid.
func (k *Key) ID() string { return k.id }

// Algorithm is RS256 or ES256.
func (k *Key) Algorithm() jose.SignatureAlgorithm { return k.alg }

// SignatureAlgorithm is Algorithm (the library's op.SigningKey).
func (k *Key) SignatureAlgorithm() jose.SignatureAlgorithm { return k.alg }

// Signs reports whether the key has its private part (a previous key
// given as a public key only publishes).
func (k *Key) Signs() bool { return k.private != nil }

// Use is "sig" (op.Key).
func (k *Key) Use() string { return "sig" }

// Key returns the private key to sign with (op.SigningKey) when there is
// one, else the public key (op.Key, in the JWKS).
func (k *Key) Key() any {
	if k.private != nil {
		return k.private
	}
	return k.public
}

// publicKey is the key as the JWKS publishes it (op.Key).
type publicKey struct{ k *Key }

func (p publicKey) ID() string                         { return p.k.id }
func (p publicKey) Algorithm() jose.SignatureAlgorithm { return p.k.alg }
func (p publicKey) Use() string                        { return "sig" }
func (p publicKey) Key() any                           { return p.k.public }

// ParseKey reads a signing key from PEM: a PKCS #8, PKCS #1 (RSA) or SEC 1
// (EC) private key, or, for a previous key that only verifies, a public
// key (PKIX). RSA keys shorter than 2048 bits and curves other than P-256
// are refused.
func ParseKey(pemText []byte) (*Key, error) {
	block, _ := pem.Decode(pemText)
	if block == nil {
		return nil, errors.New("not a PEM key")
	}
	var parsed any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		parsed, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		parsed, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		parsed, err = x509.ParseECPrivateKey(block.Bytes)
	case "PUBLIC KEY":
		parsed, err = x509.ParsePKIXPublicKey(block.Bytes)
	default:
		return nil, fmt.Errorf("PEM block %q is not a key", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("parse key: %w", err)
	}
	k := &Key{}
	if s, ok := parsed.(crypto.Signer); ok {
		k.private = s
		k.public = s.Public()
	} else {
		k.public = parsed
	}
	switch pub := k.public.(type) {
	case *rsa.PublicKey:
		if pub.N.BitLen() < 2048 {
			return nil, fmt.Errorf("RSA key of %d bits: at least 2048 are needed", pub.N.BitLen())
		}
		k.alg = jose.RS256
	case *ecdsa.PublicKey:
		if pub.Curve != elliptic.P256() {
			return nil, errors.New("EC key not on P-256: ES256 needs P-256")
		}
		k.alg = jose.ES256
	default:
		return nil, fmt.Errorf("%T keys are not supported: use RSA (RS256) or EC P-256 (ES256)", k.public)
	}
	tp, err := (&jose.JSONWebKey{Key: k.public}).Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("key thumbprint: %w", err)
	}
	k.id = base64.RawURLEncoding.EncodeToString(tp)
	return k, nil
}

// GenerateKey makes an RS256 key (the demo's; RS256 is the algorithm every
// relying party supports by default) and returns it with its PEM.
func GenerateKey() (*Key, []byte, error) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, fmt.Errorf("generate key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, fmt.Errorf("encode key: %w", err)
	}
	pemText := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	k, err := ParseKey(pemText)
	return k, pemText, err
}
