// Package push is Web Push (RFC 8030, messages encrypted by RFC 8291,
// the server identified by VAPID, RFC 8292): the devices on which a
// member switched on the alerts of their flights' changes, and the sender
// that delivers the pushes owed to them. A flight change queues one push
// per device in the transaction that applies it (internal/store, beside
// the flight change mail), and the sender, a background job beside the
// mail outbox's, delivers each once, with retries and backoff; a device
// whose push service answers 404 or 410 is forgotten.
//
// It imports neither SQL nor the HTTP API: the store is an interface, and
// the one outside dependency, the push protocol itself, is the Transport
// (webpush.go, github.com/SherClockHolmes/webpush-go).
package push

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/validate"
)

// MaxDevices is how many devices of one member receive the alerts: a new
// one beyond it replaces the one renewed longest ago.
const MaxDevices = 20

// maxEndpoint caps an endpoint's length (the browsers' are a few hundred
// characters).
const maxEndpoint = 2048

// Subscription is one device's subscription: the browser's push service
// endpoint and the keys its messages are encrypted to.
type Subscription struct {
	ID       string
	MemberID string
	Endpoint string
	// P256dh is the device's public key (uncompressed P-256 point) and
	// Auth its 16-byte authentication secret, both base64url as the
	// browser gives them.
	P256dh, Auth string
	// SessionHash is the session that made or last renewed it; UserAgent
	// names the device in the security centre.
	SessionHash string
	UserAgent   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	LastPushAt  time.Time // zero until the first push
}

// Errors of the store.
var (
	// ErrNotFound: no such subscription of the member.
	ErrNotFound = errors.New("push: no such subscription")
)

// Store keeps the subscriptions and the pushes owed (internal/store.PushStore).
type Store interface {
	// Save records sub (its ID, CreatedAt and UpdatedAt set by the caller)
	// for its member, or renews the one of the same endpoint: its keys,
	// session and user agent replaced, kept under its id when it is the
	// same member's, moved to this member otherwise (the device changed
	// hands; what was owed to it goes). Beyond max subscriptions of the
	// member, the ones renewed longest ago are deleted. It returns the
	// subscription as stored.
	Save(ctx context.Context, sub Subscription, max int) (Subscription, error)
	// Renew replaces the keys, session and user agent of the member's
	// subscription of sub.Endpoint and returns it (ErrNotFound when the
	// member has none: nothing is made).
	Renew(ctx context.Context, sub Subscription) (Subscription, error)
	// RemoveEndpoint deletes the member's subscription of endpoint
	// (ErrNotFound when the member has none).
	RemoveEndpoint(ctx context.Context, memberID, endpoint string) error
	// RemoveID deletes the member's subscription id (ErrNotFound).
	RemoveID(ctx context.Context, memberID, id string) error
	// List returns the member's subscriptions, newest first.
	List(ctx context.Context, memberID string) ([]Subscription, error)
	Queue
}

// Service is the member's side: switching the alerts on and off for a
// device, and the devices listed.
type Service struct {
	store     Store
	endpoints *Endpoints
	keys      *Keys
	now       func() time.Time
	newID     func() string
}

// NewService returns the members' side of Web Push. keys nil: push is not
// offered (PublicKey and Subscribe answer ErrUnavailable).
func NewService(st Store, endpoints *Endpoints, keys *Keys, newID func() string, now func() time.Time) *Service {
	return &Service{store: st, endpoints: endpoints, keys: keys, now: now, newID: newID}
}

// ErrUnavailable: the server has no VAPID key, so it offers no push
// (503, errorKey push_unavailable).
var ErrUnavailable = &apperr.Error{Code: apperr.Unavailable, MsgKey: "push.unavailable", ErrorKey: "push_unavailable"}

// PublicKey is the server's VAPID public key (base64url, uncompressed
// P-256), which the browser subscribes with.
func (s *Service) PublicKey() (string, error) {
	if s.keys == nil {
		return "", ErrUnavailable
	}
	return s.keys.Public, nil
}

// Input is the browser's PushSubscription as its toJSON gives it.
type Input struct {
	Endpoint string
	P256dh   string
	Auth     string
}

// Device is a subscription as the member sees it (never its endpoint or
// keys).
type Device struct {
	ID         string
	UserAgent  string
	CreatedAt  time.Time
	LastPushAt time.Time
	// Current: made or last renewed by the session asking.
	Current bool
}

func device(s Subscription, current auth.Session) Device {
	return Device{ID: s.ID, UserAgent: s.UserAgent, CreatedAt: s.CreatedAt, LastPushAt: s.LastPushAt,
		Current: s.SessionHash != "" && s.SessionHash == current.IDHash}
}

// Subscribe switches the alerts on for the session's device: the
// endpoint must be one of a browser's push services (Endpoints), the keys
// a P-256 public key and a 16-byte secret. Subscribing again (the same
// endpoint) renews it, under this session. With renewOnly, only a
// subscription the member still has is renewed (404 otherwise): a page
// renewing its device after a login does not switch back on a device the
// member switched off elsewhere.
func (s *Service) Subscribe(ctx context.Context, sess auth.Session, in Input, renewOnly bool) (Device, error) {
	if s.keys == nil {
		return Device{}, ErrUnavailable
	}
	f := validate.Errors{}
	in.Endpoint = strings.TrimSpace(in.Endpoint)
	if f.Required("endpoint", in.Endpoint) {
		f.MaxLen("endpoint", in.Endpoint, maxEndpoint)
		if !f.Has("endpoint") {
			f.Check("endpoint", s.endpoints.Allowed(in.Endpoint) == nil, "push.endpoint_refused")
		}
	}
	if f.Required("keys.p256dh", in.P256dh) {
		f.Check("keys.p256dh", validPublicKey(in.P256dh), "push.key_invalid")
	}
	if f.Required("keys.auth", in.Auth) {
		b, err := decodeKey(in.Auth)
		f.Check("keys.auth", err == nil && len(b) == 16, "push.key_invalid")
	}
	if !f.Empty() {
		return Device{}, apperr.FromFields(f)
	}
	now := s.now()
	sub := Subscription{ID: s.newID(), MemberID: sess.MemberID, Endpoint: in.Endpoint,
		P256dh: in.P256dh, Auth: in.Auth, SessionHash: sess.IDHash, UserAgent: sess.UserAgent, CreatedAt: now, UpdatedAt: now}
	var err error
	if renewOnly {
		sub, err = s.store.Renew(ctx, sub)
		if err != nil {
			return Device{}, notFound(err)
		}
	} else if sub, err = s.store.Save(ctx, sub, MaxDevices); err != nil {
		return Device{}, fmt.Errorf("push: subscribe: %w", err)
	}
	return device(sub, sess), nil
}

// Unsubscribe switches the alerts off for the device of endpoint: 404
// when it is not the member's.
func (s *Service) Unsubscribe(ctx context.Context, memberID, endpoint string) error {
	if strings.TrimSpace(endpoint) == "" {
		f := validate.Errors{}
		f.Required("endpoint", "")
		return apperr.FromFields(f)
	}
	return notFound(s.store.RemoveEndpoint(ctx, memberID, strings.TrimSpace(endpoint)))
}

// Devices lists the member's devices that get the alerts, newest first.
func (s *Service) Devices(ctx context.Context, current auth.Session) ([]Device, error) {
	subs, err := s.store.List(ctx, current.MemberID)
	if err != nil {
		return nil, fmt.Errorf("push: devices: %w", err)
	}
	out := make([]Device, 0, len(subs))
	for _, sub := range subs {
		out = append(out, device(sub, current))
	}
	return out, nil
}

// RemoveDevice switches the alerts off for one of the member's devices
// (the security centre): 404 for an id that is not the member's.
func (s *Service) RemoveDevice(ctx context.Context, memberID, id string) error {
	return notFound(s.store.RemoveID(ctx, memberID, id))
}

func notFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return fmt.Errorf("push: %w", err)
	}
	return nil
}

// decodeKey reads a key as the browser writes it: base64url without
// padding (padded and standard base64 are taken too).
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// validPublicKey: an uncompressed P-256 point on the curve.
func validPublicKey(s string) bool {
	b, err := decodeKey(s)
	if err != nil || len(b) != 65 || b[0] != 4 {
		return false
	}
	_, err = ecdh.P256().NewPublicKey(b)
	return err == nil
}
