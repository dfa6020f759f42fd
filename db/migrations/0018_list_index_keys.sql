-- The list indexes keyed (list key, kind, −block, −event[, −hop]) (db/schema/transfers.ts,
-- db/schema/pools.ts): a kind filter is an index range, and no other index serves the lists'
-- order. Built again on the whole table: 12 s for the transfer indexes on 2M rows (docs/performance.md).
DROP INDEX "swaps_pool_block_idx";--> statement-breakpoint
DROP INDEX "swaps_account_block_idx";--> statement-breakpoint
DROP INDEX "transfers_from_idx";--> statement-breakpoint
DROP INDEX "transfers_to_idx";--> statement-breakpoint
DROP INDEX "transfers_token_idx";--> statement-breakpoint
DROP INDEX "transfers_lp_token_idx";--> statement-breakpoint
CREATE INDEX "swaps_pool_block_idx" ON "swaps" USING btree ("token0_id","token1_id",(-"block_number"),(-"event_index"),(-"hop"));--> statement-breakpoint
CREATE INDEX "swaps_account_block_idx" ON "swaps" USING btree ("account",(-"block_number"),(-"event_index"),(-"hop")) WHERE account is not null;--> statement-breakpoint
CREATE INDEX "transfers_from_idx" ON "transfers" USING btree ("from_account","kind",(-"block_number"),(-"event_index")) WHERE from_account is not null;--> statement-breakpoint
CREATE INDEX "transfers_to_idx" ON "transfers" USING btree ("to_account","kind",(-"block_number"),(-"event_index")) WHERE to_account is not null;--> statement-breakpoint
CREATE INDEX "transfers_token_idx" ON "transfers" USING btree ("token_id","kind",(-"block_number"),(-"event_index")) WHERE token_id is not null;--> statement-breakpoint
CREATE INDEX "transfers_lp_token_idx" ON "transfers" USING btree ("lp_token_id","kind",(-"block_number"),(-"event_index")) WHERE lp_token_id is not null;