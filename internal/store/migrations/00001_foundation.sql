-- +goose Up
-- Members, sessions, throttling counters and operator settings.
-- Instants are BIGINT unix milliseconds (UTC); calendar dates TEXT YYYY-MM-DD.
CREATE TABLE members (
    id                          TEXT PRIMARY KEY,
    email                       TEXT NOT NULL,
    email_key                   TEXT NOT NULL UNIQUE, -- lower-cased e-mail for lookups
    password_hash               TEXT NOT NULL,
    firstname                   TEXT NOT NULL DEFAULT '',
    lastname                    TEXT NOT NULL DEFAULT '',
    gender                      TEXT NOT NULL DEFAULT '',
    birth                       TEXT NOT NULL DEFAULT '1990-01-01',
    tel                         TEXT NOT NULL DEFAULT '',
    address_country_code        TEXT NOT NULL DEFAULT '',
    address_postal_code         TEXT NOT NULL DEFAULT '',
    address_state_and_city      TEXT NOT NULL DEFAULT '',
    address1                    TEXT NOT NULL DEFAULT '',
    passport_no                 TEXT NOT NULL DEFAULT '',
    passport_nationality_code   TEXT NOT NULL DEFAULT '',
    passport_issue_country_code TEXT NOT NULL DEFAULT '',
    passport_expiration_date    TEXT NOT NULL DEFAULT '',
    optin1                      BOOLEAN NOT NULL DEFAULT TRUE,
    auto_login_is_active        BOOLEAN NOT NULL DEFAULT FALSE,
    auto_login_notice_mail      BOOLEAN NOT NULL DEFAULT TRUE,
    is_employee                 BOOLEAN NOT NULL DEFAULT FALSE,
    online_shop_account_status  TEXT NOT NULL DEFAULT 'unknown',
    lang                        TEXT NOT NULL DEFAULT 'en',
    created_at                  BIGINT NOT NULL,
    updated_at                  BIGINT NOT NULL
);

-- Server-side sessions. The cookie holds a random token; only its SHA-256
-- is stored, so a database leak does not hand out live sessions.
CREATE TABLE sessions (
    id_hash      TEXT PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    log_id       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    client_addr  TEXT NOT NULL DEFAULT '',
    user_agent   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_member ON sessions(member_id);
CREATE INDEX sessions_last_seen ON sessions(last_seen_at);

-- Fixed-window counters shared by every instance: login throttling, the
-- exception beacon's rate limit and origin-access admission.
CREATE TABLE rate_counters (
    key          TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_window ON rate_counters(window_start);

-- Operator settings (cookie consent, banner, pass flags, origin access),
-- JSON values set with `members admin …`.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Client-side error reports sent by the exception beacon.
CREATE TABLE exception_reports (
    id          TEXT PRIMARY KEY,
    received_at BIGINT NOT NULL,
    name        TEXT NOT NULL,
    message     TEXT NOT NULL,
    stack       TEXT NOT NULL,
    path        TEXT NOT NULL,
    client_addr TEXT NOT NULL
);
CREATE INDEX exception_reports_received ON exception_reports(received_at);

-- +goose Down
DROP TABLE exception_reports;
DROP TABLE settings;
DROP TABLE rate_counters;
DROP TABLE sessions;
DROP TABLE members;
