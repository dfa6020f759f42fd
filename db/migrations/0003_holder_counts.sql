CREATE TABLE "holder_counts" (
	"token_id" bigint PRIMARY KEY NOT NULL,
	"holders" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "holder_counts" ("token_id", "holders") SELECT "token_id", count(*) FROM "holders" GROUP BY "token_id";
