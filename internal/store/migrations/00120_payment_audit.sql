-- +goose Up
-- What the payment engine found wrong with a gateway's word: a webhook whose
-- claim differs from the gateway's own record, or a gateway record whose
-- amount, currency or reference differs from the process. The process is
-- not settled on it; an operator looks at each row.
CREATE TABLE payment_discrepancies (
    id          TEXT PRIMARY KEY,
    process_id  TEXT NOT NULL,
    source      TEXT NOT NULL,
    event_id    TEXT NOT NULL DEFAULT '',
    gateway_payment_id TEXT NOT NULL DEFAULT '',
    detail      TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX payment_discrepancies_process ON payment_discrepancies(process_id, created_at);

-- Background jobs that one instance runs at a time (the gateway
-- reconciliation): a lease as on payment processes, and the next run.
CREATE TABLE payment_jobs (
    name        TEXT PRIMARY KEY,
    lease_owner TEXT NOT NULL DEFAULT '',
    lease_until BIGINT NOT NULL DEFAULT 0,
    next_run_at BIGINT NOT NULL DEFAULT 0,
    last_run_at BIGINT NOT NULL DEFAULT 0
);

-- +goose Down
DROP TABLE payment_jobs;
DROP TABLE payment_discrepancies;
