CREATE TABLE "pool_volume_hourly" (
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"hour" bigint NOT NULL,
	"volume_usd" numeric NOT NULL,
	"fee_usd" numeric NOT NULL,
	"swaps" integer NOT NULL,
	CONSTRAINT "pool_volume_hourly_token0_id_token1_id_hour_pk" PRIMARY KEY("token0_id","token1_id","hour")
);
--> statement-breakpoint
CREATE INDEX "pool_volume_hourly_hour_idx" ON "pool_volume_hourly" USING btree ("hour");--> statement-breakpoint
INSERT INTO "pool_volume_hourly" ("token0_id", "token1_id", "hour", "volume_usd", "fee_usd", "swaps")
SELECT "token0_id", "token1_id", "timestamp" - "timestamp" % 3600, sum("volume_usd"), sum("fee_usd"), count(*)::integer
FROM "swaps" GROUP BY 1, 2, 3;
