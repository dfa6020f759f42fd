-- Issue 40: a transfer's kind is stored as a 2-byte code, its place in TRANSFER_KINDS
-- (db/schema/transfers.ts: append only), instead of its name. The four list indexes key on it
-- second, so each index entry is narrower: ingestion faster, the indexes smaller
-- (docs/performance.md, "The kind as a code"). A row whose kind is not one of the eight has no
-- code: the migration fails on it (NOT NULL) rather than guess. No CHECK on the codes: a
-- partition is made LIKE the table without its constraints, then attached (0025), and ATTACH
-- refuses a table that lacks one; codes are written through transferKindCode only, and a code
-- outside the list is read as an error (transferKindOf), never as another kind. The table and its
-- indexes are rewritten once, under an exclusive lock (docs/operators.md, "Migration 0028").
ALTER TABLE "transfers" ALTER COLUMN "kind" SET DATA TYPE smallint USING (array_position(ARRAY['transfer','mint','burn','deposit','withdraw','fee','dust','slash']::text[], "kind") - 1)::smallint;

