CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "holders" (
	"token_id" bigint NOT NULL,
	"account" text COLLATE "C" NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "holders_token_id_account_pk" PRIMARY KEY("token_id","account")
);
--> statement-breakpoint
CREATE TABLE "token_prices" (
	"token_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"price_usd" numeric NOT NULL,
	CONSTRAINT "token_prices_token_id_block_number_pk" PRIMARY KEY("token_id","block_number")
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"symbol" text DEFAULT '' NOT NULL,
	"decimals" integer DEFAULT 0 NOT NULL,
	"supply" numeric(78, 0) DEFAULT '0' NOT NULL,
	"owner" text,
	"is_native" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'live' NOT NULL,
	"block_number" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "liquidity_events" (
	"block_number" bigint NOT NULL,
	"event_index" integer NOT NULL,
	"kind" text NOT NULL,
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"account" text NOT NULL,
	"amount0" numeric(78, 0) NOT NULL,
	"amount1" numeric(78, 0) NOT NULL,
	"lp_amount" numeric(78, 0) NOT NULL,
	"timestamp" bigint NOT NULL,
	CONSTRAINT "liquidity_events_block_number_event_index_pk" PRIMARY KEY("block_number","event_index")
);
--> statement-breakpoint
CREATE TABLE "pool_reserves" (
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"timestamp" bigint NOT NULL,
	"reserve0" numeric(78, 0) NOT NULL,
	"reserve1" numeric(78, 0) NOT NULL,
	CONSTRAINT "pool_reserves_token0_id_token1_id_block_number_pk" PRIMARY KEY("token0_id","token1_id","block_number")
);
--> statement-breakpoint
CREATE TABLE "pools" (
	"token0_id" bigint NOT NULL,
	"token1_id" bigint NOT NULL,
	"lp_token_id" bigint NOT NULL,
	"account" text NOT NULL,
	"reserve0" numeric(78, 0) DEFAULT '0' NOT NULL,
	"reserve1" numeric(78, 0) DEFAULT '0' NOT NULL,
	"lp_supply" numeric(78, 0) DEFAULT '0' NOT NULL,
	"lp_fee" integer NOT NULL,
	"created_block" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "pools_token0_id_token1_id_pk" PRIMARY KEY("token0_id","token1_id"),
	CONSTRAINT "pools_lp_token_uq" UNIQUE("lp_token_id")
);
--> statement-breakpoint
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
	"account" text NOT NULL,
	"timestamp" bigint NOT NULL,
	CONSTRAINT "swaps_block_number_event_index_hop_pk" PRIMARY KEY("block_number","event_index","hop")
);
--> statement-breakpoint
CREATE TABLE "blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"timestamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkpoints" (
	"name" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"chain_finalized" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "holders_rank_idx" ON "holders" USING btree ("token_id","balance" DESC NULLS LAST,"account");--> statement-breakpoint
CREATE INDEX "tokens_symbol_idx" ON "tokens" USING btree (lower("symbol"));--> statement-breakpoint
CREATE INDEX "pool_reserves_time_idx" ON "pool_reserves" USING btree ("token0_id","token1_id","timestamp");--> statement-breakpoint
CREATE INDEX "swaps_time_idx" ON "swaps" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "swaps_pool_time_idx" ON "swaps" USING btree ("token0_id","token1_id","timestamp");