-- Each transfer's extrinsic hash (issue 41): transfers keep the extrinsic's index (4 bytes, since
-- 0011); the hashes of a block's extrinsics are kept once per block here, 32 bytes each in the
-- block's order, and read only for the rows of a page (db/schema/chain.ts). Partitioned by block
-- range like the history tables (0023): partitions are made as blocks arrive
-- (ensure_block_partitions) and retention drops them with the transfers'. Blocks indexed before
-- this migration have no row: their transfers' hashes are unknown (null in the API).
CREATE TABLE "block_extrinsics" (
	"block_number" bigint NOT NULL,
	"hashes" bytea NOT NULL,
	CONSTRAINT "block_extrinsics_pkey" PRIMARY KEY ("block_number")
) PARTITION BY RANGE ("block_number");
