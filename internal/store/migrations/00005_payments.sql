-- +goose Up
-- Saved cards: the gateway's token and what may be shown (brand, last four
-- digits, expiry, holder). Card numbers and CVV never reach this database.
-- currency is the card's scope: JPY, NON_JPY or ALL.
CREATE TABLE saved_cards (
    gateway         TEXT NOT NULL,
    token           TEXT NOT NULL,
    member_id       TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    brand           TEXT NOT NULL,
    last4           TEXT NOT NULL,
    expiration_date TEXT NOT NULL,
    holder_name     TEXT NOT NULL,
    currency        TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    PRIMARY KEY (gateway, token)
);
CREATE INDEX saved_cards_member ON saved_cards(member_id, created_at);

-- One payment process per purchase: a state machine
-- prepared -> pending -> settled | failed | expired, settled -> refunded.
-- Every change is a conditional UPDATE on status, so an illegal or repeated
-- transition changes nothing. lease_owner/lease_until and next_check_at are
-- the background work (status checks, expiry, notifications) that several
-- instances share without doing it twice.
CREATE TABLE payment_processes (
    id                 TEXT PRIMARY KEY,
    member_id          TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    request_id         TEXT NOT NULL,
    request_hash       TEXT NOT NULL,
    product_type       TEXT NOT NULL,
    status             TEXT NOT NULL,
    lang               TEXT NOT NULL,
    amount             BIGINT NOT NULL,
    currency           TEXT NOT NULL,
    description        TEXT NOT NULL,
    details            TEXT NOT NULL,
    payment_method     TEXT NOT NULL,
    other_payment_type TEXT NOT NULL DEFAULT '',
    card_gateway       TEXT NOT NULL DEFAULT '',
    card_token         TEXT NOT NULL DEFAULT '',
    card_brand         TEXT NOT NULL DEFAULT '',
    card_last4         TEXT NOT NULL DEFAULT '',
    card_expiration    TEXT NOT NULL DEFAULT '',
    card_holder        TEXT NOT NULL DEFAULT '',
    save_card          BOOLEAN NOT NULL DEFAULT FALSE,
    save_card_currency TEXT NOT NULL DEFAULT '',
    gateway_payment_id TEXT NOT NULL DEFAULT '',
    gateway_status     TEXT NOT NULL DEFAULT '',
    next_action_url    TEXT NOT NULL DEFAULT '',
    failure_code       TEXT NOT NULL DEFAULT '',
    goods              TEXT NOT NULL DEFAULT '',
    secret             TEXT NOT NULL DEFAULT '',
    refunded_amount    BIGINT NOT NULL DEFAULT 0,
    notified           BOOLEAN NOT NULL DEFAULT TRUE,
    lease_owner        TEXT NOT NULL DEFAULT '',
    lease_until        BIGINT NOT NULL DEFAULT 0,
    next_check_at      BIGINT NOT NULL DEFAULT 0,
    expires_at         BIGINT NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    settled_at         BIGINT
);
-- The same requestId answers the same process.
CREATE UNIQUE INDEX payment_processes_request ON payment_processes(member_id, request_id);
-- At most one open (prepared or pending) process per member: the pending
-- block holds even for two requests at the same instant.
CREATE UNIQUE INDEX payment_processes_open ON payment_processes(member_id) WHERE status IN ('prepared', 'pending');
CREATE INDEX payment_processes_work ON payment_processes(next_check_at) WHERE status IN ('prepared', 'pending');
CREATE INDEX payment_processes_unnotified ON payment_processes(settled_at) WHERE notified = FALSE;

-- Refunds by reason: the gateway call's idempotency key is the process id
-- and the reason, and done flips once, so a repeated refund moves no money.
CREATE TABLE payment_refunds (
    process_id TEXT NOT NULL REFERENCES payment_processes(id) ON DELETE CASCADE,
    reason     TEXT NOT NULL,
    amount     BIGINT NOT NULL,
    done       BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (process_id, reason)
);

-- Gateway webhook events already handled (each event id once).
CREATE TABLE payment_webhook_events (
    event_id    TEXT PRIMARY KEY,
    type        TEXT NOT NULL,
    received_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE payment_webhook_events;
DROP TABLE payment_refunds;
DROP TABLE payment_processes;
DROP TABLE saved_cards;
