-- The block ranges whose events the store holds (db/schema/chain.ts, db/queries/coverage.ts),
-- from the blocks on record: one scan here, never per request. The bootstrap's block is a
-- snapshot (state, not events) unless a backfill chunk covered it; older re-bootstraps left no
-- record, and their blocks count as held.
CREATE TABLE "event_ranges" (
	"from_block" bigint PRIMARY KEY NOT NULL,
	"to_block" bigint NOT NULL
);--> statement-breakpoint
INSERT INTO "event_ranges" ("from_block", "to_block")
SELECT min(number), max(number) FROM (
  SELECT number, number - row_number() OVER (ORDER BY number) AS run FROM "blocks" b
  WHERE NOT EXISTS (
    SELECT 1 FROM "indexer_tasks" t
    WHERE t.name = 'bootstrap' AND (t.state->>'number')::bigint = b.number
      AND NOT EXISTS (SELECT 1 FROM "backfill_chunks" c WHERE c.from_block <= b.number AND c.to_block >= b.number))
) r GROUP BY run;
