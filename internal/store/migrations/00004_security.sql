-- Security fixes: confirmed e-mail changes and single-use
-- hand-over tokens.

-- +goose Up

-- An e-mail change waits here until the link mailed to the new address is
-- followed (confirmed_at). The old address gets an undo link that works
-- until undo_until, before or after the confirmation. Only SHA-256 hashes
-- of the two link tokens are stored.
CREATE TABLE email_changes (
    id           TEXT PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    old_email    TEXT NOT NULL,
    new_email    TEXT NOT NULL,
    confirm_hash TEXT NOT NULL UNIQUE,
    undo_hash    TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    undo_until   BIGINT NOT NULL,
    confirmed_at BIGINT,
    undone_at    BIGINT
);
CREATE INDEX email_changes_member ON email_changes(member_id);

-- Hand-over tokens to the booking site already redeemed: a token id can be
-- inserted once; rows past their expiry are purged.
CREATE TABLE handover_redemptions (
    token_id   TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX handover_redemptions_expires ON handover_redemptions(expires_at);

-- +goose Down
DROP TABLE handover_redemptions;
DROP TABLE email_changes;
