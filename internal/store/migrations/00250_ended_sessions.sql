-- +goose Up
-- Sessions a member signed out from the security centre (one device, or
-- every other one): the hash of the token only, kept while such a session
-- could still have been alive (its absolute lifetime), so that the device
-- that was signed out is told so ("signed out from another device"), not
-- "due to inactivity". The hash names no one: the member id is not kept.
CREATE TABLE ended_sessions (
    id_hash TEXT PRIMARY KEY,
    ended_at BIGINT NOT NULL
);
CREATE INDEX ended_sessions_ended_at ON ended_sessions (ended_at);

-- +goose Down
DROP TABLE ended_sessions;
