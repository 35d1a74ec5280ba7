-- +goose Up
-- The unlimited pass (gogo pass): plans, their periods priced per fare
-- type, lottery entries and draws, exchange codes and the passes members
-- hold. Names are catalogue keys (pass.<lang>.json), so they show in the
-- member's language. Dates are TEXT YYYY-MM-DD, instants BIGINT unix ms.
CREATE TABLE gogo_pass_plans (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    name_alt TEXT NOT NULL,
    position INTEGER NOT NULL
);

CREATE TABLE gogo_pass_periods (
    id            TEXT PRIMARY KEY,
    plan_id       TEXT NOT NULL REFERENCES gogo_pass_plans(id),
    board_begin   TEXT NOT NULL,
    board_end     TEXT NOT NULL,
    book_begin    TEXT NOT NULL,
    book_end      TEXT NOT NULL,
    currency      TEXT NOT NULL,
    price_happy   BIGINT NOT NULL,
    price_happlus BIGINT NOT NULL,
    lottery_quota INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX gogo_pass_periods_plan ON gogo_pass_periods(plan_id, board_begin);

CREATE TABLE gogo_pass_draws (
    id        TEXT PRIMARY KEY,
    seed      TEXT NOT NULL,
    entrants  INTEGER NOT NULL,
    winners   INTEGER NOT NULL,
    drawn_at  BIGINT NOT NULL,
    buy_until BIGINT NOT NULL
);

-- One entry per member and period; result pending until a draw decides it.
CREATE TABLE gogo_pass_entries (
    id         TEXT PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    plan_id    TEXT NOT NULL REFERENCES gogo_pass_plans(id),
    period_id  TEXT NOT NULL REFERENCES gogo_pass_periods(id),
    fare_type  TEXT NOT NULL,
    lang       TEXT NOT NULL,
    result     TEXT NOT NULL DEFAULT 'pending',
    draw_id    TEXT REFERENCES gogo_pass_draws(id),
    created_at BIGINT NOT NULL,
    UNIQUE (member_id, period_id)
);
CREATE INDEX gogo_pass_entries_pending ON gogo_pass_entries(result, period_id);
CREATE INDEX gogo_pass_entries_draw ON gogo_pass_entries(draw_id);

CREATE TABLE gogo_pass_exchange_codes (
    id            TEXT PRIMARY KEY,
    code          TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    plan_id       TEXT NOT NULL REFERENCES gogo_pass_plans(id),
    period_id     TEXT NOT NULL REFERENCES gogo_pass_periods(id),
    fare_type     TEXT NOT NULL,
    redeemed_by   TEXT REFERENCES members(id) ON DELETE SET NULL,
    redeemed_at   BIGINT
);

-- A pass comes from one payment process or one exchange code, never twice.
CREATE TABLE gogo_passes (
    id                 TEXT PRIMARY KEY,
    code               TEXT NOT NULL UNIQUE,
    member_id          TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    plan_id            TEXT NOT NULL REFERENCES gogo_pass_plans(id),
    period_id          TEXT NOT NULL REFERENCES gogo_pass_periods(id),
    fare_type          TEXT NOT NULL,
    currency           TEXT NOT NULL,
    purchased_price    BIGINT NOT NULL,
    source             TEXT NOT NULL,
    payment_process_id TEXT UNIQUE,
    exchange_code_id   TEXT UNIQUE REFERENCES gogo_pass_exchange_codes(id),
    purchased_at       BIGINT NOT NULL
);
CREATE INDEX gogo_passes_member ON gogo_passes(member_id, purchased_at);

-- The coupon pass: products, their periods with the lite and standard
-- plans, prepared selections, purchased coupons and their passengers.
CREATE TABLE coupon_products (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT NOT NULL,
    position    INTEGER NOT NULL
);

CREATE TABLE coupon_periods (
    id                  TEXT PRIMARY KEY,
    product_id          TEXT NOT NULL REFERENCES coupon_products(id),
    description         TEXT NOT NULL,
    board_begin         TEXT NOT NULL,
    board_end           TEXT NOT NULL,
    book_begin          TEXT NOT NULL,
    book_end            TEXT NOT NULL,
    currency            TEXT NOT NULL,
    lite_days           INTEGER NOT NULL,
    lite_uses           INTEGER NOT NULL,
    lite_price          BIGINT NOT NULL,
    standard_days       INTEGER NOT NULL,
    standard_uses       INTEGER NOT NULL,
    standard_price      BIGINT NOT NULL
);
CREATE INDEX coupon_periods_product ON coupon_periods(product_id, board_begin);

CREATE TABLE coupon_prepared (
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    request_id TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, request_id)
);

-- refund_state: '' (none), 'pending' (claimed while the gateway refunds),
-- 'done' (disabled). The claim makes a second refund stop before the gateway.
CREATE TABLE coupons (
    id                 TEXT PRIMARY KEY,
    member_id          TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    product_id         TEXT NOT NULL REFERENCES coupon_products(id),
    period_id          TEXT NOT NULL REFERENCES coupon_periods(id),
    name               TEXT NOT NULL,
    description        TEXT NOT NULL,
    board_begin        TEXT NOT NULL,
    board_end          TEXT NOT NULL,
    book_begin         TEXT NOT NULL,
    book_end           TEXT NOT NULL,
    fare_type          TEXT NOT NULL,
    currency           TEXT NOT NULL,
    price_per_person   BIGINT NOT NULL,
    purchased_price    BIGINT NOT NULL,
    items              INTEGER NOT NULL,
    days_after_first_use INTEGER NOT NULL,
    number_of_use      INTEGER NOT NULL,
    number_of_used     INTEGER NOT NULL DEFAULT 0,
    purchaser_lastname  TEXT NOT NULL,
    purchaser_firstname TEXT NOT NULL,
    purchaser_birthday  TEXT NOT NULL,
    purchaser_gender    TEXT NOT NULL,
    payment_process_id TEXT UNIQUE,
    purchased_at       BIGINT NOT NULL,
    refund_state       TEXT NOT NULL DEFAULT '',
    refund_amount      BIGINT NOT NULL DEFAULT 0,
    refunded_at        BIGINT
);
CREATE INDEX coupons_member ON coupons(member_id, purchased_at);

CREATE TABLE coupon_passengers (
    coupon_id                TEXT NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
    position                 INTEGER NOT NULL,
    passenger_type           TEXT NOT NULL,
    lastname                 TEXT NOT NULL,
    firstname                TEXT NOT NULL,
    gender                   TEXT NOT NULL,
    date_of_birth            TEXT NOT NULL,
    nationality_code         TEXT NOT NULL,
    passport_no              TEXT NOT NULL,
    date_of_entry            TEXT NOT NULL,
    inbound_transport_method TEXT NOT NULL,
    inbound_flight_no        TEXT NOT NULL,
    PRIMARY KEY (coupon_id, position)
);

-- +goose Down
DROP TABLE coupon_passengers;
DROP TABLE coupons;
DROP TABLE coupon_prepared;
DROP TABLE coupon_periods;
DROP TABLE coupon_products;
DROP TABLE gogo_passes;
DROP TABLE gogo_pass_exchange_codes;
DROP TABLE gogo_pass_entries;
DROP TABLE gogo_pass_draws;
DROP TABLE gogo_pass_periods;
DROP TABLE gogo_pass_plans;
