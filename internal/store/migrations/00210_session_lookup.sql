-- +goose Up
-- The session lookup of every request reads the member's row for "not
-- deleted" and the bookings version (which a kept answer of the booking
-- search is checked against in the same read) from this index: a
-- member's row in its table is wide, and SQLite found it through the
-- primary key's index first, then the table.
CREATE INDEX members_live ON members(id, deleted_at, bookings_version);

-- +goose Down
DROP INDEX members_live;
