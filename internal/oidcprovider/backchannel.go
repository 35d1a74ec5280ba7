package oidcprovider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"members/internal/retry"
)

// Back-channel logout (OpenID Connect Back-Channel Logout 1.0). The
// logout tokens are queued in the database by the transaction that ends
// the member's sessions here (a logout, "End all other sessions", a
// password change or reset, an erasure, the site revoked in the security
// centre; internal/store), and this worker delivers them, retrying with
// a growing wait, logging each failure (never the token).
const (
	// LogoutMaxAttempts is how often a token is tried before it is given up.
	LogoutMaxAttempts = 8
	logoutFirstWait   = 30 * time.Second
	logoutMaxWait     = time.Hour
	logoutLease       = time.Minute
	// LogoutPollEvery is how often the worker looks for due tokens.
	LogoutPollEvery = 2 * time.Second
	// BackchannelLogoutEvent is the event a logout token carries.
	BackchannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"
)

// LogoutWait is the wait after the given number of failed attempts.
func LogoutWait(attempts int) time.Duration {
	return retry.Doubling(logoutFirstWait, logoutMaxWait, attempts)
}

// LogoutClaims are a logout token's claims.
type LogoutClaims struct {
	Issuer   string                    `json:"iss"`
	Audience string                    `json:"aud"`
	IssuedAt int64                     `json:"iat"`
	Expiry   int64                     `json:"exp"`
	ID       string                    `json:"jti"`
	Subject  string                    `json:"sub,omitempty"`
	SID      string                    `json:"sid,omitempty"`
	Events   map[string]map[string]any `json:"events"`
}

// logoutToken signs a logout token for l with the current key: typ
// logout+jwt, no nonce, the event, sub and (for one session) sid.
func (p *Provider) logoutToken(ctx context.Context, l Logout) (string, error) {
	k, _, err := p.cfg.Keys(ctx)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: k.Algorithm(), Key: &jose.JSONWebKey{Key: k.private, KeyID: k.ID()}},
		(&jose.SignerOptions{}).WithType("logout+jwt"))
	if err != nil {
		return "", fmt.Errorf("logout token signer: %w", err)
	}
	now := time.Now()
	c := LogoutClaims{
		Issuer: p.Issuer(), Audience: l.ClientID, IssuedAt: now.Unix(), Expiry: now.Add(LogoutTokenLifetime).Unix(),
		ID: l.ID, Subject: l.Subject, SID: l.SID, Events: map[string]map[string]any{BackchannelLogoutEvent: {}},
	}
	return jwt.Signed(signer).Claims(c).Serialize()
}

// DeliverLogouts sends the due logout tokens once; it returns how many
// were delivered.
func (p *Provider) DeliverLogouts(ctx context.Context) (int, error) {
	now := p.cfg.Now()
	due, err := p.store.ClaimLogouts(ctx, now, now.Add(logoutLease), 20)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, l := range due {
		if err := p.deliver(ctx, l); err != nil {
			p.failed(ctx, l, err)
			continue
		}
		if err := p.store.LogoutSent(ctx, l.ID, p.cfg.Now()); err != nil {
			p.cfg.Logger.Warn("oidc: record logout sent", "id", l.ID, "err", err)
		}
		sent++
	}
	return sent, nil
}

func (p *Provider) deliver(ctx context.Context, l Logout) error {
	c, err := p.store.Client(ctx, l.ClientID)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	if c.BackchannelLogoutURI == "" {
		return errors.New("the client has no back-channel logout URI")
	}
	token, err := p.logoutToken(ctx, l)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BackchannelLogoutURI,
		strings.NewReader(url.Values{"logout_token": {token}}.Encode()))
	if err != nil {
		return errors.New("bad back-channel logout URI")
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return fmt.Errorf("POST %s: %w", c.BackchannelLogoutURI, ue.Err)
		}
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("POST %s: HTTP %d", c.BackchannelLogoutURI, resp.StatusCode)
	}
	return nil
}

func (p *Provider) failed(ctx context.Context, l Logout, cause error) {
	attempts := l.Attempts + 1
	last := attempts >= LogoutMaxAttempts
	if err := p.store.LogoutFailed(ctx, l.ID, attempts, last, p.cfg.Now().Add(LogoutWait(attempts)), cause.Error()); err != nil {
		p.cfg.Logger.Warn("oidc: record logout attempt", "id", l.ID, "err", err)
	}
	if last {
		p.cfg.Logger.Error("oidc: back-channel logout given up", "id", l.ID, "client_id", l.ClientID, "attempts", attempts, "err", cause.Error())
		return
	}
	p.cfg.Logger.Warn("oidc: back-channel logout failed", "id", l.ID, "client_id", l.ClientID, "attempts", attempts, "err", cause.Error())
}

// Nudge wakes the logout worker (a logout queued in this process).
func (p *Provider) Nudge() {
	select {
	case p.nudge <- struct{}{}:
	default:
	}
}

// RunLogouts is the back-channel logout worker, until ctx ends; it also
// purges what has run out, once a minute.
func (p *Provider) RunLogouts(ctx context.Context) {
	t := time.NewTicker(LogoutPollEvery)
	defer t.Stop()
	var purged time.Time
	for {
		if _, err := p.DeliverLogouts(ctx); err != nil && ctx.Err() == nil {
			p.cfg.Logger.Warn("oidc: logout worker", "err", err)
		}
		if time.Since(purged) > time.Minute {
			purged = time.Now()
			if err := p.store.Purge(ctx, p.cfg.Now()); err != nil && ctx.Err() == nil {
				p.cfg.Logger.Warn("oidc: purge", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.nudge:
		}
	}
}
