-- Fees, dust and slashes get kinds of their own (docs/api.md, "Transfers"). Dust and slashes are
-- told apart by their event here; rows written before keep their fees as the `withdraw` rows that
-- took them (the fee events were never stored, so no fee row can be made of them).
ALTER TABLE "transfers" ADD COLUMN "tip" numeric(78, 0);--> statement-breakpoint
UPDATE "transfers" SET "kind" = 'dust' WHERE "event" = 'balances.DustLost';--> statement-breakpoint
UPDATE "transfers" SET "kind" = 'slash' WHERE "event" = 'balances.Slashed';
