-- +goose Up
-- Your calendar: one private subscription per member. Only the SHA-256 hash
-- of the secret token is kept; renewing replaces it (the old URL stops
-- working). last_used_at is the last fetch by the member's calendar app.
CREATE TABLE calendar_feeds (
    member_id    TEXT PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);

-- +goose Down
DROP TABLE calendar_feeds;
