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
	"value_usd" numeric,
	CONSTRAINT "transfers_block_number_event_index_pk" PRIMARY KEY("block_number","event_index")
);
--> statement-breakpoint
CREATE INDEX "transfers_from_idx" ON "transfers" USING btree ("from_account","block_number","event_index") WHERE from_account is not null;--> statement-breakpoint
CREATE INDEX "transfers_to_idx" ON "transfers" USING btree ("to_account","block_number","event_index") WHERE to_account is not null;--> statement-breakpoint
CREATE INDEX "transfers_token_idx" ON "transfers" USING btree ("token_id","block_number","event_index") WHERE token_id is not null;--> statement-breakpoint
CREATE INDEX "transfers_lp_token_idx" ON "transfers" USING btree ("lp_token_id","block_number","event_index") WHERE lp_token_id is not null;