CREATE TABLE "pool_volume_minutely" (
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"minute" bigint NOT NULL,
	"volume_usd" numeric NOT NULL,
	"fee_usd" numeric NOT NULL,
	"swaps" integer NOT NULL,
	CONSTRAINT "pool_volume_minutely_token0_id_token1_id_minute_pk" PRIMARY KEY("token0_id","token1_id","minute")
);
--> statement-breakpoint
CREATE INDEX "pool_volume_minutely_minute_idx" ON "pool_volume_minutely" USING btree ("minute");--> statement-breakpoint
INSERT INTO "pool_volume_minutely" ("token0_id", "token1_id", "minute", "volume_usd", "fee_usd", "swaps")
SELECT "token0_id", "token1_id", "timestamp" - "timestamp" % 60, sum("volume_usd"), sum("fee_usd"), count(*)::integer
FROM "swaps" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "pool_volume_minutely" ("token0_id", "token1_id", "minute", "volume_usd", "fee_usd", "swaps")
SELECT -1, -1, "timestamp" - "timestamp" % 60, sum("volume_usd"), sum("fee_usd"), count(*)::integer FROM "swaps" GROUP BY 3;
--> statement-breakpoint
INSERT INTO "pool_volume_hourly" ("token0_id", "token1_id", "hour", "volume_usd", "fee_usd", "swaps")
SELECT -1, -1, "timestamp" - "timestamp" % 3600, sum("volume_usd"), sum("fee_usd"), count(*)::integer FROM "swaps" GROUP BY 3;
