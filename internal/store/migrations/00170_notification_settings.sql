-- +goose Up
-- A member's notification settings. No row: every optional mail on and
-- mails in the account's language (members.lang). flight_changes and
-- points_reminders switch those optional mails off; security alerts have
-- no switch (they always go). mail_lang is the language of every mail to
-- the member; NULL follows members.lang.
CREATE TABLE notification_settings (
    member_id        TEXT PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    flight_changes   BOOLEAN NOT NULL DEFAULT TRUE,
    points_reminders BOOLEAN NOT NULL DEFAULT TRUE,
    mail_lang        TEXT,
    updated_at       BIGINT NOT NULL
);

-- Extra headers of a stored mail (List-Unsubscribe…), JSON {name: value},
-- so a retried delivery sends them too.
ALTER TABLE mail_outbox ADD COLUMN headers TEXT NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE mail_outbox DROP COLUMN headers;
DROP TABLE notification_settings;
