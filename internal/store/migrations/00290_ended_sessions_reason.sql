-- +goose Up
-- Why a session was ended on purpose: 'elsewhere' (the member signed the
-- device out from the security centre: the page says "signed out from
-- another device") or 'ended' (a password change or reset, the account's
-- deletion). A session that only ran out has no row: the device keeps the
-- trips it was told to keep (docs/offline.md), and erases them on a row.
ALTER TABLE ended_sessions ADD COLUMN reason TEXT NOT NULL DEFAULT 'elsewhere';

-- +goose Down
ALTER TABLE ended_sessions DROP COLUMN reason;
