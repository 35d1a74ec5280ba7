package booking

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"members/internal/i18n"
)

// HandoverTTL is how long a hand-over token to the booking site is valid.
const HandoverTTL = 5 * time.Minute

// HandoverClockSkew is how far ahead of this server's clock a token's
// issue time may be: the booking site's clock may run a little fast.
const HandoverClockSkew = 60 * time.Second

// Handover signs the short-lived tokens that carry a member to the booking
// site (single sign-on): base64url(JSON claims) "." base64url(HMAC-SHA256).
// The booking site shares the secret and checks signature and expiry.
//
// Each token carries a random id and is single use: the booking site
// redeems it once (Redeem, served at POST /handover/v1/redeem), and a
// replay within its five minutes is refused.
//
// Tokens are signed with the current key; during a key change the
// previous keys (WithPreviousKeys) still verify, so tokens in flight and a
// booking site that has not switched yet keep working.
type Handover struct {
	secret      []byte
	previous    [][]byte
	siteURL     string
	redemptions Redemptions
}

// Redemptions records redeemed token ids (internal/store.HandoverRedemptions).
type Redemptions interface {
	// Redeem records id until expires; ErrReplayed when it is there already.
	Redeem(ctx context.Context, id string, expires, now time.Time) error
}

// ErrReplayed is a token redeemed before.
var ErrReplayed = errors.New("handover: token already used")

// WithPreviousKeys lets tokens signed with keys verify too (a key change:
// new tokens are signed with the current key only).
func (h *Handover) WithPreviousKeys(keys ...[]byte) *Handover {
	for _, k := range keys {
		if len(k) > 0 {
			h.previous = append(h.previous, k)
		}
	}
	return h
}

// WithRedemptions makes tokens single use.
func (h *Handover) WithRedemptions(r Redemptions) *Handover {
	h.redemptions = r
	return h
}

// Redeem checks a token and records it as used: the booking site's one
// call per hand-over. ErrBadToken for a bad, expired or replayed token.
func (h *Handover) Redeem(ctx context.Context, token string, now time.Time) (HandoverClaims, error) {
	return h.redeemAs(ctx, outbound, token, now)
}

// RedeemLogin checks a sign-on token the booking site issued for a member
// who is logged in there (IssueLogin) and records it as used: the member
// arrives at POST /api/session/complete and gets a session here.
// ErrBadToken for a bad, expired, replayed or outbound token.
func (h *Handover) RedeemLogin(ctx context.Context, token string, now time.Time) (HandoverClaims, error) {
	return h.redeemAs(ctx, inbound, token, now)
}

// IssueLogin is the booking site's side of RedeemLogin (the same secret,
// the inbound purpose): a token that logs memberID in here once, within
// HandoverTTL. The server never sends it; tests and tools use it.
func (h *Handover) IssueLogin(memberID string, lang i18n.Lang, now time.Time) (string, error) {
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return "", fmt.Errorf("sign-on id: %w", err)
	}
	return h.seal(inbound, HandoverClaims{ID: hex.EncodeToString(id), MemberID: memberID, Lang: string(lang), IssuedAt: now.Unix(), ExpiresAt: now.Add(HandoverTTL).Unix()})
}

// seal signs claims for purpose with the current key.
func (h *Handover) seal(purpose string, c HandoverClaims) (string, error) {
	body, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("handover: %w", err)
	}
	payload := base64.RawURLEncoding.EncodeToString(body)
	return payload + "." + base64.RawURLEncoding.EncodeToString(sign(h.secret, purpose, payload)), nil
}

func (h *Handover) redeemAs(ctx context.Context, purpose, token string, now time.Time) (HandoverClaims, error) {
	c, err := h.verifyAs(purpose, token, now)
	if err != nil {
		return c, err
	}
	if c.ID == "" || h.redemptions == nil {
		return HandoverClaims{}, ErrBadToken
	}
	key := c.ID
	if purpose == inbound {
		key = "login:" + c.ID // the two directions never share an id
	}
	switch err := h.redemptions.Redeem(ctx, key, time.Unix(c.ExpiresAt, 0), now); {
	case errors.Is(err, ErrReplayed):
		return HandoverClaims{}, ErrBadToken
	case err != nil:
		return HandoverClaims{}, fmt.Errorf("redeem hand-over: %w", err)
	}
	return c, nil
}

// NewHandover returns a signer for the booking site at siteURL.
func NewHandover(secret []byte, siteURL string) *Handover {
	return &Handover{secret: secret, siteURL: strings.TrimRight(siteURL, "/")}
}

// HandoverClaims are what the token says.
type HandoverClaims struct {
	ID        string `json:"jti"`
	MemberID  string `json:"sub"`
	PNR       string `json:"pnr,omitempty"`
	Lang      string `json:"lang"`
	IssuedAt  int64  `json:"iat"`
	ExpiresAt int64  `json:"exp"`
}

// Issue signs a token for memberID (and pnr, when changing one booking).
func (h *Handover) Issue(memberID, pnr string, lang i18n.Lang, now time.Time) (HandoverResult, error) {
	exp := now.Add(HandoverTTL)
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return HandoverResult{}, fmt.Errorf("handover id: %w", err)
	}
	claims := HandoverClaims{ID: hex.EncodeToString(id), MemberID: memberID, PNR: pnr, Lang: string(lang), IssuedAt: now.Unix(), ExpiresAt: exp.Unix()}
	token, err := h.seal(outbound, claims)
	if err != nil {
		return HandoverResult{}, err
	}
	path := "/booking/search"
	if pnr != "" {
		path = "/booking/" + url.PathEscape(pnr) + "/edit"
	}
	q := url.Values{"token": {token}, "lang": {string(lang)}}
	return HandoverResult{URL: h.siteURL + path + "?" + q.Encode(), Token: token, ExpiresAt: exp.UTC().Format(time.RFC3339)}, nil
}

// The purposes a token is signed for: a token for one direction never
// verifies for the other (the label is part of the signed text).
const (
	outbound = "booking-handover:" // members → booking site
	inbound  = "booking-login:"    // booking site → members (session completion)
)

func sign(key []byte, purpose, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose + payload))
	return m.Sum(nil)
}

// signedBy reports whether sig is payload's signature for purpose under
// the current key or a previous one.
func (h *Handover) signedBy(purpose, payload string, sig []byte) bool {
	if hmac.Equal(sig, sign(h.secret, purpose, payload)) {
		return true
	}
	for _, k := range h.previous {
		if hmac.Equal(sig, sign(k, purpose, payload)) {
			return true
		}
	}
	return false
}

// ErrBadToken is a token with a wrong signature, a bad shape, past expiry,
// issued in the future or valid for longer than HandoverTTL.
var ErrBadToken = errors.New("handover: invalid or expired token")

// Verify checks a token (what the booking site does) and returns its claims.
func (h *Handover) Verify(token string, now time.Time) (HandoverClaims, error) {
	return h.verifyAs(outbound, token, now)
}

func (h *Handover) verifyAs(purpose, token string, now time.Time) (HandoverClaims, error) {
	var c HandoverClaims
	payload, sig, ok := strings.Cut(token, ".")
	if !ok {
		return c, ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !h.signedBy(purpose, payload, got) {
		return c, ErrBadToken
	}
	body, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || json.Unmarshal(body, &c) != nil {
		return c, ErrBadToken
	}
	if now.Unix() >= c.ExpiresAt {
		return c, ErrBadToken
	}
	// A token lives HandoverTTL from its issue, and is not issued later
	// than now (beyond a little clock skew): a holder of the key, or a
	// booking site with a wrong clock, cannot make one that lasts.
	if c.IssuedAt > now.Add(HandoverClockSkew).Unix() || c.ExpiresAt-c.IssuedAt > int64(HandoverTTL/time.Second) {
		return HandoverClaims{}, ErrBadToken
	}
	return c, nil
}
