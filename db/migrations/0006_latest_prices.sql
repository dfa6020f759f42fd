CREATE TABLE "token_latest_prices" (
	"token_id" bigint PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"price_usd" numeric NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blocks_timestamp_number_idx" ON "blocks" USING btree ("timestamp","number");--> statement-breakpoint
INSERT INTO "token_latest_prices" ("token_id", "block_number", "price_usd")
SELECT DISTINCT ON ("token_id") "token_id", "block_number", "price_usd" FROM "token_prices" ORDER BY "token_id", "block_number" DESC;
