-- A writer making a partition waits for the parent's SHARE UPDATE EXCLUSIVE lock (0023) at most
-- 2 minutes, then fails with SQLSTATE 55P03 (lock_not_available) and a message naming what holds
-- it; the follower and backfill retry a failed write. Without a bound it waited as long as the
-- holder lived: another writer's open transaction that made a partition, a DETACH run by hand
-- without lock_timeout (prune-history bounds its own: db/queries/partitions.ts), an ANALYZE, or a
-- session left idle in a transaction after a LOCK. The SET clause applies to this function's
-- statements only and is restored when it returns; the rest of the writer's transaction keeps
-- its own lock_timeout.
CREATE OR REPLACE FUNCTION "ensure_block_partitions"(parent regclass, blocks bigint[]) RETURNS void LANGUAGE plpgsql
SET lock_timeout = '2min'
AS $$
DECLARE
  width CONSTANT bigint := 1000000;
  nsp text;
  rel text;
  start bigint;
  part text;
BEGIN
  SELECT n.nspname, c.relname INTO nsp, rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
  FOR start IN SELECT DISTINCT b / width * width FROM unnest(blocks) b WHERE b IS NOT NULL ORDER BY 1 LOOP
    part := format('%s_p%s', rel, start / width);
    -- A table of the name that is not a partition (or one being detached) was left by an
    -- interrupted prune-history: an insert would find no partition. Said, not skipped.
    IF to_regclass(format('%I.%I', nsp, part)) IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM pg_inherits i WHERE i.inhrelid = to_regclass(format('%I.%I', nsp, part)) AND i.inhparent = parent AND NOT i.inhdetachpending
    ) THEN
      RAISE EXCEPTION 'table %.% is a partition detached by an interrupted prune-history: run tokenpool prune-history again (it finishes and drops it), then this range can be written', nsp, part;
    END IF;
    IF to_regclass(format('%I.%I', nsp, part)) IS NULL THEN
      BEGIN
        EXECUTE format('LOCK TABLE %I.%I IN SHARE UPDATE EXCLUSIVE MODE', nsp, rel);
      EXCEPTION WHEN lock_not_available THEN
        RAISE EXCEPTION USING
          ERRCODE = 'lock_not_available',
          MESSAGE = format('making partition %s of %I.%I waited %s (lock_timeout) for the table''s SHARE UPDATE EXCLUSIVE lock: nothing was written, and the write is retried. '
            'Another session holds the table (a writer that made a partition in a transaction still open, a DETACH or ANALYZE, a session idle in a transaction); '
            'find it with: select pid, state, xact_start, query from pg_stat_activity where pid in (select pid from pg_locks where relation = %L::regclass and granted)',
            part, nsp, rel, current_setting('lock_timeout'), format('%I.%I', nsp, rel));
      END;
      IF to_regclass(format('%I.%I', nsp, part)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING DEFAULTS)', nsp, part, nsp, rel);
        EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%s) TO (%s)', nsp, rel, nsp, part, start, start + width);
      END IF;
    END IF;
  END LOOP;
END $$;
