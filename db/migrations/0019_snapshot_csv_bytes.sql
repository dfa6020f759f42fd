ALTER TABLE "holder_snapshots" ADD COLUMN "csv_bytes" bigint;--> statement-breakpoint
-- Snapshots finished before: their CSV's size from their rows (the header line, 21 bytes, then "rank,address,balance\n" per row).
UPDATE "holder_snapshots" s SET "csv_bytes" = 21 + coalesce((SELECT sum(octet_length(h.rank::text) + octet_length(h.account) + octet_length(h.balance::text) + 3) FROM "snapshot_holders" h WHERE h.snapshot_id = s.id), 0) WHERE s.state = 'done';
