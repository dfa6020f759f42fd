ALTER TABLE "token_latest_prices" ALTER COLUMN "price_usd" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_prices" ALTER COLUMN "price_usd" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "holders" ADD COLUMN "free" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "holders" ADD COLUMN "reserved" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "holders" ADD COLUMN "frozen" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "holders" ADD COLUMN "transferable" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "holders" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "accounts" bigint;