-- +goose Up
-- Account deletion: a confirmation token (hash only) mailed after the member
-- re-authenticated, valid one hour; deleted_at marks an anonymised member
-- row (kept so payments and vouchers the airline must keep still point at
-- a member, with no personal data left in it).
CREATE TABLE account_deletions (
    member_id  TEXT PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
ALTER TABLE members ADD COLUMN deleted_at BIGINT;

-- +goose Down
ALTER TABLE members DROP COLUMN deleted_at;
DROP TABLE account_deletions;
