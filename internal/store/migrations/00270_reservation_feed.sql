-- +goose Up
-- The reservation system's version of each booking it has sent (the
-- booking feed and the bookings import, docs/airline-feeds.md): a newer
-- version replaces the booking, an older one is stale, the same one a
-- duplicate. The row outlives a purge (purged TRUE, the reservation
-- deleted), so an older snapshot arriving after the purge stays stale.
-- last_stale_version, last_stale_at and stale_count record the stale
-- deliveries (kept, not applied).
CREATE TABLE reservation_feed (
    pnr                TEXT PRIMARY KEY,
    version            BIGINT NOT NULL,
    purged             BOOLEAN NOT NULL DEFAULT FALSE,
    member_number      TEXT NOT NULL DEFAULT '',
    applied_at         BIGINT NOT NULL,
    last_stale_version BIGINT NOT NULL DEFAULT 0,
    last_stale_at      BIGINT NOT NULL DEFAULT 0,
    stale_count        BIGINT NOT NULL DEFAULT 0
);

-- +goose Down
DROP TABLE reservation_feed;
