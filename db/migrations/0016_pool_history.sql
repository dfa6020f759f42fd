ALTER TABLE "pool_reserves" ADD COLUMN "lp_supply" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "pool_reserves" ADD COLUMN "lp_fee_ppm" integer;--> statement-breakpoint
-- A store indexed before: each pool's LP supply and fee as last read, at the block it was read
-- (its reserves row there; the row too where a repair wrote the pool without one). Earlier rows
-- stay null, and a pair as of their blocks is refused.
INSERT INTO "pool_reserves" ("token0_id", "token1_id", "block_number", "timestamp", "reserve0", "reserve1", "lp_supply", "lp_fee_ppm")
SELECT p."token0_id", p."token1_id", p."block_number", b."timestamp", p."reserve0", p."reserve1", p."lp_supply", p."lp_fee_ppm"
FROM "pools" p JOIN "blocks" b ON b."number" = p."block_number"
ON CONFLICT ("token0_id", "token1_id", "block_number") DO UPDATE SET "lp_supply" = excluded."lp_supply", "lp_fee_ppm" = excluded."lp_fee_ppm";
