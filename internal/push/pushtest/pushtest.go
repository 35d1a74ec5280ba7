// Package pushtest is a stand-in push service for tests: an HTTP server on
// loopback that takes pushes as a browser's push service does (RFC 8030),
// checks what a push service checks (the VAPID JWT of RFC 8292: its
// signature, audience, expiry and subject; the TTL and Urgency headers;
// aes128gcm), and decrypts each push with the device's private key (RFC
// 8291), written here from the RFCs, not with the sender's library.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Device is a browser's side of a subscription: its key pair and secret.
type Device struct {
	ID       string
	Endpoint string
	private  *ecdh.PrivateKey
	auth     []byte
}

// P256dh is the device's public key as the browser gives it (base64url).
func (d *Device) P256dh() string {
	return base64.RawURLEncoding.EncodeToString(d.private.PublicKey().Bytes())
}

// Auth is the device's authentication secret (base64url).
func (d *Device) Auth() string { return base64.RawURLEncoding.EncodeToString(d.auth) }

// PrivateKey is the device's private key (base64url of the scalar), for a
// decryption outside Go.
func (d *Device) PrivateKey() string { return base64.RawURLEncoding.EncodeToString(d.private.Bytes()) }

// Subscription is the PushSubscription JSON the page sends.
func (d *Device) Subscription() map[string]any {
	return map[string]any{"endpoint": d.Endpoint, "expirationTime": nil, "keys": map[string]string{"p256dh": d.P256dh(), "auth": d.Auth()}}
}

// Push is one push the service took, checked and decrypted.
type Push struct {
	Device  string
	TTL     int
	Urgency string
	Topic   string
	// Claims of the VAPID JWT; Key the server's public key it named.
	Claims map[string]any
	Key    string
	// Body is the encrypted body as sent, Plain the decrypted payload.
	Body  []byte
	Plain []byte
	At    time.Time
}

// Message decodes the payload.
func (p Push) Message(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(p.Plain, &m); err != nil {
		t.Fatalf("push payload %q: %v", p.Plain, err)
	}
	return m
}

// Service is the stand-in push service.
type Service struct {
	URL string // base URL, http://127.0.0.1:PORT/push/

	mu       sync.Mutex
	devices  map[string]*Device
	answers  map[string]int
	pushes   []Push
	refusals []string
	arrived  chan struct{}
	srv      *http.Server
}

// Start runs the service on a loopback port until the test ends; addr
// "" takes a free port.
func Start(t testing.TB, addr string) *Service {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{URL: "http://" + ln.Addr().String() + "/push/", devices: map[string]*Device{}, answers: map[string]int{},
		arrived: make(chan struct{}, 1000)}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(func() { _ = s.srv.Close() })
	return s
}

// NewDevice makes a device with a fresh key pair and secret, whose
// endpoint is on this service.
func (s *Service) NewDevice(t testing.TB) *Device {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	idb := make([]byte, 12)
	_, _ = rand.Read(idb)
	id := base64.RawURLEncoding.EncodeToString(idb)
	d := &Device{ID: id, Endpoint: s.URL + id, private: k, auth: auth}
	s.mu.Lock()
	s.devices[id] = d
	s.mu.Unlock()
	return d
}

// Answer makes the service answer pushes to the device with status
// (410: the device unsubscribed; 500: the service fails).
func (s *Service) Answer(d *Device, status int) {
	s.mu.Lock()
	s.answers[d.ID] = status
	s.mu.Unlock()
}

// Pushes returns what the service took so far (a push it refused as
// malformed is not among them: Refusals says why).
func (s *Service) Pushes() []Push {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Push(nil), s.pushes...)
}

// Refusals are the reasons of the pushes refused with 400 or 401.
func (s *Service) Refusals() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refusals...)
}

// Wait waits until the service took n pushes in all, or fails the test
// after within.
func (s *Service) Wait(t testing.TB, n int, within time.Duration) []Push {
	t.Helper()
	deadline := time.After(within)
	for {
		if p := s.Pushes(); len(p) >= n {
			return p
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("%d pushes after %s, want %d (refused: %v)", len(s.Pushes()), within, n, s.Refusals())
		}
	}
}

func (s *Service) refuse(w http.ResponseWriter, status int, format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.refusals = append(s.refusals, reason)
	s.mu.Unlock()
	http.Error(w, reason, status)
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/push/")
	s.mu.Lock()
	d := s.devices[id]
	answer := s.answers[id]
	s.mu.Unlock()
	if !ok || r.Method != http.MethodPost || d == nil {
		http.NotFound(w, r)
		return
	}
	if answer != 0 && answer != http.StatusCreated {
		// the answer of a gone or failing service, before any check
		w.WriteHeader(answer)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8192))
	if err != nil {
		s.refuse(w, http.StatusBadRequest, "read: %v", err)
		return
	}
	p := Push{Device: id, Topic: r.Header.Get("Topic"), Urgency: r.Header.Get("Urgency"), Body: body, At: time.Now()}
	if p.TTL, err = strconv.Atoi(r.Header.Get("TTL")); err != nil || p.TTL < 0 {
		s.refuse(w, http.StatusBadRequest, "TTL header %q", r.Header.Get("TTL"))
		return
	}
	switch p.Urgency {
	case "very-low", "low", "normal", "high":
	default:
		s.refuse(w, http.StatusBadRequest, "Urgency header %q", p.Urgency)
		return
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		s.refuse(w, http.StatusBadRequest, "Content-Encoding %q", ce)
		return
	}
	if p.Claims, p.Key, err = checkVAPID(r.Header.Get("Authorization"), d.Endpoint, time.Now()); err != nil {
		s.refuse(w, http.StatusUnauthorized, "VAPID: %v", err)
		return
	}
	if p.Plain, err = Decrypt(body, d.private, d.auth); err != nil {
		s.refuse(w, http.StatusBadRequest, "decrypt: %v", err)
		return
	}
	s.mu.Lock()
	s.pushes = append(s.pushes, p)
	s.mu.Unlock()
	s.arrived <- struct{}{}
	w.Header().Set("Location", "/message/"+strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusCreated)
}

// checkVAPID verifies the Authorization header of RFC 8292 ("vapid
// t=<JWT>, k=<public key>"): an ES256 signature by k, aud the
// endpoint's origin, exp in the future and no more than 24 hours away,
// sub a mailto: or https: address.
func checkVAPID(header, endpoint string, now time.Time) (map[string]any, string, error) {
	rest, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		return nil, "", fmt.Errorf("scheme of %q", header)
	}
	params := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		params[k] = v
	}
	token, key := params["t"], params["k"]
	pub, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return nil, "", fmt.Errorf("k: %v", err)
	}
	pk, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pub)
	if err != nil {
		return nil, "", fmt.Errorf("k: %v", err)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, "", errors.New("t is not a JWT")
	}
	var head struct{ Alg, Typ string }
	if err := decodeJSON(parts[0], &head); err != nil || head.Alg != "ES256" {
		return nil, "", fmt.Errorf("JWT header %+v %v", head, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return nil, "", errors.New("JWT signature is not 64 bytes")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pk, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return nil, "", errors.New("JWT signature does not verify with k")
	}
	var claims map[string]any
	if err := decodeJSON(parts[1], &claims); err != nil {
		return nil, "", fmt.Errorf("JWT claims: %v", err)
	}
	i := strings.Index(endpoint, "/push/")
	if aud, _ := claims["aud"].(string); aud != endpoint[:i] {
		return nil, "", fmt.Errorf("aud %q, want %q", claims["aud"], endpoint[:i])
	}
	exp, _ := claims["exp"].(float64)
	if at := time.Unix(int64(exp), 0); !at.After(now) || at.After(now.Add(24*time.Hour)) {
		return nil, "", fmt.Errorf("exp %v is not within the next 24 hours", at)
	}
	if sub, _ := claims["sub"].(string); !strings.HasPrefix(sub, "mailto:") && !strings.HasPrefix(sub, "https://") {
		return nil, "", fmt.Errorf("sub %q", claims["sub"])
	}
	return claims, key, nil
}

func decodeJSON(part string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Decrypt reads an aes128gcm body (RFC 8188) encrypted for Web Push (RFC
// 8291) to the device's private key and secret: the header (salt, record
// size, the sender's one-time public key), the key and nonce derived from
// the ECDH secret, then one record, its padding removed.
func Decrypt(body []byte, private *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d bytes, want the sender's 65-byte public key", idlen)
	}
	senderPub := body[21 : 21+idlen]
	records := body[21+idlen:]
	if uint32(len(records)) > rs {
		return nil, fmt.Errorf("%d bytes of records, more than one record of %d", len(records), rs)
	}
	sender, err := ecdh.P256().NewPublicKey(senderPub)
	if err != nil {
		return nil, fmt.Errorf("sender key: %v", err)
	}
	secret, err := private.ECDH(sender)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), private.PublicKey().Bytes()...), senderPub...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, records, nil)
	if err != nil {
		return nil, fmt.Errorf("record: %v", err)
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("the last record's delimiter (2) is missing")
	}
	return plain[:len(plain)-1], nil
}
