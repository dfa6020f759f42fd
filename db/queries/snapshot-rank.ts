/**
 * The end of a holder snapshot's job (db/queries/snapshots.ts walks it): its balances ranked into
 * a table of its own, copied into snapshot_holders in batches, then the snapshot marked done.
 *
 * Each phase can fail and be retried without the disk growing with the attempts (issue 38,
 * re-attack finding 5: one 1M-row ranking per attempt, each rolled back into dead rows, grew a
 * database by 11 GB). The ranking is one transaction that creates its table: aborted, the table's
 * files go with it; committed, it is kept and never made again. A copy batch rolled back leaves at
 * most one batch of dead rows; a committed one is kept, and the next starts after the last rank
 * written. So a snapshot of N rows writes its ranking once and its ranked list once, plus at most
 * one batch per failed copy attempt.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { settleCharges } from "./snapshot-budget.js";
import { csvBytesOf, dropWork, JOB_TIMEOUT, keepUnderCap, ranksTable } from "./snapshots.js";

/**
 * Copies of its rows a snapshot holds on disk while it is ranked and copied: its walked balances
 * (deleted when the ranking is made, their space reused by later walks only after a vacuum), the
 * ranking and the ranked list. Its place under the disk cap grows to this many times its rows
 * for that time, so the cap counts its working space too.
 */
export const RANKING_COPIES = 3;

type Locked = { state: string; block_number: string | number; floor: string | number | null; rows_written: string | number; ranked: boolean };

/** Within a transaction: snapshot `id`'s row, locked (two runners on one snapshot take turns), and whether its ranking exists. */
async function lockSnapshot(t: Database, id: number): Promise<Locked | undefined> {
  await t.execute(JOB_TIMEOUT);
  const [s] = rowsOf<Locked>(
    // An LP token's snapshot is read from the LP positions' history, exact from their floor on.
    await t.execute(sql`select state, block_number, rows_written, (select block_number from history_floors where kind = case when lp then 'lp' else 'holders' end) as floor,
      to_regclass(${`snapshot_ranks_${Math.trunc(id)}`}) is not null as ranked
      from holder_snapshots where id = ${id} for update`),
  );
  return s;
}

/**
 * Ranks snapshot `id`'s walked balances (balance descending, then address) into its ranking
 * table, once: "ranked" when it is there (made now or before). Its place under the disk cap grows
 * to RANKING_COPIES times its rows first (the oldest finished snapshots go; one that cannot fit is
 * refused: SnapshotTooLargeError). Refused ("failed") when the history it was read from was pruned
 * past its block while it ran (`tokenpool prune-history`): the list could miss accounts.
 */
export async function rankSnapshot(db: Database, id: number, maxRows?: number): Promise<"ranked" | "done" | "failed"> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const s = await lockSnapshot(t, id);
    if (s?.state !== "running") return s?.state === "done" ? "done" : "failed";
    if (s.floor === null || Number(s.floor) > Number(s.block_number)) {
      await t.execute(sql`update holder_snapshots set state = 'failed', finished_at = now(), reserved_rows = 0, error = ${`balance history before block ${s.floor} was pruned while this snapshot ran: it can no longer be answered exactly`} where id = ${id}`);
      await dropWork(t, id);
      await settleCharges(t, id, 0);
      return "failed";
    }
    if (s.ranked) return "ranked";
    await t.execute(sql`update holder_snapshots set reserved_rows = greatest(reserved_rows, rows_written * ${RANKING_COPIES}) where id = ${id}`);
    if (maxRows !== undefined) await keepUnderCap(t, id, maxRows);
    await t.execute(sql`
      create table ${ranksTable(id)} as
      select row_number() over (order by balance desc, account) as rank, account, balance
      from snapshot_balances where snapshot_id = ${id}`);
    await t.execute(sql`alter table ${ranksTable(id)} add primary key (rank)`);
    // Once ranked, the walk is not read again: its rows go now (their space is reused after a vacuum).
    await t.execute(sql`delete from snapshot_balances where snapshot_id = ${id}`);
    return "ranked";
  });
}

/**
 * Copies the next `batch` ranks of snapshot `id`'s ranking into snapshot_holders, after the last
 * rank already there, in one transaction; returns how many. Fewer than `batch`: the copy is over.
 */
export async function copyRanks(db: Database, id: number, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const s = await lockSnapshot(t, id);
    if (s?.state !== "running" || !s.ranked) return 0;
    const [copied] = rowsOf<{ n: string | number }>(
      await t.execute(sql`
        with copied as (
          insert into snapshot_holders (snapshot_id, rank, account, balance)
          select ${id}, rank, account, balance from ${ranksTable(id)}
          where rank > (select coalesce(max(rank), 0) from snapshot_holders where snapshot_id = ${id})
          order by rank limit ${batch}
          on conflict do nothing
          returning 1
        )
        select count(*) as n from copied`),
    );
    return Number(copied?.n ?? 0);
  });
}

/**
 * Marks snapshot `id` done once its ranking is copied whole, and drops the ranking (its disk back
 * at once); false when it is not running (done by another runner, or failed).
 */
export async function completeSnapshot(db: Database, id: number): Promise<boolean> {
  const finished = await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const s = await lockSnapshot(t, id);
    if (s?.state !== "running" || !s.ranked) return s?.state === "done";
    const [n] = rowsOf<{ ranks: string | number; copied: string | number }>(
      await t.execute(sql`select (select count(*) from ${ranksTable(id)}) as ranks, (select count(*) from snapshot_holders where snapshot_id = ${id}) as copied`),
    );
    if (Number(n!.ranks) !== Number(n!.copied)) throw new Error(`snapshot ${id}: ${n!.copied} of ${n!.ranks} ranks copied`);
    await t.execute(sql`
      update holder_snapshots set state = 'done', finished_at = now(), resume_after = null, reserved_rows = 0, holders = ${Number(n!.ranks)},
        total = (select coalesce(sum(balance), 0) from ${ranksTable(id)}), csv_bytes = ${csvBytesOf(ranksTable(id))}
      where id = ${id}`);
    await t.execute(sql`drop table ${ranksTable(id)}`);
    // The charge of the request that asked for it becomes what it holds.
    await settleCharges(t, id, Number(n!.ranks));
    return true;
  });
  if (!finished) return false;
  // Fresh statistics for the pages' keyset reads (a table that just grew by 600,000 rows is
  // otherwise planned from its size before). One sample, ≈ 0.1 s.
  await db.execute(sql`analyze snapshot_holders`);
  return true;
}
