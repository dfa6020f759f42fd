-- Holder snapshots of LP tokens (a pool's providers at a block): an LP token's id is in its own id
-- space (PoolAssets), so a snapshot says which it is, as balance_history does (lp). Every snapshot
-- kept so far is of a token (lp false); (token, block) stays one snapshot within each space.
ALTER TABLE "holder_snapshots" DROP CONSTRAINT "holder_snapshots_tokenId_blockNumber_unique";--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD COLUMN "lp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD CONSTRAINT "holder_snapshots_lp_token_id_block_number_unique" UNIQUE("lp","token_id","block_number");