-- `tokenpool backfill` runs as operators watch them (db/schema/chain.ts, backfillRuns): status, /health, metrics.
CREATE TABLE "backfill_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_block" bigint NOT NULL,
	"to_block" bigint NOT NULL,
	"runtimes" integer NOT NULL,
	"chunks_total" integer NOT NULL,
	"chunks_done" integer NOT NULL,
	"blocks_total" bigint NOT NULL,
	"blocks_done" bigint NOT NULL,
	"blocks_per_second" double precision NOT NULL,
	"state" text NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
