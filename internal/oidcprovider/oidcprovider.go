// Package oidcprovider makes the members' area the airline's OpenID
// Connect provider. It is an adapter over the OpenID Certified library
// github.com/zitadel/oidc/v3 (its op package speaks the protocol): this
// package keeps the library's state in the database through Store, signs
// with the operator's asymmetric keys, signs members in through
// internal/auth's sessions (auth never imports this package), asks for
// consent where a client is not first-party, and delivers back-channel
// logout tokens from an outbox. docs/security.md says how to connect a
// client and rotate the keys.
package oidcprovider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
)

// Lifetimes.
const (
	// RequestLifetime is how long an authorization request waits for the
	// member (a login, a consent).
	RequestLifetime = 30 * time.Minute
	// CodeLifetime is how long an authorization code can be exchanged.
	CodeLifetime = 2 * time.Minute
	// CodeMemory is how long a spent code is remembered, so that a second
	// use is recognised (and revokes what the first gave).
	CodeMemory = time.Hour
	// AccessTokenLifetime and IDTokenLifetime are short: a client that
	// keeps the member signed in refreshes.
	AccessTokenLifetime = 15 * time.Minute
	IDTokenLifetime     = 10 * time.Minute
	// RefreshTokenLifetime is how long a refresh token can be used; each
	// use replaces it with a new one.
	RefreshTokenLifetime = 30 * 24 * time.Hour
	// PreviousSecretLifetime is how long a client's secret keeps working
	// after rotate-secret, while the client switches to the new one.
	PreviousSecretLifetime = 24 * time.Hour
	// LogoutTokenLifetime bounds a back-channel logout token.
	LogoutTokenLifetime = 2 * time.Minute
)

// Authentication methods of clients at the token endpoint.
const (
	AuthSecretBasic   = "client_secret_basic"
	AuthPrivateKeyJWT = "private_key_jwt"
)

// Scopes the provider knows. ScopeMembership gives the member number
// claim (ClaimMemberNumber).
const (
	ScopeOpenID        = "openid"
	ScopeProfile       = "profile"
	ScopeEmail         = "email"
	ScopeMembership    = "membership"
	ScopeOfflineAccess = "offline_access"
	ClaimMemberNumber  = "member_number"
)

// Scopes lists every scope the provider supports, in the consent page's order.
var Scopes = []string{ScopeOpenID, ScopeProfile, ScopeEmail, ScopeMembership, ScopeOfflineAccess}

// Client is an operator's relying party.
type Client struct {
	ID                     string
	Name                   string
	AuthMethod             string
	SecretHash             string
	PreviousSecretHash     string
	PreviousSecretUntil    time.Time
	JWKS                   []byte
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
	BackchannelLogoutURI   string
	FirstParty             bool
	CreatedAt              time.Time
}

// Request is an authorization request as stored, from /oidc/authorize
// until its code is spent.
type Request struct {
	ID          string
	ClientID    string
	Params      RequestParams
	BrowserHash string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	// Set at approval: the member, the session here that approved, the
	// time that session signed in.
	MemberID    string
	SessionHash string
	AuthTime    time.Time
	// CodeExpiresAt is set when a code is handed out; CodeUsed once it is
	// exchanged.
	CodeExpiresAt time.Time
	CodeUsed      bool
}

// RequestParams are the parts of the client's request kept for later.
type RequestParams struct {
	RedirectURI         string   `json:"redirectUri"`
	Scopes              []string `json:"scopes"`
	State               string   `json:"state,omitempty"`
	Nonce               string   `json:"nonce,omitempty"`
	ResponseType        string   `json:"responseType"`
	ResponseMode        string   `json:"responseMode,omitempty"`
	CodeChallenge       string   `json:"codeChallenge"`
	CodeChallengeMethod string   `json:"codeChallengeMethod"`
	Prompt              []string `json:"prompt,omitempty"`
	MaxAge              *uint    `json:"maxAge,omitempty"`
	LoginHint           string   `json:"loginHint,omitempty"`
	UILocales           []string `json:"uiLocales,omitempty"`
	// HintSubject is the sub of a valid id_token_hint.
	HintSubject string `json:"hintSubject,omitempty"`
}

// AccessToken is an issued access token (its id travels encrypted).
type AccessToken struct {
	ID            string
	ClientID      string
	MemberID      string
	Scopes        []string
	FamilyID      string
	AuthRequestID string
	SessionHash   string
	CreatedAt     time.Time
	ExpiresAt     time.Time
}

// RefreshToken is an issued refresh token, by the hash of its value.
type RefreshToken struct {
	Hash          string
	FamilyID      string
	ClientID      string
	MemberID      string
	Scopes        []string
	AuthRequestID string
	SessionHash   string
	AuthTime      time.Time
	CreatedAt     time.Time
	ExpiresAt     time.Time
	Used          bool
}

// Grant is what a member let a client have.
type Grant struct {
	MemberID   string
	ClientID   string
	ClientName string
	FirstParty bool
	Scopes     []string
	CreatedAt  time.Time
	LastUsedAt time.Time
}

// Member is what the claims are made of.
type Member struct {
	ID           string
	Email        string
	FirstName    string
	LastName     string
	Lang         string
	MemberNumber string
}

// Logout is a back-channel logout token to deliver.
type Logout struct {
	ID            string
	ClientID      string
	Subject       string
	SID           string
	Attempts      int
	NextAttemptAt time.Time
	CreatedAt     time.Time
}

// Store is the storage the provider needs (internal/store.OIDCStore).
type Store interface {
	AddClient(ctx context.Context, c Client) error
	Clients(ctx context.Context) ([]Client, error)
	// Client returns ErrNotFound when there is no such client.
	Client(ctx context.Context, id string) (Client, error)
	// RemoveClient deletes the client with its requests, tokens and
	// grants; ErrNotFound.
	RemoveClient(ctx context.Context, id string) error
	// SetSecret replaces the client's secret hash, keeping the old one
	// until previousUntil; ErrNotFound.
	SetSecret(ctx context.Context, id, hash string, previousUntil time.Time) error

	CreateRequest(ctx context.Context, r Request) error
	// Request returns ErrNotFound for an unknown or expired request.
	Request(ctx context.Context, id string, now time.Time) (Request, error)
	// Approve marks the request done for the member and records the
	// grant of scopes (its last use now) and the session's sign-in to the
	// client, in one transaction; ErrNotFound when the request is gone
	// or already done.
	Approve(ctx context.Context, id, memberID, sessionHash string, authTime, now time.Time) error
	// SaveCode records the code's hash on an approved request.
	SaveCode(ctx context.Context, id, codeHash string, expires time.Time) error
	// RequestByCode returns the request of a code (spent or not);
	// ErrNotFound.
	RequestByCode(ctx context.Context, codeHash string) (Request, error)
	// SpendCode marks the request's code used; ErrCodeReused when it was
	// already (the tokens it gave are then revoked in the same step).
	SpendCode(ctx context.Context, id string, now time.Time) error
	// RevokeRequest deletes every token that came from the request's code.
	RevokeRequest(ctx context.Context, id string) error

	AddAccessToken(ctx context.Context, t AccessToken) error
	// AddRefreshToken adds a refresh token with its access token; when
	// replacing is not "", that used token is marked used in the same
	// transaction, and ErrRefreshReused comes back (with the whole
	// family revoked) when it was used already.
	AddRefreshToken(ctx context.Context, t AccessToken, r RefreshToken, replacing string, now time.Time) error
	// AccessTokenByID returns ErrNotFound for an unknown or expired token.
	AccessTokenByID(ctx context.Context, id string, now time.Time) (AccessToken, error)
	// RefreshTokenByHash returns the token used or not; ErrNotFound.
	RefreshTokenByHash(ctx context.Context, hash string) (RefreshToken, error)
	RevokeFamily(ctx context.Context, familyID string) error
	RevokeAccessToken(ctx context.Context, id string) error

	Grant(ctx context.Context, memberID, clientID string) (Grant, error)
	Grants(ctx context.Context, memberID string) ([]Grant, error)
	// RevokeGrant deletes the member's grant of the client with its
	// tokens, and queues a logout token for the client (when it has a
	// back-channel logout URI); ErrNotFound.
	RevokeGrant(ctx context.Context, memberID, clientID string, now time.Time) error

	// Member returns ErrNotFound for an unknown, erased or deactivated member.
	Member(ctx context.Context, id string) (Member, error)

	// UseAssertion records a client assertion's id until it expires;
	// ErrReplayed when it is recorded already.
	UseAssertion(ctx context.Context, clientID, jti string, expires, now time.Time) error

	// ClaimLogouts reserves due logout tokens until leaseUntil.
	ClaimLogouts(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Logout, error)
	LogoutSent(ctx context.Context, id string, at time.Time) error
	// LogoutFailed records a failed attempt: the new count, whether it
	// was the last (status failed) and when to try again.
	LogoutFailed(ctx context.Context, id string, attempts int, last bool, next time.Time, lastErr string) error
	// Purge deletes what has run out before now.
	Purge(ctx context.Context, now time.Time) error
}

// Errors of the store and the provider.
var (
	ErrNotFound      = errors.New("oidc: not found")
	ErrCodeReused    = errors.New("oidc: authorization code used twice")
	ErrRefreshReused = errors.New("oidc: refresh token used twice")
	ErrReplayed      = errors.New("oidc: client assertion replayed")
)

// Hash is the stored form of a secret, code or token: they are random
// (256 bits), so a fast hash is enough.
func Hash(secret string) string {
	s := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(s[:])
}

// SID is the sid claim of a session here: derived from the session's
// stored hash, so the clients never see the hash that finds the session.
func SID(sessionHash string) string {
	if sessionHash == "" {
		return ""
	}
	s := sha256.Sum256([]byte("oidc-sid:" + sessionHash))
	return hex.EncodeToString(s[:16])
}
