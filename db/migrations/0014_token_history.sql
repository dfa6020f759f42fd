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
	"destroyed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "token_history_id_block_number_pk" PRIMARY KEY("id","block_number")
);
--> statement-breakpoint
-- A store indexed before token history: each token as last read, from its block (as balance history does).
INSERT INTO "token_history" ("id", "name", "symbol", "decimals", "supply", "owner", "kind", "asset_id", "location", "status", "accounts", "block_number")
SELECT "id", "name", "symbol", "decimals", "supply", "owner", "kind", "asset_id", "location", "status", "accounts", "block_number" FROM "tokens";
