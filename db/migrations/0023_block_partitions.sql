-- The history tables become partitioned by block range (issue 40; docs/performance.md, "A store
-- at a billion rows"): each index is the size of a partition (1,000,000 blocks: 19 partitions for
-- Polkadot Asset Hub's 18M blocks, 16 more a year at 2-second blocks), and retention drops whole
-- partitions instead of deleting rows. Every key holds block_number (the partition key must be in
-- each unique index): transfers (block, event), swaps (block, event, hop), balance_history
-- (lp, token, account, block), token_history (id, block), token_prices (token, block).
--
-- Partitions are made as blocks arrive, by the statement that inserts (db/queries/partitions.ts
-- calls this function first): a partition is an empty table attached to its parent, which takes
-- SHARE UPDATE EXCLUSIVE on the parent (readers and writers go on; CREATE TABLE ... PARTITION OF
-- would take ACCESS EXCLUSIVE until the writer's transaction commits, stopping every read). The
-- maker takes that lock first and looks again: makers of one table go one at a time, so backfill
-- workers inserting into the same old range make it once (the second, let in when the first
-- commits, finds it made: a table lock, unlike an advisory one, reads the catalog afresh).
-- There is no DEFAULT partition: a row no partition takes is an error, never a row that a later
-- partition would have to be carved out of.
CREATE FUNCTION "ensure_block_partitions"(parent regclass, blocks bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  width CONSTANT bigint := 1000000;
  nsp text;
  rel text;
  start bigint;
  part text;
BEGIN
  SELECT n.nspname, c.relname INTO nsp, rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
  FOR start IN SELECT DISTINCT b / width * width FROM unnest(blocks) b WHERE b IS NOT NULL ORDER BY 1 LOOP
    part := format('%s_p%s', rel, start / width);
    -- A table of the name that is not a partition (or one being detached) was left by an
    -- interrupted prune-history: an insert would find no partition. Said, not skipped.
    IF to_regclass(format('%I.%I', nsp, part)) IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM pg_inherits i WHERE i.inhrelid = to_regclass(format('%I.%I', nsp, part)) AND i.inhparent = parent AND NOT i.inhdetachpending
    ) THEN
      RAISE EXCEPTION 'table %.% is a partition detached by an interrupted prune-history: run tokenpool prune-history again (it finishes and drops it), then this range can be written', nsp, part;
    END IF;
    IF to_regclass(format('%I.%I', nsp, part)) IS NULL THEN
      EXECUTE format('LOCK TABLE %I.%I IN SHARE UPDATE EXCLUSIVE MODE', nsp, rel);
      IF to_regclass(format('%I.%I', nsp, part)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING DEFAULTS)', nsp, part, nsp, rel);
        EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%s) TO (%s)', nsp, rel, nsp, part, start, start + width);
      END IF;
    END IF;
  END LOOP;
END $$;--> statement-breakpoint
-- Existing rows are copied (the old table renamed, a partitioned one made, a partition for each
-- million blocks that holds rows, the rows copied, keys and indexes built once after). Only those
-- millions: one stray row far off (a test row at block 10^9 beside rows at 1..18M) would
-- otherwise make a thousand empty partitions, each planned by every read that cannot prune.--> statement-breakpoint
ALTER TABLE "transfers" RENAME TO "transfers_unpartitioned";--> statement-breakpoint
ALTER TABLE "transfers_unpartitioned" RENAME CONSTRAINT "transfers_block_number_event_index_pk" TO "transfers_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "transfers_from_idx";--> statement-breakpoint
DROP INDEX "transfers_to_idx";--> statement-breakpoint
DROP INDEX "transfers_token_idx";--> statement-breakpoint
DROP INDEX "transfers_lp_token_idx";--> statement-breakpoint
CREATE TABLE "transfers" (
	"block_number" bigint NOT NULL,
	"event_index" integer NOT NULL,
	"extrinsic_index" integer,
	"timestamp" bigint NOT NULL,
	"token_id" bigint,
	"lp_token_id" bigint,
	"from_account" text COLLATE "C",
	"to_account" text COLLATE "C",
	"amount" numeric(78, 0) NOT NULL,
	"kind" text NOT NULL,
	"event" text NOT NULL,
	"tip" numeric(78, 0),
	"value_usd" numeric
) PARTITION BY RANGE ("block_number");--> statement-breakpoint
SELECT "ensure_block_partitions"('"transfers"', ARRAY(SELECT DISTINCT "block_number" / 1000000 * 1000000 FROM "transfers_unpartitioned"));--> statement-breakpoint
INSERT INTO "transfers" ("block_number", "event_index", "extrinsic_index", "timestamp", "token_id", "lp_token_id", "from_account", "to_account", "amount", "kind", "event", "tip", "value_usd") SELECT "block_number", "event_index", "extrinsic_index", "timestamp", "token_id", "lp_token_id", "from_account", "to_account", "amount", "kind", "event", "tip", "value_usd" FROM "transfers_unpartitioned";--> statement-breakpoint
DROP TABLE "transfers_unpartitioned";--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_block_number_event_index_pk" PRIMARY KEY("block_number","event_index");--> statement-breakpoint
CREATE INDEX "transfers_from_idx" ON "transfers" USING btree ("from_account","kind",(-"block_number"),(-"event_index")) WHERE from_account is not null;--> statement-breakpoint
CREATE INDEX "transfers_to_idx" ON "transfers" USING btree ("to_account","kind",(-"block_number"),(-"event_index")) WHERE to_account is not null;--> statement-breakpoint
CREATE INDEX "transfers_token_idx" ON "transfers" USING btree ("token_id","kind",(-"block_number"),(-"event_index")) WHERE token_id is not null;--> statement-breakpoint
CREATE INDEX "transfers_lp_token_idx" ON "transfers" USING btree ("lp_token_id","kind",(-"block_number"),(-"event_index")) WHERE lp_token_id is not null;--> statement-breakpoint
ALTER TABLE "swaps" RENAME TO "swaps_unpartitioned";--> statement-breakpoint
ALTER TABLE "swaps_unpartitioned" RENAME CONSTRAINT "swaps_block_number_event_index_hop_pk" TO "swaps_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "swaps_time_idx";--> statement-breakpoint
DROP INDEX "swaps_pool_time_idx";--> statement-breakpoint
DROP INDEX "swaps_pool_block_idx";--> statement-breakpoint
DROP INDEX "swaps_account_block_idx";--> statement-breakpoint
CREATE TABLE "swaps" (
	"block_number" bigint NOT NULL,
	"event_index" integer NOT NULL,
	"hop" smallint NOT NULL,
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"token_in" bigint NOT NULL,
	"token_out" bigint NOT NULL,
	"amount_in" numeric(78, 0) NOT NULL,
	"amount_out" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"volume_usd" numeric NOT NULL,
	"fee_usd" numeric NOT NULL,
	"account" text,
	"timestamp" bigint NOT NULL,
	"extrinsic_index" integer,
	"hops" smallint DEFAULT 1 NOT NULL
) PARTITION BY RANGE ("block_number");--> statement-breakpoint
SELECT "ensure_block_partitions"('"swaps"', ARRAY(SELECT DISTINCT "block_number" / 1000000 * 1000000 FROM "swaps_unpartitioned"));--> statement-breakpoint
INSERT INTO "swaps" ("block_number", "event_index", "hop", "token0_id", "token1_id", "token_in", "token_out", "amount_in", "amount_out", "fee", "volume_usd", "fee_usd", "account", "timestamp", "extrinsic_index", "hops") SELECT "block_number", "event_index", "hop", "token0_id", "token1_id", "token_in", "token_out", "amount_in", "amount_out", "fee", "volume_usd", "fee_usd", "account", "timestamp", "extrinsic_index", "hops" FROM "swaps_unpartitioned";--> statement-breakpoint
DROP TABLE "swaps_unpartitioned";--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_block_number_event_index_hop_pk" PRIMARY KEY("block_number","event_index","hop");--> statement-breakpoint
CREATE INDEX "swaps_time_idx" ON "swaps" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "swaps_pool_time_idx" ON "swaps" USING btree ("token0_id","token1_id","timestamp");--> statement-breakpoint
CREATE INDEX "swaps_pool_block_idx" ON "swaps" USING btree ("token0_id","token1_id",(-"block_number"),(-"event_index"),(-"hop"));--> statement-breakpoint
CREATE INDEX "swaps_account_block_idx" ON "swaps" USING btree ("account",(-"block_number"),(-"event_index"),(-"hop")) WHERE account is not null;--> statement-breakpoint
ALTER TABLE "balance_history" RENAME TO "balance_history_unpartitioned";--> statement-breakpoint
ALTER TABLE "balance_history_unpartitioned" RENAME CONSTRAINT "balance_history_lp_token_id_account_block_number_pk" TO "balance_history_unpartitioned_pk";--> statement-breakpoint
CREATE TABLE "balance_history" (
	"lp" boolean NOT NULL,
	"token_id" bigint NOT NULL,
	"account" text COLLATE "C" NOT NULL,
	"block_number" bigint NOT NULL,
	"balance" numeric(78, 0) NOT NULL
) PARTITION BY RANGE ("block_number");--> statement-breakpoint
SELECT "ensure_block_partitions"('"balance_history"', ARRAY(SELECT DISTINCT "block_number" / 1000000 * 1000000 FROM "balance_history_unpartitioned"));--> statement-breakpoint
INSERT INTO "balance_history" ("lp", "token_id", "account", "block_number", "balance") SELECT "lp", "token_id", "account", "block_number", "balance" FROM "balance_history_unpartitioned";--> statement-breakpoint
DROP TABLE "balance_history_unpartitioned";--> statement-breakpoint
ALTER TABLE "balance_history" ADD CONSTRAINT "balance_history_lp_token_id_account_block_number_pk" PRIMARY KEY("lp","token_id","account","block_number");--> statement-breakpoint
ALTER TABLE "token_history" RENAME TO "token_history_unpartitioned";--> statement-breakpoint
ALTER TABLE "token_history_unpartitioned" RENAME CONSTRAINT "token_history_id_block_number_pk" TO "token_history_unpartitioned_pk";--> statement-breakpoint
CREATE TABLE "token_history" (
	"id" bigint NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"symbol" text DEFAULT '' NOT NULL,
	"decimals" integer DEFAULT 0 NOT NULL,
	"supply" numeric(78, 0) DEFAULT '0' NOT NULL,
	"owner" text,
	"kind" text DEFAULT 'asset' NOT NULL,
	"asset_id" bigint,
	"location" jsonb,
	"status" text DEFAULT 'live' NOT NULL,
	"accounts" bigint,
	"block_number" bigint NOT NULL,
	"destroyed" boolean DEFAULT false NOT NULL
) PARTITION BY RANGE ("block_number");--> statement-breakpoint
SELECT "ensure_block_partitions"('"token_history"', ARRAY(SELECT DISTINCT "block_number" / 1000000 * 1000000 FROM "token_history_unpartitioned"));--> statement-breakpoint
INSERT INTO "token_history" ("id", "name", "symbol", "decimals", "supply", "owner", "kind", "asset_id", "location", "status", "accounts", "block_number", "destroyed") SELECT "id", "name", "symbol", "decimals", "supply", "owner", "kind", "asset_id", "location", "status", "accounts", "block_number", "destroyed" FROM "token_history_unpartitioned";--> statement-breakpoint
DROP TABLE "token_history_unpartitioned";--> statement-breakpoint
ALTER TABLE "token_history" ADD CONSTRAINT "token_history_id_block_number_pk" PRIMARY KEY("id","block_number");--> statement-breakpoint
ALTER TABLE "token_prices" RENAME TO "token_prices_unpartitioned";--> statement-breakpoint
ALTER TABLE "token_prices_unpartitioned" RENAME CONSTRAINT "token_prices_token_id_block_number_pk" TO "token_prices_unpartitioned_pk";--> statement-breakpoint
CREATE TABLE "token_prices" (
	"token_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"price_usd" numeric
) PARTITION BY RANGE ("block_number");--> statement-breakpoint
SELECT "ensure_block_partitions"('"token_prices"', ARRAY(SELECT DISTINCT "block_number" / 1000000 * 1000000 FROM "token_prices_unpartitioned"));--> statement-breakpoint
INSERT INTO "token_prices" ("token_id", "block_number", "price_usd") SELECT "token_id", "block_number", "price_usd" FROM "token_prices_unpartitioned";--> statement-breakpoint
DROP TABLE "token_prices_unpartitioned";--> statement-breakpoint
ALTER TABLE "token_prices" ADD CONSTRAINT "token_prices_token_id_block_number_pk" PRIMARY KEY("token_id","block_number");
