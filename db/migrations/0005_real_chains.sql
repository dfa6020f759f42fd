-- Real chains (issue 13): token ids gained meanings (foreign assets above 2^32, the 2^32 alias of
-- an asset with the native id), pool accounts now come from the chain, and LP fees are kept in
-- parts per million. Rows written by earlier versions may be wrong on today's runtimes (dropped
-- swaps, empty Polkadot AH pools, asset 0 mixed into the native token), and all of them are
-- derived from the chain: they are removed here, and the indexer bootstraps again from the
-- finalized head (history: tokenpool backfill). Accounts (users) are kept.
TRUNCATE "tokens", "holders", "holder_counts", "token_prices", "pools", "pool_reserves", "swaps", "liquidity_events",
  "pool_volume_hourly", "pool_volume_minutely", "blocks", "checkpoints", "backfill_chunks";
--> statement-breakpoint
CREATE TABLE "foreign_locations" (
	"token_id" bigint PRIMARY KEY NOT NULL,
	"location_key" text NOT NULL,
	"location" jsonb NOT NULL,
	"block_number" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skipped_events" (
	"block_number" bigint NOT NULL,
	"event_index" integer NOT NULL,
	"event" text NOT NULL,
	"reason" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skipped_events_block_number_event_index_pk" PRIMARY KEY("block_number","event_index")
);
--> statement-breakpoint
ALTER TABLE "swaps" ALTER COLUMN "account" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "kind" text DEFAULT 'asset' NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "asset_id" bigint;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "location" jsonb;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "lp_fee_ppm" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" DROP COLUMN "is_native";--> statement-breakpoint
ALTER TABLE "pools" DROP COLUMN "lp_fee";
