-- +goose Up
-- A payment still open blocks a new purchase by its member for about 30
-- minutes (block_until), while a convenience-store slip stays payable
-- until its own deadline (expires_at, days away): after the block the
-- member may buy again, and the slip is still paid at the shop.
--
-- blocking: the process holds its member's one purchase block. The
-- purchase that finds the block over clears it (blocking = FALSE, in the
-- transaction of its own insert), and the unique index below keeps one
-- blocking open process a member, so two requests at the same instant
-- cannot both pass the block.
--
-- exclusive_key: goods a member may not pay for twice (the unlimited
-- pass's period: one pass a member and period), written by the product.
-- While one open process holds the key, another purchase of the same
-- goods is refused, even after the block: a unique index, so two
-- parallel requests cannot both pass. Empty for goods bought any number
-- of times (points, coupon passes).
ALTER TABLE payment_processes ADD COLUMN block_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE payment_processes ADD COLUMN blocking BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE payment_processes ADD COLUMN exclusive_key TEXT NOT NULL DEFAULT '';
-- open processes of before: their block ends 30 minutes after their
-- continue, which came within 30 minutes of the order (an hour at most),
-- or at their deadline when that is sooner
UPDATE payment_processes SET block_until = CASE WHEN expires_at < created_at + 3600000 THEN expires_at ELSE created_at + 3600000 END
WHERE status IN ('prepared', 'pending');
DROP INDEX payment_processes_open;
CREATE UNIQUE INDEX payment_processes_open ON payment_processes(member_id) WHERE status IN ('prepared', 'pending') AND blocking;
CREATE UNIQUE INDEX payment_processes_exclusive ON payment_processes(member_id, exclusive_key)
WHERE status IN ('prepared', 'pending') AND exclusive_key <> '';

-- +goose Down
DROP INDEX payment_processes_exclusive;
DROP INDEX payment_processes_open;
-- one open process a member again: this fails while a member has two
-- open payments (a slip past its block and a newer purchase), which the
-- operator lets end first; no payment is ended here behind the gateway
CREATE UNIQUE INDEX payment_processes_open ON payment_processes(member_id) WHERE status IN ('prepared', 'pending');
ALTER TABLE payment_processes DROP COLUMN exclusive_key;
ALTER TABLE payment_processes DROP COLUMN blocking;
ALTER TABLE payment_processes DROP COLUMN block_until;
