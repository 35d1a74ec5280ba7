package oidcprovider_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/oidcprovider"
	"members/internal/store"
)

func ecPEM(t *testing.T, curve elliptic.Curve) (private, public string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(k)
	pub, _ := x509.MarshalPKIXPublicKey(k.Public())
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
}

// A key rotation: the server signs with the new key (ES256 here) and still
// publishes the previous one, so an ID token signed before the rotation
// verifies against the new JWKS.
func TestSigningKeyRotation(t *testing.T) {
	oldKey, oldPublic := ecPEM(t, elliptic.P256())
	newKey, _ := ecPEM(t, elliptic.P256())
	before := apitest.New(t, store.SQLite, func(c *app.Config) { c.Demo = true; c.OIDC.SigningKey = oldKey })
	r := newRP(t, before)
	oldTok, _ := r.signIn(before.Member(t))
	oldRaw := oldTok.Extra("id_token").(string)

	after := apitest.New(t, store.SQLite, func(c *app.Config) { c.OIDC.SigningKey = newKey; c.OIDC.PreviousKeys = []string{oldPublic} })
	var jwks struct {
		Keys []map[string]any `json:"keys"`
	}
	getJSON(t, after.URL()+oidcprovider.KeysPath, &jwks)
	if len(jwks.Keys) != 2 {
		t.Fatalf("JWKS during the rotation: %d keys, want the new and the previous", len(jwks.Keys))
	}
	keys := oidc.NewRemoteKeySet(context.Background(), after.URL()+oidcprovider.KeysPath)
	if _, err := keys.VerifySignature(context.Background(), oldRaw); err != nil {
		t.Errorf("a token signed before the rotation: %v", err)
	}
	r2 := newRP(t, after)
	newTok, idt := r2.signIn(after.Member(t))
	_ = idt
	if kidOf(t, newTok.Extra("id_token").(string)) == kidOf(t, oldRaw) {
		t.Error("still signing with the previous key")
	}
	if alg := algOf(t, newTok.Extra("id_token").(string)); alg != "ES256" {
		t.Errorf("alg %s, want ES256 for an EC key", alg)
	}
}

func header(t *testing.T, jwt string) map[string]any {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.Split(jwt, ".")[0])
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	_ = json.Unmarshal(b, &h)
	return h
}

func kidOf(t *testing.T, jwt string) any { return header(t, jwt)["kid"] }
func algOf(t *testing.T, jwt string) any { return header(t, jwt)["alg"] }

// Only RSA of 2048 bits or more (RS256) and EC P-256 (ES256) are taken.
func TestParseKeyRefusesWeakOrOtherKeys(t *testing.T) {
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	der, _ := x509.MarshalPKCS8PrivateKey(small)
	p384, _ := ecPEM(t, elliptic.P384())
	good, public := ecPEM(t, elliptic.P256())
	for name, c := range map[string]struct {
		pem   string
		ok    bool
		signs bool
	}{
		"RSA 1024":      {string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), false, false},
		"P-384":         {p384, false, false},
		"not PEM":       {"hello", false, false},
		"a certificate": {"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", false, false},
		"P-256":         {good, true, true},
		"P-256 public":  {public, true, false},
	} {
		k, err := oidcprovider.ParseKey([]byte(c.pem))
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err == nil && k.Signs() != c.signs {
			t.Errorf("%s: signs %v", name, k.Signs())
		}
	}
}
