CREATE TABLE "holder_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"accounts_done" bigint DEFAULT 0 NOT NULL,
	"accounts_estimate" bigint,
	"holders" bigint,
	"total" numeric(78, 0),
	"error" text,
	"resume_after" text COLLATE "C",
	"requested_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "holder_snapshots_tokenId_blockNumber_unique" UNIQUE("token_id","block_number")
);
--> statement-breakpoint
CREATE TABLE "snapshot_balances" (
	"snapshot_id" bigint NOT NULL,
	"account" text COLLATE "C" NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "snapshot_balances_snapshot_id_account_pk" PRIMARY KEY("snapshot_id","account")
);
--> statement-breakpoint
CREATE TABLE "snapshot_holders" (
	"snapshot_id" bigint NOT NULL,
	"rank" bigint NOT NULL,
	"account" text COLLATE "C" NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "snapshot_holders_snapshot_id_rank_pk" PRIMARY KEY("snapshot_id","rank")
);
