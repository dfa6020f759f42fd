/** Retention of transfers: the rows before a block given up, and the floor lists are complete from. */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { dropPartitionsBefore } from "./partitions.js";
import { dropStagesBefore } from "./transfer-stages.js";

/**
 * Retention: transfers before block `before` are given up (`tokenpool prune-history --transfers`).
 * The "transfers" floor moves first, in its own transaction, so every list says where it is
 * complete from while rows go; then every partition wholly before it is dropped (db/queries/
 * partitions.ts), and only the rows of the partition `before` falls in are deleted, in batches
 * of `batch`, each its own transaction (no long lock on a table the indexer appends to).
 * `before` must be at most the follower's checkpoint. Running it again deletes nothing.
 */
export async function pruneTransfers(db: Database, before: number, batch = 50_000): Promise<{ partitions: number; dropped: number; deleted: number }> {
  const [cp] = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from checkpoints where name = 'follower'`));
  if (!cp || before > Number(cp.block_number)) throw new Error(`block ${before} is after the store's checkpoint (${cp ? cp.block_number : "none"}): transfers up to the newest block are kept`);
  await db.execute(sql`
    insert into history_floors (kind, block_number) values ('transfers', ${before}::bigint)
    on conflict (kind) do update set block_number = greatest(history_floors.block_number, excluded.block_number)`);
  const { partitions, rows: dropped } = await dropPartitionsBefore(db, "transfers", before);
  // A backfill's stages there too (db/queries/transfer-stages.ts): attached later, they would bring those rows back.
  await dropStagesBefore(db, before);
  // The hashes of those blocks' extrinsics go with them (block_extrinsics: only transfers read them).
  await dropPartitionsBefore(db, "block_extrinsics", before);
  await db.execute(sql`delete from block_extrinsics where block_number < ${before}::bigint`);
  let deleted = 0;
  for (;;) {
    const [r] = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        with gone as (
          delete from transfers where block_number < ${before}::bigint and (block_number, event_index) in (
            select block_number, event_index from transfers where block_number < ${before}::bigint limit ${batch})
          returning 1
        ) select count(*) as n from gone`),
    );
    deleted += Number(r!.n);
    if (Number(r!.n) < batch) return { partitions, dropped, deleted };
  }
}

/** The first block transfer lists are complete from, when transfers were pruned; undefined when never. */
export async function transfersFloor(db: Database): Promise<number | undefined> {
  const [r] = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from history_floors where kind = 'transfers'`));
  return r === undefined ? undefined : Number(r.block_number);
}
