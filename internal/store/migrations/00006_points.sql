-- +goose Up
-- Peach Points: stored-value vouchers, their ledger, exchange codes and the
-- expiry reminders already sent. A voucher's balance only changes together
-- with a ledger entry (same transaction); the CHECK keeps it from going
-- negative even if a caller forgets the guard in its UPDATE.
CREATE TABLE point_vouchers (
    id                    TEXT PRIMARY KEY,
    member_id             TEXT REFERENCES members(id) ON DELETE SET NULL,
    number                TEXT NOT NULL UNIQUE,
    current_code          TEXT NOT NULL,
    currency              TEXT NOT NULL,
    issued_amount         BIGINT NOT NULL CHECK (issued_amount > 0),
    balance               BIGINT NOT NULL CHECK (balance >= 0),
    effective_date        TEXT NOT NULL,
    expire_date           TEXT NOT NULL,
    travel_effective_date TEXT NOT NULL,
    travel_expire_date    TEXT NOT NULL,
    pin_hash              TEXT NOT NULL,
    status_code           TEXT NOT NULL,
    rules                 TEXT NOT NULL DEFAULT '[]',
    source                TEXT NOT NULL,
    issued_name           TEXT NOT NULL DEFAULT '',
    payment_amount        BIGINT NOT NULL DEFAULT 0,
    payment_method        TEXT NOT NULL DEFAULT '',
    -- At most one voucher per settled payment, per exchange code and per
    -- reissued voucher: the second guard behind the conditional updates.
    payment_process_id    TEXT UNIQUE,
    exchange_code_id      TEXT UNIQUE,
    reissued_from         TEXT UNIQUE REFERENCES point_vouchers(id),
    created_at            BIGINT NOT NULL
);
CREATE INDEX point_vouchers_member ON point_vouchers (member_id, expire_date);

CREATE TABLE point_ledger (
    id            TEXT PRIMARY KEY,
    voucher_id    TEXT NOT NULL REFERENCES point_vouchers(id),
    seq           INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    delta         BIGINT NOT NULL,
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    reference     TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL,
    UNIQUE (voucher_id, seq)
);

CREATE TABLE point_exchange_codes (
    id            TEXT PRIMARY KEY,
    code          TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    currency      TEXT NOT NULL,
    amount        BIGINT NOT NULL CHECK (amount > 0),
    ana           BOOLEAN NOT NULL DEFAULT FALSE,
    used_at       BIGINT,
    used_by       TEXT REFERENCES members(id) ON DELETE SET NULL,
    created_at    BIGINT NOT NULL
);

-- One row per voucher and threshold (days before expiry) whose reminder was
-- claimed; the primary key makes the claim safe with several instances.
CREATE TABLE point_reminders (
    voucher_id     TEXT NOT NULL REFERENCES point_vouchers(id),
    threshold_days INTEGER NOT NULL,
    sent_at        BIGINT NOT NULL,
    PRIMARY KEY (voucher_id, threshold_days)
);

-- +goose Down
DROP TABLE point_reminders;
DROP TABLE point_exchange_codes;
DROP TABLE point_ledger;
DROP TABLE point_vouchers;
