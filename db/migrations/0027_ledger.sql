-- Issue 41, the ledger's interface.
-- Holder snapshots of LP tokens (a pool's providers at a block): an LP token's id is in its own id
-- space (PoolAssets), so a snapshot says which it is, as balance_history does (lp). Every snapshot
-- kept so far is of a token (lp false); (token, block) stays one snapshot within each space.
ALTER TABLE "holder_snapshots" DROP CONSTRAINT "holder_snapshots_tokenId_blockNumber_unique";--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD COLUMN "lp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD CONSTRAINT "holder_snapshots_lp_token_id_block_number_unique" UNIQUE("lp","token_id","block_number");--> statement-breakpoint
-- Each transfer's extrinsic hash: transfers keep the extrinsic's index (4 bytes, since 0011); the
-- hashes of a block's extrinsics are kept once per block here, 32 bytes each in the block's order,
-- and read only for the rows of a page (db/schema/chain.ts). Partitioned by block range like the
-- history tables (0023): partitions are made as blocks arrive (ensure_block_partitions) and
-- retention drops them with the transfers'. Blocks indexed before this migration have no row:
-- their transfers' hashes are unknown (null in the API).
CREATE TABLE "block_extrinsics" (
	"block_number" bigint NOT NULL,
	"hashes" bytea NOT NULL,
	CONSTRAINT "block_extrinsics_pkey" PRIMARY KEY ("block_number")
) PARTITION BY RANGE ("block_number");
