/**
 * Holder snapshots (db/schema/snapshots.ts): every holder of a token as of a block, from balance
 * history. A job walks the token's accounts in batches (descending: one backward step of
 * balance_history's key per account gives its newest row at or before the block), writes each
 * batch's non-zero balances and the last account read in one transaction — so a job that stops
 * anywhere resumes where it was — then ranks them (db/queries/snapshot-rank.ts).
 */
import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { makeRoom, settleCharges } from "./snapshot-budget.js";
import { holderSnapshots, snapshotHolders } from "../schema/index.js";

export type Snapshot = typeof holderSnapshots.$inferSelect;

/** The advisory lock that orders new snapshot work and the disk cap's checks (requests, job steps). */
export const SNAPSHOTS_LOCK = 7157001;

/**
 * The snapshot of (token, block) — of an LP token with `from.lp` — the one already asked for, or
 * a new one queued. `created` says which (a new one needs a job). New work holds a place for
 * `reservedRows` under the disk cap.
 */
export async function requestSnapshot(db: Database, tokenId: number, blockNumber: number, requestedBy: string | null, from: { clientKey?: string; reservedRows?: number; lp?: boolean } = {}): Promise<{ snapshot: Snapshot; created: boolean }> {
  const lp = from.lp ?? false;
  const requestedFrom = from.clientKey ?? null;
  const reservedRows = from.reservedRows ?? 0;
  // A failed one asked for again is queued again, from the start (it is new work).
  const [made] = await db
    .insert(holderSnapshots)
    .values({ lp, tokenId, blockNumber, requestedBy, requestedFrom, reservedRows })
    .onConflictDoUpdate({
      target: [holderSnapshots.lp, holderSnapshots.tokenId, holderSnapshots.blockNumber],
      set: { state: "queued", error: null, accountsDone: 0, accountsEstimate: null, resumeAfter: null, finishedAt: null, requestedBy, requestedFrom, reservedRows, rowsWritten: 0 },
      setWhere: eq(holderSnapshots.state, "failed"),
    })
    .returning();
  if (made) return { snapshot: made, created: true };
  const [kept] = await db.select().from(holderSnapshots).where(and(eq(holderSnapshots.lp, lp), eq(holderSnapshots.tokenId, tokenId), eq(holderSnapshots.blockNumber, blockNumber)));
  return { snapshot: kept!, created: false };
}

export async function getSnapshot(db: Database, id: number): Promise<Snapshot | undefined> {
  const [row] = await db.select().from(holderSnapshots).where(eq(holderSnapshots.id, id));
  return row;
}

/** Snapshots not finished (queued or running), oldest first: what a restarted runner picks up. */
export async function unfinishedSnapshots(db: Database): Promise<Snapshot[]> {
  return db.select().from(holderSnapshots).where(inArray(holderSnapshots.state, ["queued", "running"])).orderBy(asc(holderSnapshots.id));
}

/**
 * A job's statements are not requests: the API's statement timeout (API_STATEMENT_TIMEOUT_MS,
 * 5 s) cancelled the ranking of a 2M-holder snapshot. Each is bounded by its batch, or by the
 * snapshot's size; this bounds a hung one. (The API runs jobs on DbHandle.jobs, whose connections
 * have this timeout and a silence watch to match; this covers any other connection, the CLI's.)
 */
export const JOB_TIMEOUT = sql`set local statement_timeout = '15min'`;

/**
 * Snapshot `id`'s ranking while it is copied into snapshot_holders (db/queries/snapshot-rank.ts):
 * a table of its own, so that a ranking that fails gives its disk back at once (the files of a
 * table created by a transaction that aborts are unlinked with it; rows deleted stay until a
 * vacuum) and one that is done is dropped the same way.
 */
export const ranksTable = (id: number) => sql.raw(`"snapshot_ranks_${Math.trunc(Number(id))}"`);

/** Marks a snapshot running and counts the accounts its walk will read (progress's denominator). */
export async function startSnapshot(db: Database, id: number): Promise<Snapshot> {
  // Counting a 2M-holder token's accounts is a job's statement too (see JOB_TIMEOUT).
  const [row] = await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(JOB_TIMEOUT);
    return rowsOf<{ id: string | number }>(
      await t.execute(sql`
      update holder_snapshots s set state = 'running',
        accounts_estimate = coalesce(s.accounts_estimate, (
          select count(distinct account) from balance_history h
          where h.lp = s.lp and h.token_id = s.token_id and h.block_number <= s.block_number))
      where s.id = ${id} and s.state in ('queued', 'running') returning s.id`),
    );
  });
  if (!row) throw new Error(`snapshot ${id} is not queued or running`);
  return (await getSnapshot(db, id))!;
}

/** A snapshot that, written so far, cannot fit under the disk cap even with every finished one deleted: it fails at once, not retried. */
export class SnapshotTooLargeError extends Error {
  constructor(readonly rows: number, readonly maxRows: number) {
    super(`the snapshot passed ${rows.toLocaleString("en")} rows, more than the disk cap leaves it (SNAPSHOTS_MAX_ROWS = ${maxRows.toLocaleString("en")}, with the snapshots being computed)`);
    this.name = "SnapshotTooLargeError";
  }
}

/**
 * Reads the next `batch` accounts of the walk (each one's balance as of the snapshot's block),
 * keeps the non-zero ones, and moves the resume point, in one transaction. Returns how many
 * accounts it read: fewer than `batch` means the walk is over.
 *
 * With `maxRows` (the disk cap), the same transaction then keeps the kept snapshots within it:
 * the snapshot's reservation grows to what it wrote, and finished snapshots are deleted, oldest
 * first, until the rows fit; a snapshot that cannot fit is refused (SnapshotTooLargeError) and its
 * batch undone. Serialized with requests and other jobs by SNAPSHOTS_LOCK, taken after the walk.
 */
export async function snapshotStep(db: Database, id: number, batch: number, maxRows?: number): Promise<number> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(JOB_TIMEOUT);
    const [s] = rowsOf<{ lp: boolean; token_id: string | number; block_number: string | number; resume_after: string | null }>(
      await t.execute(sql`select lp, token_id, block_number, resume_after from holder_snapshots where id = ${id} and state = 'running' for update`),
    );
    if (!s) return 0;
    const after = s.resume_after === null ? sql`` : sql`and account < ${s.resume_after}`;
    const [moved] = rowsOf<{ n: string | number }>(
      await t.execute(sql`
        with walk as (
          select distinct on (account) account, balance from balance_history
          where lp = ${s.lp}::boolean and token_id = ${s.token_id} and block_number <= ${s.block_number} ${after}
          order by account desc, block_number desc
          limit ${batch}
        ), kept as (
          insert into snapshot_balances (snapshot_id, account, balance)
          select ${id}, account, balance from walk where balance > 0
          on conflict do nothing
          returning 1
        ), moved as (
          update holder_snapshots set resume_after = coalesce((select min(account) from walk), resume_after),
            accounts_done = accounts_done + (select count(*) from walk),
            rows_written = rows_written + (select count(*) from kept),
            reserved_rows = greatest(reserved_rows, rows_written + (select count(*) from kept))
          where id = ${id}
        )
        select count(*) as n from walk`),
    );
    if (maxRows !== undefined) await keepUnderCap(t, id, maxRows);
    return Number(moved!.n);
  });
}

/**
 * Within a transaction: deletes finished snapshots, oldest first, until the kept rows and the
 * unfinished reservations fit `maxRows`, or refuses snapshot `id` (SnapshotTooLargeError: the
 * transaction is undone). Serialized with requests and other jobs by SNAPSHOTS_LOCK.
 */
export async function keepUnderCap(t: Database, id: number, maxRows: number): Promise<void> {
  await t.execute(sql`select pg_advisory_xact_lock(${SNAPSHOTS_LOCK})`);
  const room = await makeRoom(t, maxRows);
  if (room.fits) return;
  const [w] = rowsOf<{ n: string | number }>(await t.execute(sql`select rows_written as n from holder_snapshots where id = ${id}`));
  throw new SnapshotTooLargeError(Number(w?.n ?? 0), maxRows);
}

/** Before a job's first step: room for its reservation under the disk cap (the oldest finished go first). */
export async function makeRoomFor(db: Database, id: number, maxRows: number): Promise<void> {
  await db.transaction((tx) => keepUnderCap(tx as unknown as Database, id, maxRows));
}

/** Marks a snapshot failed: its working rows go (its ranking's table dropped: disk back at once), its place under the disk cap is freed, its charge given back (it keeps nothing). */
export async function failSnapshot(db: Database, id: number, error: string): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.update(holderSnapshots).set({ state: "failed", error: error.slice(0, 500), finishedAt: sql`now()`, reservedRows: 0 }).where(eq(holderSnapshots.id, id));
    await dropWork(t, id);
    await settleCharges(t, id, 0);
  });
}

/** Within a transaction: the working rows of snapshot `id` (walked balances, its ranking, ranks copied so far) go. */
export async function dropWork(t: Database, id: number): Promise<void> {
  await t.execute(sql`delete from snapshot_balances where snapshot_id = ${id}`);
  await t.execute(sql`delete from snapshot_holders where snapshot_id = ${id}`);
  await t.execute(sql`drop table if exists ${ranksTable(id)}`);
}

/** Ranks after `afterRank`, up to `limit` of them. */
export async function snapshotPage(db: Database, id: number, afterRank: number, limit: number) {
  return db
    .select({ rank: snapshotHolders.rank, account: snapshotHolders.account, balance: snapshotHolders.balance })
    .from(snapshotHolders)
    .where(and(eq(snapshotHolders.snapshotId, id), gt(snapshotHolders.rank, afterRank)))
    .orderBy(asc(snapshotHolders.rank))
    .limit(limit);
}

/** A holder CSV's first line (both kinds: a snapshot's and the current list's). */
export const CSV_HEADER = "rank,address,balance\n";

/**
 * The bytes of the CSV of the ranked rows `rows` (an SQL source with rank, account and balance):
 * the header line, then one `rank,address,balance\n` line per row, as snapshotCsvBatch writes them
 * (db/migrations/0019 computes the same for snapshots finished before it).
 */
export const csvBytesOf = (rows: SQL) =>
  sql`(select ${Buffer.byteLength(CSV_HEADER)} + coalesce(sum(octet_length(rank::text) + octet_length(account) + octet_length(balance::text) + 3), 0) from ${rows} r)`;

/**
 * Ranks after `afterRank`, up to `limit` of them, as CSV lines (`rank,address,balance\n` each),
 * built by the database: one string per batch instead of an object per row (a 540,000-holder
 * download allocated ≈ 100 MB of short-lived rows per client in JS). `last` is the batch's last
 * rank; `rows` how many it holds.
 */
export async function snapshotCsvBatch(db: Database, id: number, afterRank: number, limit: number): Promise<{ text: string; rows: number; last: number }> {
  const [row] = rowsOf<{ n: string | number; last: string | number | null; text: string | null }>(
    await db.execute(sql`
      select count(*) as n, max(rank) as last, string_agg(rank::text || ',' || account || ',' || balance::text || E'\n', '' order by rank) as text
      from (select rank, account, balance from snapshot_holders where snapshot_id = ${id} and rank > ${afterRank} order by rank limit ${limit}) b`),
  );
  return { text: row?.text ?? "", rows: Number(row?.n ?? 0), last: Number(row?.last ?? afterRank) };
}

/**
 * Keeps the newest `keep` finished snapshots (done or failed), and of those only the ones
 * finished within `maxAgeHours` (when given); deletes the rest with their holders and returns the
 * ids deleted. Unfinished ones are never touched.
 */
export async function pruneSnapshots(db: Database, keep: number, maxAgeHours?: number): Promise<number[]> {
  const old = maxAgeHours === undefined ? sql`false` : sql`finished_at < now() - make_interval(hours => ${maxAgeHours})`;
  // One statement: a snapshot and its rows go together (two left orphan rows to a crash between
  // them, and a reader saw the snapshot gone while its rows were still there).
  return rowsOf<{ id: string | number }>(
    await db.execute(sql`
      with gone as (
        delete from holder_snapshots where id in (
          select id from holder_snapshots where state in ('done', 'failed') and (${old} or id in (
            select id from holder_snapshots where state in ('done', 'failed') order by id desc offset ${keep}))
        ) returning id
      ), rows as (
        delete from snapshot_holders where snapshot_id in (select id from gone)
      )
      select id from gone`),
  ).map((r) => Number(r.id));
}
