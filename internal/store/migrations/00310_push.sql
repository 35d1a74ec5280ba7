-- +goose Up
-- Web Push: the devices on which a member switched on the alerts of their
-- flights' changes, and the pushes owed to them.
--
-- One row per browser subscription (endpoint, unique: a device's endpoint
-- belongs to one member at a time), with the keys of its message
-- encryption. session_hash is the session that made or last renewed it:
-- a logout of that session, or "sign out" of that device from the
-- security centre, removes it; it outlives the session's own expiry, so
-- a member whose session ran out still gets the alerts on the lock screen.
CREATE TABLE push_subscriptions (
    id           TEXT PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    endpoint     TEXT NOT NULL UNIQUE,
    p256dh       TEXT NOT NULL,
    auth         TEXT NOT NULL,
    session_hash TEXT NOT NULL,
    user_agent   TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    last_push_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX push_subscriptions_member ON push_subscriptions(member_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions(session_hash);

-- The pushes owed: one row per device and flight change (the flight's
-- change sequence), written in the transaction that applies the change,
-- beside the flight change mail it owes. notice is what the push says
-- (the flight's state after the change, the member's bookings on it), as
-- JSON; the text is written in the member's language when it is sent.
-- status: pending (next_attempt_at is when it may go, pushed forward by a
-- sender's lease), sent, or failed (given up). A subscription deleted
-- (404 or 410 from the push service, switched off) takes its rows along.
CREATE TABLE push_queue (
    subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
    flight          TEXT NOT NULL,
    flight_date     TEXT NOT NULL,
    sequence        INTEGER NOT NULL,
    member_id       TEXT NOT NULL,
    notice          TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    sent_at         BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (subscription_id, flight, flight_date, sequence)
);
CREATE INDEX push_queue_due ON push_queue(status, next_attempt_at);

-- +goose Down
DROP TABLE push_queue;
DROP TABLE push_subscriptions;
