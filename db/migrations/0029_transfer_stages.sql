CREATE TABLE "transfer_stages" (
	"partition_start" bigint PRIMARY KEY NOT NULL,
	"from_block" bigint NOT NULL,
	"to_block" bigint NOT NULL,
	"state" text DEFAULT 'loading' NOT NULL,
	"blocks_done" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attached_at" timestamp with time zone
);
