-- +goose Up
-- One unlimited pass per member and period, whichever way it came
-- (purchase, lottery win, exchange code): a unique index, so two grants
-- racing past the checks before payment cannot both insert. Copies made
-- before the rule existed are kept (they were paid for) and marked as
-- duplicates of the member's first pass of the period, outside the index;
-- an operator refunds them.
ALTER TABLE gogo_passes ADD COLUMN duplicate_of TEXT;
UPDATE gogo_passes SET duplicate_of = (
    SELECT g2.id FROM gogo_passes g2
    WHERE g2.member_id = gogo_passes.member_id AND g2.period_id = gogo_passes.period_id
    ORDER BY g2.purchased_at, g2.id LIMIT 1)
WHERE EXISTS (
    SELECT 1 FROM gogo_passes g2
    WHERE g2.member_id = gogo_passes.member_id AND g2.period_id = gogo_passes.period_id
      AND (g2.purchased_at < gogo_passes.purchased_at
           OR (g2.purchased_at = gogo_passes.purchased_at AND g2.id < gogo_passes.id)));
CREATE UNIQUE INDEX gogo_passes_member_period ON gogo_passes(member_id, period_id) WHERE duplicate_of IS NULL;

-- +goose Down
DROP INDEX gogo_passes_member_period;
ALTER TABLE gogo_passes DROP COLUMN duplicate_of;
