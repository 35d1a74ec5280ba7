-- +goose Up
-- Passkeys (WebAuthn credentials) of members. credential_id is the raw
-- credential id in base64url (unique: one authenticator credential belongs
-- to one member); credential is go-webauthn's Credential as JSON (public
-- key, sign count, flags, transports, AAGUID), read back for each
-- assertion. Only name and times are ever shown or exported.
CREATE TABLE passkeys (
    id            TEXT PRIMARY KEY,
    member_id     TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL UNIQUE,
    credential    TEXT NOT NULL,
    name          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT
);
CREATE INDEX passkeys_member ON passkeys(member_id, created_at);

-- WebAuthn ceremonies in progress: the challenge and the rest of
-- go-webauthn's SessionData as JSON, kept in the database so that any
-- instance can finish what another began. A row is taken (deleted) by the
-- first finish, so it is single use; expired rows are purged when new ones
-- are made. member_id is NULL for a sign-in (the member is not known yet).
CREATE TABLE webauthn_challenges (
    id         TEXT PRIMARY KEY,
    member_id  TEXT REFERENCES members(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,
    session    TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX webauthn_challenges_expires ON webauthn_challenges(expires_at);

-- +goose Down
DROP TABLE webauthn_challenges;
DROP TABLE passkeys;
