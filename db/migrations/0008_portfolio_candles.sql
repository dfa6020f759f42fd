CREATE TABLE "lp_holders" (
	"lp_token_id" bigint NOT NULL,
	"account" text COLLATE "C" NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "lp_holders_lp_token_id_account_pk" PRIMARY KEY("lp_token_id","account")
);
--> statement-breakpoint
CREATE TABLE "token_candles" (
	"token_id" bigint NOT NULL,
	"res" integer NOT NULL,
	"bucket" bigint NOT NULL,
	"open_block" bigint NOT NULL,
	"open" numeric NOT NULL,
	"close_block" bigint NOT NULL,
	"close" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	CONSTRAINT "token_candles_token_id_res_bucket_pk" PRIMARY KEY("token_id","res","bucket")
);
--> statement-breakpoint
CREATE TABLE "token_stats" (
	"token_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"timestamp" bigint NOT NULL,
	"supply" numeric(78, 0) NOT NULL,
	"holders" bigint NOT NULL,
	CONSTRAINT "token_stats_token_id_block_number_pk" PRIMARY KEY("token_id","block_number")
);
--> statement-breakpoint
CREATE TABLE "pool_candles" (
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"res" integer NOT NULL,
	"bucket" bigint NOT NULL,
	"open_block" bigint,
	"open_reserve0" numeric(78, 0),
	"open_reserve1" numeric(78, 0),
	"close_block" bigint,
	"close_reserve0" numeric(78, 0),
	"close_reserve1" numeric(78, 0),
	"high_reserve0" numeric(78, 0),
	"high_reserve1" numeric(78, 0),
	"low_reserve0" numeric(78, 0),
	"low_reserve1" numeric(78, 0),
	"volume0" numeric(78, 0) DEFAULT '0' NOT NULL,
	"volume1" numeric(78, 0) DEFAULT '0' NOT NULL,
	"volume_usd" numeric DEFAULT '0' NOT NULL,
	"swaps" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pool_candles_token0_id_token1_id_res_bucket_pk" PRIMARY KEY("token0_id","token1_id","res","bucket")
);
--> statement-breakpoint
ALTER TABLE "swaps" ADD COLUMN "extrinsic_index" integer;--> statement-breakpoint
ALTER TABLE "swaps" ADD COLUMN "hops" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "lp_holders_account_idx" ON "lp_holders" USING btree ("account");--> statement-breakpoint
CREATE INDEX "holders_account_idx" ON "holders" USING btree ("account");--> statement-breakpoint
CREATE INDEX "swaps_pool_block_idx" ON "swaps" USING btree ("token0_id","token1_id","block_number","event_index","hop");--> statement-breakpoint
-- What this migration can derive from the rows a store already has (LP holders are read from the chain by the indexer).
UPDATE "swaps" s SET "hops" = c.n FROM (SELECT "block_number", "event_index", count(*)::smallint AS n FROM "swaps" GROUP BY 1, 2 HAVING count(*) > 1) c
WHERE s."block_number" = c."block_number" AND s."event_index" = c."event_index";--> statement-breakpoint
-- Extreme prices ordered by r1 · 10^80 / r0: two distinct ratios of u128 reserves differ by at least 10^-78, so the order is exact.
INSERT INTO "pool_candles" ("token0_id", "token1_id", "res", "bucket", "open_block", "open_reserve0", "open_reserve1", "close_block", "close_reserve0", "close_reserve1", "high_reserve0", "high_reserve1", "low_reserve0", "low_reserve1")
SELECT r."token0_id", r."token1_id", s.res, r."timestamp" - r."timestamp" % s.res,
  min(r."block_number"), (array_agg(r."reserve0" ORDER BY r."block_number"))[1], (array_agg(r."reserve1" ORDER BY r."block_number"))[1],
  max(r."block_number"), (array_agg(r."reserve0" ORDER BY r."block_number" DESC))[1], (array_agg(r."reserve1" ORDER BY r."block_number" DESC))[1],
  (array_agg(r."reserve0" ORDER BY div(r."reserve1" * 1e80, r."reserve0") DESC))[1], (array_agg(r."reserve1" ORDER BY div(r."reserve1" * 1e80, r."reserve0") DESC))[1],
  (array_agg(r."reserve0" ORDER BY div(r."reserve1" * 1e80, r."reserve0")))[1], (array_agg(r."reserve1" ORDER BY div(r."reserve1" * 1e80, r."reserve0")))[1]
FROM "pool_reserves" r CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS s(res)
WHERE r."reserve0" > 0 AND r."reserve1" > 0
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "pool_candles" ("token0_id", "token1_id", "res", "bucket", "volume0", "volume1", "volume_usd", "swaps")
SELECT w."token0_id", w."token1_id", s.res, w."timestamp" - w."timestamp" % s.res,
  sum(CASE WHEN w."token_in" = w."token0_id" THEN w."amount_in" ELSE w."amount_out" END),
  sum(CASE WHEN w."token_in" = w."token1_id" THEN w."amount_in" ELSE w."amount_out" END),
  sum(w."volume_usd"), count(*)
FROM "swaps" w CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS s(res)
GROUP BY 1, 2, 3, 4
ON CONFLICT ("token0_id", "token1_id", "res", "bucket") DO UPDATE SET "volume0" = excluded."volume0", "volume1" = excluded."volume1", "volume_usd" = excluded."volume_usd", "swaps" = excluded."swaps";--> statement-breakpoint
INSERT INTO "token_candles" ("token_id", "res", "bucket", "open_block", "open", "close_block", "close", "high", "low")
SELECT p."token_id", s.res, b."timestamp" - b."timestamp" % s.res,
  min(p."block_number"), (array_agg(p."price_usd" ORDER BY p."block_number"))[1],
  max(p."block_number"), (array_agg(p."price_usd" ORDER BY p."block_number" DESC))[1],
  max(p."price_usd"), min(p."price_usd")
FROM "token_prices" p JOIN "blocks" b ON b."number" = p."block_number" CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS s(res)
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "token_stats" ("token_id", "block_number", "timestamp", "supply", "holders")
SELECT t."id", t."block_number", b."timestamp", t."supply", coalesce(c."holders", 0)
FROM "tokens" t JOIN "blocks" b ON b."number" = t."block_number" LEFT JOIN "holder_counts" c ON c."token_id" = t."id";
