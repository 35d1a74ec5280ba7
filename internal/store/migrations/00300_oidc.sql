-- +goose Up
-- The OpenID Connect provider (internal/oidcprovider, docs/security.md):
-- the operator's clients, authorization requests and their codes, the
-- tokens handed out, the members' grants, which sessions signed in to
-- which client (for back-channel logout) and the outbox of logout tokens.
-- Secrets, codes and tokens are stored as SHA-256 hashes only.

-- Clients, made by `members oidc clients add`. redirect_uris and
-- post_logout_redirect_uris are JSON arrays matched exactly; jwks is the
-- client's public keys (JSON Web Key Set) for private_key_jwt. A rotated
-- secret's previous hash keeps working until previous_secret_until.
CREATE TABLE oidc_clients (
    id                        TEXT PRIMARY KEY,
    name                      TEXT NOT NULL,
    auth_method               TEXT NOT NULL,
    secret_hash               TEXT NOT NULL DEFAULT '',
    previous_secret_hash      TEXT NOT NULL DEFAULT '',
    previous_secret_until     BIGINT NOT NULL DEFAULT 0,
    jwks                      TEXT NOT NULL DEFAULT '',
    redirect_uris             TEXT NOT NULL,
    post_logout_redirect_uris TEXT NOT NULL DEFAULT '[]',
    backchannel_logout_uri    TEXT NOT NULL DEFAULT '',
    first_party               BOOLEAN NOT NULL DEFAULT FALSE,
    created_at                BIGINT NOT NULL
);

-- Authorization requests, from /oidc/authorize until their code is spent
-- (and a while after, so that a second use of the code is recognised and
-- revokes what the first gave). request is the parsed request as JSON.
-- browser_hash binds the request to the browser that made it. member_id,
-- session_hash and auth_time are set when the member approves; code_hash
-- when the code is handed out; code_used_at when it is exchanged.
CREATE TABLE oidc_auth_requests (
    id              TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL REFERENCES oidc_clients(id) ON DELETE CASCADE,
    request         TEXT NOT NULL,
    browser_hash    TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    member_id       TEXT REFERENCES members(id) ON DELETE CASCADE,
    session_hash    TEXT NOT NULL DEFAULT '',
    auth_time       BIGINT NOT NULL DEFAULT 0,
    code_hash       TEXT UNIQUE,
    code_expires_at BIGINT NOT NULL DEFAULT 0,
    code_used_at    BIGINT
);
CREATE INDEX oidc_auth_requests_expires ON oidc_auth_requests(expires_at);

-- Access tokens (opaque: the id travels encrypted) and refresh tokens. A
-- refresh token belongs to a family, started by one code; each use
-- replaces it (used_at set, a new one in the family), and presenting a
-- used one revokes the whole family with its access tokens.
-- auth_request_id names the code the family came from; session_hash the
-- member's session here that approved it (its end revokes them).
CREATE TABLE oidc_access_tokens (
    id              TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL REFERENCES oidc_clients(id) ON DELETE CASCADE,
    member_id       TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    scopes          TEXT NOT NULL,
    family_id       TEXT NOT NULL,
    auth_request_id TEXT NOT NULL,
    session_hash    TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX oidc_access_tokens_family ON oidc_access_tokens(family_id);
CREATE INDEX oidc_access_tokens_member ON oidc_access_tokens(member_id, client_id);
CREATE INDEX oidc_access_tokens_expires ON oidc_access_tokens(expires_at);

CREATE TABLE oidc_refresh_tokens (
    token_hash      TEXT PRIMARY KEY,
    family_id       TEXT NOT NULL,
    client_id       TEXT NOT NULL REFERENCES oidc_clients(id) ON DELETE CASCADE,
    member_id       TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    scopes          TEXT NOT NULL,
    auth_request_id TEXT NOT NULL,
    session_hash    TEXT NOT NULL DEFAULT '',
    auth_time       BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    used_at         BIGINT
);
CREATE INDEX oidc_refresh_tokens_family ON oidc_refresh_tokens(family_id);
CREATE INDEX oidc_refresh_tokens_member ON oidc_refresh_tokens(member_id, client_id);
CREATE INDEX oidc_refresh_tokens_expires ON oidc_refresh_tokens(expires_at);

-- What a member let a client have (the scopes, space-separated), and when
-- the client last signed the member in: "Sites that use your account".
CREATE TABLE oidc_grants (
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    client_id    TEXT NOT NULL REFERENCES oidc_clients(id) ON DELETE CASCADE,
    scopes       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, client_id)
);
CREATE INDEX oidc_grants_client ON oidc_grants(client_id);

-- Which of a member's sessions here signed in to which client: the end of
-- that session sends the client a logout token with its sid (derived from
-- the session's hash, oidcprovider.SID).
CREATE TABLE oidc_session_clients (
    session_hash TEXT NOT NULL,
    sid          TEXT NOT NULL,
    client_id    TEXT NOT NULL REFERENCES oidc_clients(id) ON DELETE CASCADE,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (session_hash, client_id)
);
CREATE INDEX oidc_session_clients_member ON oidc_session_clients(member_id);

-- Back-channel logout tokens to deliver (an outbox, as mail_outbox): put
-- in by the same transaction that ends the sessions, delivered and retried
-- by a worker. sid is '' for a logout of every session of the member.
-- status: pending, sent, failed (gave up after the last retry).
CREATE TABLE oidc_logouts (
    id              TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL REFERENCES oidc_clients(id) ON DELETE CASCADE,
    subject         TEXT NOT NULL,
    sid             TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    sent_at         BIGINT
);
CREATE INDEX oidc_logouts_due ON oidc_logouts(status, next_attempt_at);

-- The ids (jti) of private_key_jwt client assertions already used, until
-- the assertion expires: a replayed assertion is refused.
CREATE TABLE oidc_assertions (
    client_id  TEXT NOT NULL,
    jti        TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (client_id, jti)
);
CREATE INDEX oidc_assertions_expires ON oidc_assertions(expires_at);

-- +goose Down
DROP TABLE oidc_assertions;
DROP TABLE oidc_logouts;
DROP TABLE oidc_session_clients;
DROP TABLE oidc_grants;
DROP TABLE oidc_refresh_tokens;
DROP TABLE oidc_access_tokens;
DROP TABLE oidc_auth_requests;
DROP TABLE oidc_clients;
