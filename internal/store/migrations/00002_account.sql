-- +goose Up
-- Saved passengers, password-reset tokens and the mail outbox.

-- A member's saved passengers (at most 20 each, enforced by the service).
CREATE TABLE passengers (
    id                          TEXT PRIMARY KEY,
    member_id                   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    passenger_type              TEXT NOT NULL DEFAULT 'ADULT',
    firstname                   TEXT NOT NULL,
    lastname                    TEXT NOT NULL,
    gender                      TEXT NOT NULL,
    birth                       TEXT NOT NULL,
    tel                         TEXT NOT NULL DEFAULT '',
    email                       TEXT NOT NULL DEFAULT '',
    passport_no                 TEXT NOT NULL DEFAULT '',
    passport_nationality_code   TEXT NOT NULL DEFAULT '',
    passport_issue_country_code TEXT NOT NULL DEFAULT '',
    passport_expiration_date    TEXT NOT NULL DEFAULT '',
    created_at                  BIGINT NOT NULL,
    updated_at                  BIGINT NOT NULL
);
CREATE INDEX passengers_member ON passengers(member_id, created_at);

-- Password-reset links: only the SHA-256 of the token is stored; a link is
-- single-use (used_at) and expires an hour after it is issued.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX password_resets_member ON password_resets(member_id);

-- Every mail the product sends, kept whether or not SMTP delivered it.
-- status: pending (to deliver), sent, held (no SMTP configured: the outbox
-- is the destination), failed (gave up after the last retry).
-- attachments is JSON [{name, contentType, data(base64)}].
CREATE TABLE mail_outbox (
    id              TEXT PRIMARY KEY,
    created_at      BIGINT NOT NULL,
    kind            TEXT NOT NULL DEFAULT '',
    to_addr         TEXT NOT NULL,
    lang            TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    html_body       TEXT NOT NULL,
    attachments     TEXT NOT NULL DEFAULT '[]',
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    sent_at         BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at);
CREATE INDEX mail_outbox_created ON mail_outbox(created_at);

-- +goose Down
DROP TABLE mail_outbox;
DROP TABLE password_resets;
DROP TABLE passengers;
