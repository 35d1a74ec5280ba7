-- +goose Up
-- The booking site's member number (the provisioning feed's key: a retry
-- never makes two members; NULL for members made here, as the demo's) and
-- the deactivation the booking site can ask for (a deactivated member
-- cannot sign in and has no live session). An erasure clears the number,
-- so the booking site may provision the same number again as a new member.
ALTER TABLE members ADD COLUMN member_number TEXT;
ALTER TABLE members ADD COLUMN deactivated_at BIGINT;
CREATE UNIQUE INDEX members_member_number ON members (member_number) WHERE member_number IS NOT NULL;

-- +goose Down
DROP INDEX members_member_number;
ALTER TABLE members DROP COLUMN deactivated_at;
ALTER TABLE members DROP COLUMN member_number;
