-- +goose Up
-- The secret parts of a mail waiting in the outbox (a voucher PIN, the
-- token of a single-use link), apart from its text: the stored subject,
-- bodies and headers hold a placeholder for each (mail.Seal), the values
-- are here as JSON [{"p": placeholder, "v": value}], put back when the
-- mail is delivered and deleted in the transaction that marks it sent or
-- given up. A mail held without SMTP keeps them: the outbox is then its
-- only destination.
CREATE TABLE mail_secrets (
    mail_id TEXT PRIMARY KEY REFERENCES mail_outbox(id) ON DELETE CASCADE,
    secrets TEXT NOT NULL
);

-- Mails sent (or given up) before: their bodies carry the PIN or the live
-- link itself, with nothing to tell it from the rest of the text. The
-- kinds that carry one lose their bodies; the row (kind, recipient,
-- subject, dates, status) stays.
UPDATE mail_outbox SET
    text_body = '[removed: sent before the outbox kept secrets apart]',
    html_body = '<p>[removed: sent before the outbox kept secrets apart]</p>'
WHERE status IN ('sent', 'failed')
  AND (kind LIKE 'points\_%' ESCAPE '\' OR kind IN ('password_reset', 'email_change_confirm', 'email_change_notice', 'account_deletion'));

-- +goose Down
DROP TABLE mail_secrets;
