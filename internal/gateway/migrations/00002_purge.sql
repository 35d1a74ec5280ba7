-- +goose Up
-- The purge of old idempotency keys finds them by age (Gateway.Purge).
CREATE INDEX gw_idempotency_created ON gw_idempotency (created_at);

-- +goose Down
DROP INDEX gw_idempotency_created;
