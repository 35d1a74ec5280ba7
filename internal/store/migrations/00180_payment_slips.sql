-- +goose Up
-- The numbers a convenience-store / ATM / net-banking slip is paid with
-- (JSON, as the gateway gave them), recorded once when the gateway issues
-- the slip: the write that sets it from empty is the one that mails it.
ALTER TABLE payment_processes ADD COLUMN slip TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE payment_processes DROP COLUMN slip;
