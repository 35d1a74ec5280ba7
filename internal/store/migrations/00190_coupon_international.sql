-- +goose Up
-- Whether a coupon pass product's trips cross a border: only then does the
-- purchase ask each passenger's passport, nationality and entry details.
-- Existing products keep asking (1); the demo's Okinawa pass is domestic.
ALTER TABLE coupon_products ADD COLUMN international INTEGER NOT NULL DEFAULT 1;
UPDATE coupon_products SET international = 0 WHERE id = 'cp-okinawa';

-- +goose Down
ALTER TABLE coupon_products DROP COLUMN international;
