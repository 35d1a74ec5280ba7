-- +goose Up
-- The flight change mails owed to members: one row per flight and member,
-- however many of the member's bookings hold the flight. sequence is the
-- flight's latest change for the member, sent_sequence the last one
-- mailed; due_at is when the pending mail may go (changes inside the
-- coalescing window fold into one mail with the latest state). A sender
-- takes a row with a lease (lease_owner, lease_until), so instances
-- sharing the database mail each change once.
CREATE TABLE flight_alerts (
    flight        TEXT NOT NULL,
    flight_date   TEXT NOT NULL,
    member_id     TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    sequence      INTEGER NOT NULL,
    sent_sequence INTEGER NOT NULL DEFAULT 0,
    due_at        BIGINT NOT NULL,
    lease_owner   TEXT NOT NULL DEFAULT '',
    lease_until   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (flight, flight_date, member_id)
);
CREATE INDEX flight_alerts_due ON flight_alerts(due_at);
CREATE INDEX flight_alerts_member ON flight_alerts(member_id);

-- +goose Down
DROP TABLE flight_alerts;
