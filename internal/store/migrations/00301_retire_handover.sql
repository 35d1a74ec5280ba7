-- +goose Up
-- The booking site signs members in with OpenID Connect (00300): the
-- HMAC hand-over tokens and their single-use record are retired. The ids
-- kept could never be presented again; the key the demo and tests kept in
-- the database is overwritten (its row stays, its secret goes).
DROP TABLE handover_redemptions;
UPDATE settings SET value = '"retired"' WHERE key = 'secret:booking-handover';

-- +goose Down
CREATE TABLE handover_redemptions (
    token_id   TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX handover_redemptions_expires ON handover_redemptions(expires_at);
