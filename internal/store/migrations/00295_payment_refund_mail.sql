-- +goose Up
-- A refund made ends the goods it pays back in the transaction that
-- records it (the coupon pass: disabled, no longer usable or refundable),
-- so no state has the refund recorded and the goods still usable. The
-- member's mail about it is owed from that transaction
-- (refund_mail_owed) until the outbox holds it: a crash in between
-- leaves it to the payment worker's sweep, a minute later.
ALTER TABLE payment_processes ADD COLUMN refund_mail_owed BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX payment_processes_refund_mail ON payment_processes(updated_at) WHERE refund_mail_owed;

-- +goose Down
DROP INDEX payment_processes_refund_mail;
ALTER TABLE payment_processes DROP COLUMN refund_mail_owed;
