-- +goose Up
-- The security centre's recent events (sign-ins, failures, changes), kept
-- 90 days (purged hourly). device groups sign-ins by browser family, OS and
-- kind to find a device not seen before.
CREATE TABLE security_events (
    id          TEXT PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    at          BIGINT NOT NULL,
    client_addr TEXT NOT NULL DEFAULT '',
    user_agent  TEXT NOT NULL DEFAULT '',
    device      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX security_events_member ON security_events(member_id, at);
CREATE INDEX security_events_at ON security_events(at);

-- +goose Down
DROP TABLE security_events;
