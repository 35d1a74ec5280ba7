-- +goose Up
-- A new password link deletes the member's older links and every link
-- expired for a day ("member_id = $1 OR expires_at < $2"): without an index
-- on the expiry that was a scan of the whole table for every link made,
-- and the members import, which makes one for every member it creates
-- without a password, slowed down with each one (quadratic in the
-- members imported). With it both engines look up both parts by index.
CREATE INDEX password_resets_expires ON password_resets(expires_at);

-- +goose Down
DROP INDEX password_resets_expires;
