-- +goose Up
-- A process's secret (a bought voucher's PIN) is shown once on the
-- purchase's page and mailed. secret_mailed_at is when the outbox stored
-- the mail that holds it (0: not yet, or the mail could not be stored):
-- the payment worker erases the secret 10 minutes after that (the page's
-- window to show it), and at the latest once the settlement is older than
-- the mail retention, whether or not the page ever asked.
ALTER TABLE payment_processes ADD COLUMN secret_mailed_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX payment_processes_secret ON payment_processes(settled_at) WHERE secret <> '';

-- +goose Down
DROP INDEX payment_processes_secret;
ALTER TABLE payment_processes DROP COLUMN secret_mailed_at;
