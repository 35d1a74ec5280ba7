-- The sandbox gateway's own tables (prefix gw_), versioned in their own
-- goose table (gateway_goose_version) so they never mix with the members
-- schema even when both live in one database.

-- +goose Up
CREATE TABLE gw_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- A token keeps what a receipt shows, never the number or the CVV:
-- behaviour is the sandbox outcome derived from the test card number.
CREATE TABLE gw_tokens (
    token       TEXT PRIMARY KEY,
    brand       TEXT NOT NULL,
    last4       TEXT NOT NULL,
    expiration  TEXT NOT NULL,
    holder_name TEXT NOT NULL,
    behaviour   TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE TABLE gw_payments (
    id              TEXT PRIMARY KEY,
    status          TEXT NOT NULL,
    amount          BIGINT NOT NULL,
    currency        TEXT NOT NULL,
    method          TEXT NOT NULL,
    reference       TEXT NOT NULL,
    description     TEXT NOT NULL,
    return_url      TEXT NOT NULL,
    token           TEXT NOT NULL,
    brand           TEXT NOT NULL,
    last4           TEXT NOT NULL,
    behaviour       TEXT NOT NULL,
    failure_code    TEXT NOT NULL,
    refunded_amount BIGINT NOT NULL,
    expires_at      BIGINT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX gw_payments_reference ON gw_payments (reference);
CREATE INDEX gw_payments_expiry ON gw_payments (status, expires_at);

-- One row per Idempotency-Key: the hash of the first request and the answer
-- it got, written in the transaction that moved the money.
CREATE TABLE gw_idempotency (
    idem_key     TEXT PRIMARY KEY,
    request_hash TEXT NOT NULL,
    status_code  INTEGER NOT NULL,
    response     TEXT NOT NULL,
    created_at   BIGINT NOT NULL
);

-- The webhook queue: a worker leases due rows (lease_owner, lease_until)
-- so that two gateway instances never send the same attempt.
CREATE TABLE gw_events (
    id              TEXT PRIMARY KEY,
    type            TEXT NOT NULL,
    payment_id      TEXT NOT NULL,
    payload         TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    attempts        INTEGER NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    lease_owner     TEXT NOT NULL,
    lease_until     BIGINT NOT NULL,
    delivered_at    BIGINT,
    last_error      TEXT NOT NULL
);
CREATE INDEX gw_events_due ON gw_events (delivered_at, next_attempt_at);

-- Every delivery attempt; the key (event_id, attempt) refuses a second
-- send of the same attempt.
CREATE TABLE gw_deliveries (
    event_id    TEXT NOT NULL,
    attempt     INTEGER NOT NULL,
    worker      TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    error       TEXT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (event_id, attempt)
);

-- +goose Down
DROP TABLE gw_deliveries;
DROP TABLE gw_events;
DROP TABLE gw_idempotency;
DROP TABLE gw_payments;
DROP TABLE gw_tokens;
DROP TABLE gw_keys;
