CREATE TABLE "backfill_chunks" (
	"from_block" bigint NOT NULL,
	"to_block" bigint NOT NULL,
	"swaps" bigint NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backfill_chunks_from_block_to_block_pk" PRIMARY KEY("from_block","to_block")
);
