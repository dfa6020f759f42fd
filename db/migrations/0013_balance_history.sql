CREATE TABLE "balance_history" (
	"lp" boolean NOT NULL,
	"token_id" bigint NOT NULL,
	"account" text COLLATE "C" NOT NULL,
	"block_number" bigint NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "balance_history_lp_token_id_account_block_number_pk" PRIMARY KEY("lp","token_id","account","block_number")
);
--> statement-breakpoint
CREATE TABLE "history_floors" (
	"kind" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL
);
--> statement-breakpoint
-- A store indexed before balance history: each current balance is known from the block it was
-- last read at through the checkpoint, so history starts, exact, at the checkpoint.
INSERT INTO "balance_history" ("lp", "token_id", "account", "block_number", "balance") SELECT false, "token_id", "account", "block_number", "balance" FROM "holders";
--> statement-breakpoint
INSERT INTO "balance_history" ("lp", "token_id", "account", "block_number", "balance") SELECT true, "lp_token_id", "account", "block_number", "balance" FROM "lp_holders";
--> statement-breakpoint
INSERT INTO "history_floors" ("kind", "block_number") SELECT k, "block_number" FROM "checkpoints", (VALUES ('holders'), ('lp')) AS kinds(k) WHERE "name" = 'follower';
