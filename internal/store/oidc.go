package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"members/internal/oidcprovider"
)

// OIDCStore implements oidcprovider.Store.
type OIDCStore struct{ db *DB }

// NewOIDCStore returns the OpenID Connect provider's store.
func NewOIDCStore(db *DB) *OIDCStore { return &OIDCStore{db: db} }

var _ oidcprovider.Store = (*OIDCStore)(nil)

const oidcClientCols = `id, name, auth_method, secret_hash, previous_secret_hash, previous_secret_until, jwks,
	redirect_uris, post_logout_redirect_uris, backchannel_logout_uri, first_party, created_at` // #nosec G101 -- a column list, not a credential

func scanOIDCClient(sc interface{ Scan(...any) error }) (oidcprovider.Client, error) {
	var c oidcprovider.Client
	var until, created int64
	var jwks, redirects, postLogout string
	if err := sc.Scan(&c.ID, &c.Name, &c.AuthMethod, &c.SecretHash, &c.PreviousSecretHash, &until, &jwks,
		&redirects, &postLogout, &c.BackchannelLogoutURI, &c.FirstParty, &created); err != nil {
		return c, err
	}
	if jwks != "" {
		c.JWKS = []byte(jwks)
	}
	if err := json.Unmarshal([]byte(redirects), &c.RedirectURIs); err != nil {
		return c, fmt.Errorf("client redirect URIs: %w", err)
	}
	if err := json.Unmarshal([]byte(postLogout), &c.PostLogoutRedirectURIs); err != nil {
		return c, fmt.Errorf("client post-logout URIs: %w", err)
	}
	c.PreviousSecretUntil, c.CreatedAt = time.UnixMilli(until).UTC(), time.UnixMilli(created).UTC()
	return c, nil
}

func jsonList(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v) // a list of strings always encodes
	return string(b)
}

func (s *OIDCStore) AddClient(ctx context.Context, c oidcprovider.Client) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO oidc_clients (`+oidcClientCols+`) VALUES ($1, $2, $3, $4, '', 0, $5, $6, $7, $8, $9, $10)`,
		c.ID, c.Name, c.AuthMethod, c.SecretHash, string(c.JWKS), jsonList(c.RedirectURIs), jsonList(c.PostLogoutRedirectURIs),
		c.BackchannelLogoutURI, c.FirstParty, c.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert client: %w", Translate(err))
	}
	return nil
}

func (s *OIDCStore) Clients(ctx context.Context) ([]oidcprovider.Client, error) {
	rs, err := s.db.QueryContext(ctx, `SELECT `+oidcClientCols+` FROM oidc_clients ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("clients: %w", err)
	}
	defer rs.Close()
	out := []oidcprovider.Client{}
	for rs.Next() {
		c, err := scanOIDCClient(rs)
		if err != nil {
			return nil, fmt.Errorf("clients: %w", err)
		}
		out = append(out, c)
	}
	return out, rs.Err()
}

func (s *OIDCStore) Client(ctx context.Context, id string) (oidcprovider.Client, error) {
	c, err := scanOIDCClient(s.db.QueryRowContext(ctx, `SELECT `+oidcClientCols+` FROM oidc_clients WHERE id = $1`, id))
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return c, oidcprovider.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("client: %w", err)
	}
	return c, nil
}

// RemoveClient deletes the client; its requests, tokens, grants, session
// links and queued logouts go with it (foreign keys).
func (s *OIDCStore) RemoveClient(ctx context.Context, id string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM oidc_logouts WHERE client_id = $1`, `DELETE FROM oidc_session_clients WHERE client_id = $1`,
			`DELETE FROM oidc_grants WHERE client_id = $1`, `DELETE FROM oidc_access_tokens WHERE client_id = $1`,
			`DELETE FROM oidc_refresh_tokens WHERE client_id = $1`, `DELETE FROM oidc_auth_requests WHERE client_id = $1`,
			`DELETE FROM oidc_assertions WHERE client_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return fmt.Errorf("remove client: %w", err)
			}
		}
		r, err := tx.ExecContext(ctx, `DELETE FROM oidc_clients WHERE id = $1`, id)
		if err != nil {
			return fmt.Errorf("remove client: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return oidcprovider.ErrNotFound
		}
		return nil
	})
}

func (s *OIDCStore) SetSecret(ctx context.Context, id, hash string, previousUntil time.Time) error {
	r, err := s.db.ExecContext(ctx, `UPDATE oidc_clients SET previous_secret_hash = secret_hash, previous_secret_until = $1, secret_hash = $2 WHERE id = $3`,
		previousUntil.UnixMilli(), hash, id)
	if err != nil {
		return fmt.Errorf("set secret: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return oidcprovider.ErrNotFound
	}
	return nil
}

const oidcRequestCols = `id, client_id, request, browser_hash, created_at, expires_at, COALESCE(member_id, ''), session_hash, auth_time,
	code_expires_at, code_used_at IS NOT NULL`

func scanOIDCRequest(sc interface{ Scan(...any) error }) (oidcprovider.Request, error) {
	var r oidcprovider.Request
	var params string
	var created, expires, authTime, codeExpires int64
	if err := sc.Scan(&r.ID, &r.ClientID, &params, &r.BrowserHash, &created, &expires, &r.MemberID, &r.SessionHash, &authTime,
		&codeExpires, &r.CodeUsed); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(params), &r.Params); err != nil {
		return r, fmt.Errorf("auth request: %w", err)
	}
	r.CreatedAt, r.ExpiresAt = time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC()
	if authTime != 0 {
		r.AuthTime = time.UnixMilli(authTime).UTC()
	}
	if codeExpires != 0 {
		r.CodeExpiresAt = time.UnixMilli(codeExpires).UTC()
	}
	return r, nil
}

func (s *OIDCStore) CreateRequest(ctx context.Context, r oidcprovider.Request) error {
	params, err := json.Marshal(r.Params)
	if err != nil {
		return fmt.Errorf("auth request: %w", err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO oidc_auth_requests (id, client_id, request, browser_hash, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, r.ID, r.ClientID, string(params), r.BrowserHash, r.CreatedAt.UnixMilli(), r.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert auth request: %w", Translate(err))
	}
	return nil
}

func (s *OIDCStore) Request(ctx context.Context, id string, now time.Time) (oidcprovider.Request, error) {
	r, err := scanOIDCRequest(s.db.QueryRowContext(ctx, `SELECT `+oidcRequestCols+` FROM oidc_auth_requests WHERE id = $1 AND expires_at > $2`,
		id, now.UnixMilli()))
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return r, oidcprovider.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("auth request: %w", err)
	}
	return r, nil
}

// Approve marks the request the member's (while the approving session
// lives), widens the member's grant of the client to the request's scopes
// and records the session's sign-in to the client.
func (s *OIDCStore) Approve(ctx context.Context, id, memberID, sessionHash string, authTime, now time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		r, err := scanOIDCRequest(tx.QueryRowContext(ctx, `SELECT `+oidcRequestCols+` FROM oidc_auth_requests WHERE id = $1`, id))
		if err = Translate(err); errors.Is(err, ErrNotFound) {
			return oidcprovider.ErrNotFound
		} else if err != nil {
			return fmt.Errorf("approve: %w", err)
		}
		res, err := tx.ExecContext(ctx, `UPDATE oidc_auth_requests SET member_id = $1, session_hash = $2, auth_time = $3
			WHERE id = $4 AND member_id IS NULL AND expires_at > $5
			  AND EXISTS (SELECT 1 FROM sessions WHERE id_hash = $2 AND member_id = $1)`,
			memberID, sessionHash, authTime.UnixMilli(), id, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("approve: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return oidcprovider.ErrNotFound
		}
		var had string
		err = Translate(tx.QueryRowContext(ctx, `SELECT scopes FROM oidc_grants WHERE member_id = $1 AND client_id = $2`, memberID, r.ClientID).Scan(&had))
		if err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("approve: grant: %w", err)
		}
		scopes := strings.Fields(had)
		for _, sc := range r.Params.Scopes {
			if !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_grants (member_id, client_id, scopes, created_at, last_used_at) VALUES ($1, $2, $3, $4, $4)
			ON CONFLICT (member_id, client_id) DO UPDATE SET scopes = excluded.scopes, last_used_at = excluded.last_used_at`,
			memberID, r.ClientID, strings.Join(scopes, " "), now.UnixMilli()); err != nil {
			return fmt.Errorf("approve: grant: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_session_clients (session_hash, sid, client_id, member_id, created_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (session_hash, client_id) DO NOTHING`,
			sessionHash, oidcprovider.SID(sessionHash), r.ClientID, memberID, now.UnixMilli()); err != nil {
			return fmt.Errorf("approve: session: %w", err)
		}
		return nil
	})
}

// SaveCode records the code of an approved request, once; the request is
// then kept for CodeMemory past the code's end.
func (s *OIDCStore) SaveCode(ctx context.Context, id, codeHash string, expires time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE oidc_auth_requests SET code_hash = $1, code_expires_at = $2, expires_at = $3
		WHERE id = $4 AND member_id IS NOT NULL AND code_hash IS NULL`,
		codeHash, expires.UnixMilli(), expires.Add(oidcprovider.CodeMemory).UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("save code: %w", Translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("save code: the request has no approval, or a code already")
	}
	return nil
}

func (s *OIDCStore) RequestByCode(ctx context.Context, codeHash string) (oidcprovider.Request, error) {
	r, err := scanOIDCRequest(s.db.QueryRowContext(ctx, `SELECT `+oidcRequestCols+` FROM oidc_auth_requests WHERE code_hash = $1`, codeHash))
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return r, oidcprovider.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("auth request by code: %w", err)
	}
	return r, nil
}

func (s *OIDCStore) SpendCode(ctx context.Context, id string, now time.Time) error {
	reused := false
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE oidc_auth_requests SET code_used_at = $1 WHERE id = $2 AND code_used_at IS NULL`, now.UnixMilli(), id)
		if err != nil {
			return fmt.Errorf("spend code: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		reused = true
		return revokeRequest(ctx, tx, id)
	})
	if err == nil && reused {
		return oidcprovider.ErrCodeReused
	}
	return err
}

func (s *OIDCStore) RevokeRequest(ctx context.Context, id string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error { return revokeRequest(ctx, tx, id) })
}

func revokeRequest(ctx context.Context, tx *sql.Tx, id string) error {
	for _, q := range []string{`DELETE FROM oidc_access_tokens WHERE auth_request_id = $1`, `DELETE FROM oidc_refresh_tokens WHERE auth_request_id = $1`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("revoke code's tokens: %w", err)
		}
	}
	return nil
}

func addAccessToken(ctx context.Context, x execer, t oidcprovider.AccessToken) error {
	_, err := x.ExecContext(ctx, `INSERT INTO oidc_access_tokens (id, client_id, member_id, scopes, family_id, auth_request_id, session_hash, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		t.ID, t.ClientID, t.MemberID, strings.Join(t.Scopes, " "), t.FamilyID, t.AuthRequestID, t.SessionHash, t.CreatedAt.UnixMilli(), t.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert access token: %w", Translate(err))
	}
	return nil
}

func (s *OIDCStore) AddAccessToken(ctx context.Context, t oidcprovider.AccessToken) error {
	return addAccessToken(ctx, s.db, t)
}

func (s *OIDCStore) AddRefreshToken(ctx context.Context, t oidcprovider.AccessToken, r oidcprovider.RefreshToken, replacing string, now time.Time) error {
	reused := false
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if replacing != "" {
			res, err := tx.ExecContext(ctx, `UPDATE oidc_refresh_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL`, now.UnixMilli(), replacing)
			if err != nil {
				return fmt.Errorf("rotate refresh token: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				reused = true
				return revokeFamily(ctx, tx, r.FamilyID)
			}
		}
		if err := addAccessToken(ctx, tx, t); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO oidc_refresh_tokens (token_hash, family_id, client_id, member_id, scopes, auth_request_id, session_hash,
			auth_time, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			r.Hash, r.FamilyID, r.ClientID, r.MemberID, strings.Join(r.Scopes, " "), r.AuthRequestID, r.SessionHash,
			r.AuthTime.UnixMilli(), r.CreatedAt.UnixMilli(), r.ExpiresAt.UnixMilli())
		if err != nil {
			return fmt.Errorf("insert refresh token: %w", Translate(err))
		}
		return nil
	})
	if err == nil && reused {
		return oidcprovider.ErrRefreshReused
	}
	return err
}

func (s *OIDCStore) AccessTokenByID(ctx context.Context, id string, now time.Time) (oidcprovider.AccessToken, error) {
	var t oidcprovider.AccessToken
	var scopes string
	var created, expires int64
	err := s.db.QueryRowContext(ctx, `SELECT id, client_id, member_id, scopes, family_id, auth_request_id, session_hash, created_at, expires_at
		FROM oidc_access_tokens WHERE id = $1 AND expires_at > $2`, id, now.UnixMilli()).
		Scan(&t.ID, &t.ClientID, &t.MemberID, &scopes, &t.FamilyID, &t.AuthRequestID, &t.SessionHash, &created, &expires)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return t, oidcprovider.ErrNotFound
	}
	if err != nil {
		return t, fmt.Errorf("access token: %w", err)
	}
	t.Scopes, t.CreatedAt, t.ExpiresAt = strings.Fields(scopes), time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC()
	return t, nil
}

func (s *OIDCStore) RefreshTokenByHash(ctx context.Context, hash string) (oidcprovider.RefreshToken, error) {
	var r oidcprovider.RefreshToken
	var scopes string
	var authTime, created, expires int64
	err := s.db.QueryRowContext(ctx, `SELECT token_hash, family_id, client_id, member_id, scopes, auth_request_id, session_hash,
		auth_time, created_at, expires_at, used_at IS NOT NULL FROM oidc_refresh_tokens WHERE token_hash = $1`, hash).
		Scan(&r.Hash, &r.FamilyID, &r.ClientID, &r.MemberID, &scopes, &r.AuthRequestID, &r.SessionHash, &authTime, &created, &expires, &r.Used)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return r, oidcprovider.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("refresh token: %w", err)
	}
	r.Scopes = strings.Fields(scopes)
	r.AuthTime, r.CreatedAt, r.ExpiresAt = time.UnixMilli(authTime).UTC(), time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC()
	return r, nil
}

func revokeFamily(ctx context.Context, tx *sql.Tx, family string) error {
	for _, q := range []string{`DELETE FROM oidc_access_tokens WHERE family_id = $1`, `DELETE FROM oidc_refresh_tokens WHERE family_id = $1`} {
		if _, err := tx.ExecContext(ctx, q, family); err != nil {
			return fmt.Errorf("revoke token family: %w", err)
		}
	}
	return nil
}

func (s *OIDCStore) RevokeFamily(ctx context.Context, family string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error { return revokeFamily(ctx, tx, family) })
}

func (s *OIDCStore) RevokeAccessToken(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM oidc_access_tokens WHERE id = $1`, id); err != nil {
		return fmt.Errorf("revoke access token: %w", err)
	}
	return nil
}

const oidcGrantSelect = `SELECT g.member_id, g.client_id, c.name, c.first_party, g.scopes, g.created_at, g.last_used_at
	FROM oidc_grants g JOIN oidc_clients c ON c.id = g.client_id`

func scanOIDCGrant(sc interface{ Scan(...any) error }) (oidcprovider.Grant, error) {
	var g oidcprovider.Grant
	var scopes string
	var created, used int64
	if err := sc.Scan(&g.MemberID, &g.ClientID, &g.ClientName, &g.FirstParty, &scopes, &created, &used); err != nil {
		return g, err
	}
	g.Scopes, g.CreatedAt, g.LastUsedAt = strings.Fields(scopes), time.UnixMilli(created).UTC(), time.UnixMilli(used).UTC()
	return g, nil
}

func (s *OIDCStore) Grant(ctx context.Context, memberID, clientID string) (oidcprovider.Grant, error) {
	g, err := scanOIDCGrant(s.db.QueryRowContext(ctx, oidcGrantSelect+` WHERE g.member_id = $1 AND g.client_id = $2`, memberID, clientID))
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return g, oidcprovider.ErrNotFound
	}
	if err != nil {
		return g, fmt.Errorf("grant: %w", err)
	}
	return g, nil
}

func (s *OIDCStore) Grants(ctx context.Context, memberID string) ([]oidcprovider.Grant, error) {
	rs, err := s.db.QueryContext(ctx, oidcGrantSelect+` WHERE g.member_id = $1 ORDER BY g.last_used_at DESC, g.client_id`, memberID)
	if err != nil {
		return nil, fmt.Errorf("grants: %w", err)
	}
	defer rs.Close()
	out := []oidcprovider.Grant{}
	for rs.Next() {
		g, err := scanOIDCGrant(rs)
		if err != nil {
			return nil, fmt.Errorf("grants: %w", err)
		}
		out = append(out, g)
	}
	return out, rs.Err()
}

// RevokeGrant takes back the member's grant of the client, its tokens and
// session links, and queues a logout token (sub only: every session of
// the member at the client) when the client takes them.
func (s *OIDCStore) RevokeGrant(ctx context.Context, memberID, clientID string, now time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		var uri string
		err := Translate(tx.QueryRowContext(ctx, `SELECT c.backchannel_logout_uri FROM oidc_grants g JOIN oidc_clients c ON c.id = g.client_id
			WHERE g.member_id = $1 AND g.client_id = $2`, memberID, clientID).Scan(&uri))
		if errors.Is(err, ErrNotFound) {
			return oidcprovider.ErrNotFound
		} else if err != nil {
			return fmt.Errorf("revoke grant: %w", err)
		}
		if uri != "" {
			if err := queueLogout(ctx, tx, clientID, memberID, "", now.UnixMilli()); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`DELETE FROM oidc_grants WHERE member_id = $1 AND client_id = $2`,
			`DELETE FROM oidc_access_tokens WHERE member_id = $1 AND client_id = $2`,
			`DELETE FROM oidc_refresh_tokens WHERE member_id = $1 AND client_id = $2`,
			`DELETE FROM oidc_session_clients WHERE member_id = $1 AND client_id = $2`,
		} {
			if _, err := tx.ExecContext(ctx, q, memberID, clientID); err != nil {
				return fmt.Errorf("revoke grant: %w", err)
			}
		}
		return nil
	})
}

func (s *OIDCStore) Member(ctx context.Context, id string) (oidcprovider.Member, error) {
	var m oidcprovider.Member
	err := s.db.QueryRowContext(ctx, `SELECT id, email, firstname, lastname, lang, COALESCE(member_number, '') FROM members
		WHERE id = $1 AND deleted_at IS NULL AND deactivated_at IS NULL`, id).
		Scan(&m.ID, &m.Email, &m.FirstName, &m.LastName, &m.Lang, &m.MemberNumber)
	if err = Translate(err); errors.Is(err, ErrNotFound) {
		return m, oidcprovider.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("member: %w", err)
	}
	return m, nil
}

func (s *OIDCStore) UseAssertion(ctx context.Context, clientID, jti string, expires, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM oidc_assertions WHERE expires_at < $1`, now.UnixMilli()); err != nil {
		return fmt.Errorf("purge assertions: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO oidc_assertions (client_id, jti, expires_at) VALUES ($1, $2, $3)`, clientID, jti, expires.UnixMilli())
	if err = Translate(err); errors.Is(err, ErrConflict) {
		return oidcprovider.ErrReplayed
	}
	if err != nil {
		return fmt.Errorf("record assertion: %w", err)
	}
	return nil
}

// Logout statuses of oidc_logouts.
const (
	logoutPending = "pending"
	logoutSent    = "sent"
	logoutFailed  = "failed"
)

func (s *OIDCStore) ClaimLogouts(ctx context.Context, now, leaseUntil time.Time, limit int) ([]oidcprovider.Logout, error) {
	rs, err := s.db.QueryContext(ctx, `SELECT id, client_id, subject, sid, attempts, next_attempt_at, created_at FROM oidc_logouts
		WHERE status = $1 AND next_attempt_at <= $2 ORDER BY next_attempt_at LIMIT $3`, logoutPending, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("due logouts: %w", err)
	}
	var due []oidcprovider.Logout
	var next []int64
	for rs.Next() {
		var l oidcprovider.Logout
		var at, created int64
		if err := rs.Scan(&l.ID, &l.ClientID, &l.Subject, &l.SID, &l.Attempts, &at, &created); err != nil {
			_ = rs.Close() // the scan's error is the one to report
			return nil, fmt.Errorf("due logouts: %w", err)
		}
		l.NextAttemptAt, l.CreatedAt = time.UnixMilli(at).UTC(), time.UnixMilli(created).UTC()
		due = append(due, l)
		next = append(next, at)
	}
	if err := rs.Close(); err != nil {
		return nil, fmt.Errorf("due logouts: %w", err)
	}
	out := due[:0]
	for i, l := range due {
		// Reserve it; another instance that read it too loses here.
		res, err := s.db.ExecContext(ctx, `UPDATE oidc_logouts SET next_attempt_at = $1 WHERE id = $2 AND status = $3 AND next_attempt_at = $4`,
			leaseUntil.UnixMilli(), l.ID, logoutPending, next[i])
		if err != nil {
			return nil, fmt.Errorf("claim logout: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			out = append(out, l)
		}
	}
	return out, nil
}

func (s *OIDCStore) LogoutSent(ctx context.Context, id string, at time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE oidc_logouts SET status = $1, sent_at = $2, last_error = '' WHERE id = $3`,
		logoutSent, at.UnixMilli(), id); err != nil {
		return fmt.Errorf("logout sent: %w", err)
	}
	return nil
}

func (s *OIDCStore) LogoutFailed(ctx context.Context, id string, attempts int, last bool, next time.Time, lastErr string) error {
	status := logoutPending
	if last {
		status = logoutFailed
	}
	if len(lastErr) > 500 {
		lastErr = lastErr[:500]
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE oidc_logouts SET attempts = $1, status = $2, next_attempt_at = $3, last_error = $4 WHERE id = $5`,
		attempts, status, next.UnixMilli(), lastErr, id); err != nil {
		return fmt.Errorf("logout attempt: %w", err)
	}
	return nil
}

// Purge deletes run-out requests, tokens and assertion ids, delivered
// logouts after a week and given-up ones after 30 days.
func (s *OIDCStore) Purge(ctx context.Context, now time.Time) error {
	ms := now.UnixMilli()
	for _, q := range []struct {
		sql string
		arg int64
	}{
		{`DELETE FROM oidc_auth_requests WHERE expires_at < $1`, ms},
		{`DELETE FROM oidc_access_tokens WHERE expires_at < $1`, ms},
		{`DELETE FROM oidc_refresh_tokens WHERE expires_at < $1`, ms},
		{`DELETE FROM oidc_assertions WHERE expires_at < $1`, ms},
		{`DELETE FROM oidc_logouts WHERE status = 'sent' AND sent_at < $1`, now.Add(-7 * 24 * time.Hour).UnixMilli()},
		{`DELETE FROM oidc_logouts WHERE status = 'failed' AND created_at < $1`, now.Add(-30 * 24 * time.Hour).UnixMilli()},
	} {
		if _, err := s.db.ExecContext(ctx, q.sql, q.arg); err != nil {
			return fmt.Errorf("oidc purge: %w", err)
		}
	}
	return nil
}

// queueLogout puts a logout token for the client in the outbox.
func queueLogout(ctx context.Context, tx *sql.Tx, clientID, subject, sid string, now int64) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_logouts (id, client_id, subject, sid, status, attempts, next_attempt_at, created_at)
		VALUES ($1, $2, $3, $4, $5, 0, $6, $6)`, NewID(), clientID, subject, sid, logoutPending, now); err != nil {
		return fmt.Errorf("queue logout: %w", err)
	}
	return nil
}

// oidcSessionsEnded is called in the transaction that ends sessions of a
// member on purpose (before they are deleted): each client those sessions
// signed in to gets a logout token with the session's sid, and the tokens
// those sessions approved are revoked. one names a single session (a
// logout, a device signed out from the security centre); else every
// session of memberID but keep ends ("End all other sessions", a password
// change).
func oidcSessionsEnded(ctx context.Context, tx *sql.Tx, now int64, memberID, one, keep string) error {
	cond, args := `member_id = $1 AND session_hash <> $2`, []any{memberID, keep}
	if one != "" {
		cond, args = `session_hash = $1`, []any{one}
	}
	rs, err := tx.QueryContext(ctx, `SELECT sc.client_id, sc.member_id, sc.sid FROM oidc_session_clients sc
		JOIN oidc_clients c ON c.id = sc.client_id AND c.backchannel_logout_uri <> ''
		WHERE sc.session_hash IN (SELECT session_hash FROM oidc_session_clients WHERE `+cond+`)`, args...) // #nosec G202 -- cond is one of the two constants above
	if err != nil {
		return fmt.Errorf("sessions' clients: %w", err)
	}
	type link struct{ client, member, sid string }
	var links []link
	for rs.Next() {
		var l link
		if err := rs.Scan(&l.client, &l.member, &l.sid); err != nil {
			_ = rs.Close() // the scan's error is the one to report
			return fmt.Errorf("sessions' clients: %w", err)
		}
		links = append(links, l)
	}
	if err := rs.Close(); err != nil {
		return fmt.Errorf("sessions' clients: %w", err)
	}
	for _, l := range links {
		if err := queueLogout(ctx, tx, l.client, l.member, l.sid, now); err != nil {
			return err
		}
	}
	for _, table := range []string{"oidc_access_tokens", "oidc_refresh_tokens", "oidc_session_clients"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+cond, args...); err != nil { // #nosec G202 -- fixed table names and conditions
			return fmt.Errorf("end sessions' sign-ins: %w", err)
		}
	}
	return nil
}

// oidcMemberSignedOut is called in the transaction that ends every
// session of the member (a password reset, an erasure, a deactivation):
// each client the member granted gets a logout token without sid (every
// session of the member there), and all the member's tokens are revoked.
func oidcMemberSignedOut(ctx context.Context, tx *sql.Tx, now int64, memberID string) error {
	rs, err := tx.QueryContext(ctx, `SELECT g.client_id FROM oidc_grants g
		JOIN oidc_clients c ON c.id = g.client_id AND c.backchannel_logout_uri <> '' WHERE g.member_id = $1`, memberID)
	if err != nil {
		return fmt.Errorf("member's clients: %w", err)
	}
	var clients []string
	for rs.Next() {
		var c string
		if err := rs.Scan(&c); err != nil {
			_ = rs.Close() // the scan's error is the one to report
			return fmt.Errorf("member's clients: %w", err)
		}
		clients = append(clients, c)
	}
	if err := rs.Close(); err != nil {
		return fmt.Errorf("member's clients: %w", err)
	}
	for _, c := range clients {
		if err := queueLogout(ctx, tx, c, memberID, "", now); err != nil {
			return err
		}
	}
	for _, table := range []string{"oidc_access_tokens", "oidc_refresh_tokens", "oidc_session_clients"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE member_id = $1`, memberID); err != nil { // #nosec G202 -- fixed table names
			return fmt.Errorf("end member's sign-ins: %w", err)
		}
	}
	return nil
}
