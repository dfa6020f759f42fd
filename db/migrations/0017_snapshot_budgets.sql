CREATE TABLE "snapshot_charges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"snapshot_id" bigint NOT NULL,
	"user_id" uuid,
	"client_key" text NOT NULL,
	"rows" bigint NOT NULL,
	"settled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD COLUMN "requested_from" text;--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD COLUMN "reserved_rows" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "holder_snapshots" ADD COLUMN "rows_written" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "snapshot_charges_user_idx" ON "snapshot_charges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "snapshot_charges_client_idx" ON "snapshot_charges" USING btree ("client_key","created_at");--> statement-breakpoint
CREATE INDEX "snapshot_charges_snapshot_idx" ON "snapshot_charges" USING btree ("snapshot_id");