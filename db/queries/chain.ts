import { and, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { backfillChunks, blocks, indexerTasks, skippedEvents } from "../schema/index.js";
import { deleteRecorded, storable } from "./balance-history.js";
import { unnestRows } from "./bulk.js";
import { recordEventRanges, runsOf } from "./coverage.js";

export type Block = typeof blocks.$inferSelect;

/**
 * Indexed blocks, and their events as held (event_ranges: recordEventRanges) unless `snapshot`
 * names one whose state was read but not its events (a bootstrap's block), or `held` is false (a
 * backfill's stage: recorded when it is attached). Inside a writer's transaction, call it last:
 * it takes the event ranges' lock (see recordEventRanges).
 */
export async function insertBlocks(db: Database, rows: Block[], snapshot?: number, held = true): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(blocks)
    .select(unnestRows(blocks, rows))
    .onConflictDoUpdate({ target: blocks.number, set: { hash: sql`excluded."hash"`, timestamp: sql`excluded."timestamp"` } });
  if (held) await recordEventRanges(db, runsOf(rows.map((r) => r.number).filter((n) => n !== snapshot)));
}

/**
 * The block range holding exactly the blocks whose time lies in [from, to] (Unix seconds; either
 * may be open), found with two seeks of blocks_timestamp_number_idx: block times never decrease,
 * so every block after the last one before `from` is at or after it, and every block before the
 * first one after `to` is at or before it (true of a store with gaps too). A bound left undefined
 * is open; `fromBlock > toBlock` when no block can be in the range.
 */
export async function blockRangeOfTimes(db: Database, from: number | undefined, to: number | undefined): Promise<{ fromBlock?: number; toBlock?: number }> {
  const [r] = rowsOf<{ before: string | number | null; after: string | number | null }>(
    await db.execute(sql`select
      ${from === undefined ? sql`null` : sql`(select number from blocks where timestamp < ${from}::bigint order by timestamp desc, number desc limit 1)`} as before,
      ${to === undefined ? sql`null` : sql`(select number from blocks where timestamp > ${to}::bigint order by timestamp, number limit 1)`} as after`),
  );
  return {
    ...(r?.before == null ? {} : { fromBlock: Number(r.before) + 1 }),
    ...(r?.after == null ? {} : { toBlock: Number(r.after) - 1 }),
  };
}

/** The newest indexed block: the end of every 24 h window and the time of every current value. */
export async function latestBlock(db: Database): Promise<Block | undefined> {
  const [row] = await db.select().from(blocks).orderBy(desc(blocks.number)).limit(1);
  return row;
}

export type BackfillChunk = typeof backfillChunks.$inferSelect;

export async function markChunkDone(db: Database, chunk: { fromBlock: number; toBlock: number; swaps: number }): Promise<void> {
  await db
    .insert(backfillChunks)
    .values(chunk)
    .onConflictDoUpdate({ target: [backfillChunks.fromBlock, backfillChunks.toBlock], set: { swaps: chunk.swaps, completedAt: sql`now()` } });
}

/** Completed chunks lying inside [from, to]. */
export async function doneChunks(db: Database, from: number, to: number): Promise<BackfillChunk[]> {
  return db
    .select()
    .from(backfillChunks)
    .where(and(gte(backfillChunks.fromBlock, from), lte(backfillChunks.toBlock, to)))
    .orderBy(backfillChunks.fromBlock);
}

/** The channel on which the writer announces each committed block. */
export const BLOCKS_CHANNEL = "tokenpool_blocks";

/** What a block announcement carries: the block and how many rows of each kind it wrote. */
export interface BlockAnnouncement {
  number: number;
  hash: string;
  timestamp: number;
  /** `transfers` is absent from the announcements of versions before it was kept. */
  counts: { swaps: number; liquidityEvents: number; prices: number; reserves: number; holders: number; tokens: number; transfers?: number };
}

/** NOTIFY each block inside the caller's transaction: listeners hear of it once it is committed. */
export async function announceBlocks(db: Database, blocks: BlockAnnouncement[]): Promise<void> {
  for (const b of blocks) await db.execute(sql`select pg_notify(${BLOCKS_CHANNEL}, ${JSON.stringify(b)})`);
}

export type SkippedEventRow = typeof skippedEvents.$inferInsert;

/**
 * Removes the skipped events of `blockNumbers` (indexing a block again clears its old ones), then
 * writes `rows` (callers keep each statement under Postgres' 65,535 parameters).
 */
export async function replaceSkippedEvents(db: Database, blockNumbers: number[], rows: SkippedEventRow[]): Promise<void> {
  if (blockNumbers.length > 0) await db.delete(skippedEvents).where(inArray(skippedEvents.blockNumber, blockNumbers));
  // A runtime's metadata names its events, and the reasons quote what an event held: NUL, which text cannot hold, is dropped.
  if (rows.length > 0) await db.insert(skippedEvents).values(rows.map((r) => ({ ...r, event: storable(r.event)!, reason: storable(r.reason)! }))).onConflictDoNothing();
}

/** Skipped events on record, counted up to `cap` (the count is for an alert, not an audit). */
export async function countSkippedEvents(db: Database, cap = 10_000): Promise<number> {
  const capped = db.select({ one: sql`1`.as("one") }).from(skippedEvents).limit(cap).as("capped");
  const [row] = await db.select({ n: sql<number>`count(*)::integer` }).from(capped);
  return Number(row?.n ?? 0);
}

/** The newest skipped events, newest first. */
export async function latestSkippedEvents(db: Database, limit: number) {
  return db
    .select({ blockNumber: skippedEvents.blockNumber, eventIndex: skippedEvents.eventIndex, event: skippedEvents.event, reason: skippedEvents.reason })
    .from(skippedEvents)
    .orderBy(desc(skippedEvents.blockNumber), desc(skippedEvents.eventIndex))
    .limit(limit);
}

/** Every table the indexer writes (users are not indexed data). */
export const INDEXED_TABLES = [
  "tokens",
  "holders",
  "holder_counts",
  "token_prices",
  "token_latest_prices",
  "pools",
  "pool_reserves",
  "swaps",
  "liquidity_events",
  "blocks",
  "event_ranges",
  "checkpoints",
  "backfill_chunks",
  "backfill_runs",
  "transfer_stages",
  "pool_volume_hourly",
  "pool_volume_minutely",
  "skipped_events",
  "foreign_locations",
  "indexer_tasks",
  "lp_holders",
  "token_stats",
  "token_candles",
  "pool_candles",
  "transfers",
  "balance_history",
  "history_floors",
  "token_history",
  "holder_snapshots",
  "snapshot_balances",
  "snapshot_holders",
] as const;

/**
 * Empties the indexed data in one statement (the store then bootstraps like a new one).
 * account_ids stays: an id names one address forever, which writers' caches rely on
 * (db/queries/account-ids.ts).
 */
export async function resetIndexedData(db: Database): Promise<void> {
  await db.execute(sql.raw(`TRUNCATE ${INDEXED_TABLES.map((t) => `"${t}"`).join(", ")}`));
  // The rankings of snapshots being computed (db/queries/snapshot-rank.ts) are tables of their own: their snapshots are gone.
  await db.execute(sql.raw(`do $$ declare t text; begin
    for t in select tablename from pg_tables where schemaname = current_schema() and tablename ~ '^snapshot_ranks_[0-9]+$' loop
      execute format('drop table %I', t);
    end loop; end $$`));
  // So are the tables of transfer stages (db/queries/transfer-stages.ts): rows of the chain indexed before, attached by no one now.
  await db.execute(sql.raw(`do $$ declare t text; begin
    for t in select tablename from pg_tables where schemaname = current_schema() and tablename ~ '^transfers_s[0-9]+$' loop
      execute format('drop table %I', t);
    end loop; end $$`));
}

/** The state of a long indexer task ("bootstrap", "history"), or undefined when none is on record. */
export async function getTask<T>(db: Database, name: string): Promise<T | undefined> {
  const [row] = await db.select({ state: indexerTasks.state }).from(indexerTasks).where(eq(indexerTasks.name, name)).limit(1);
  return row?.state as T | undefined;
}

export async function setTask(db: Database, name: string, state: unknown): Promise<void> {
  await db
    .insert(indexerTasks)
    .values({ name, state })
    .onConflictDoUpdate({ target: indexerTasks.name, set: { state, updatedAt: sql`now()` } });
}

/** Every task on record, by name (/health and `tokenpool status`). */
export async function allTasks(db: Database): Promise<Record<string, unknown>> {
  const rows = await db.select({ name: indexerTasks.name, state: indexerTasks.state }).from(indexerTasks);
  return Object.fromEntries(rows.map((r) => [r.name, r.state]));
}

/**
 * The end of a full snapshot at `block`: every token, holder and pool it saw was written at
 * `block`, so older rows are ones it did not see (an aborted attempt's, or the state before a
 * re-bootstrap) and go; holder counts are then recounted from the rows.
 */
export async function sweepSnapshot(db: Database, block: number): Promise<void> {
  await deleteRecorded(db, false, block, sql`delete from holders where block_number < ${block} returning token_id, account`);
  await db.execute(sql`delete from tokens where block_number < ${block}`);
  await db.execute(sql`delete from pools where block_number < ${block}`);
  await db.execute(sql`delete from holder_counts`);
  await db.execute(sql`insert into holder_counts (token_id, holders) select token_id, count(*) from holders group by token_id`);
}

/**
 * The end of one token's re-read at `block` (its holders read again from storage, each row
 * written at `block` or kept where newer): rows older than it are accounts the re-read did not
 * see, and go; the token's holder count is recounted from its rows.
 */
export async function sweepToken(db: Database, tokenId: number, block: number): Promise<void> {
  await deleteRecorded(db, false, block, sql`delete from holders where token_id = ${tokenId} and block_number < ${block} returning token_id, account`);
  await db.execute(sql`delete from holder_counts where token_id = ${tokenId}`);
  await db.execute(sql`insert into holder_counts (token_id, holders) select ${tokenId}, count(*) from holders where token_id = ${tokenId} having count(*) > 0`);
}

/** The chain the store indexes, as the indexer last connected to it (indexer_tasks "chain"). */
export interface ChainInfo {
  ss58: number;
  genesisHash: string;
  specName: string;
}
export const CHAIN_TASK = "chain";

export async function deleteTask(db: Database, name: string): Promise<void> {
  await db.delete(indexerTasks).where(eq(indexerTasks.name, name));
}

/**
 * The writing indexer's heartbeat (indexer_tasks "heartbeat"): rewritten every few seconds while
 * it makes progress (pages of a bootstrap, committed blocks) or stands at the chain's finalized
 * head, with the head it saw. Its age tells /health and `tokenpool status` whether an indexer
 * is alive; the stored checkpoint alone cannot (it is the last value written).
 */
export const HEARTBEAT_TASK = "heartbeat";
export { HEARTBEAT_STALE_SECONDS } from "../../shared/config.js";

export interface HeartbeatState {
  /** The chain's finalized head as the indexer last saw it, and its committed block then. */
  finalized: number | null;
  block: number | null;
}

export interface Heartbeat extends HeartbeatState {
  at: Date;
  /** Seconds since it was written, by the database's clock (no skew between hosts). */
  ageSeconds: number;
}

export async function getHeartbeat(db: Database): Promise<Heartbeat | undefined> {
  const [row] = await db
    .select({ state: indexerTasks.state, at: indexerTasks.updatedAt, age: sql<number>`extract(epoch from (now() - ${indexerTasks.updatedAt}))::float8` })
    .from(indexerTasks)
    .where(eq(indexerTasks.name, HEARTBEAT_TASK))
    .limit(1);
  if (!row) return undefined;
  const state = row.state as Partial<HeartbeatState>;
  return { finalized: state.finalized ?? null, block: state.block ?? null, at: row.at, ageSeconds: Math.max(0, Number(row.age)) };
}

/** What /health and `tokenpool status` show of the indexer's long tasks. */
export interface TaskProgress {
  bootstrap: {
    block: number;
    finished: boolean;
    accounts: number;
    holders: number;
    perSecond: number | null;
    etaSeconds: number | null;
    resumed: number;
    note: string | null;
  } | null;
  history: { from: number; to: number; hours: number; done: number; finished: boolean; error: string | null } | null;
  /**
   * State being read again because it changed without events (indexer/reread.ts): the block it
   * is read at, everything ("all", after a runtime upgrade) or how many tokens, and why.
   */
  reread: { block: number; scope: "all" | "tokens"; tokens: number[]; tokenCount: number; rows: number; reasons: string[] } | null;
  /**
   * The verification sweep (indexer/sweep.ts): the pass in progress (its phase, the block its last
   * page was compared at, entries compared, differences found), differences repaired since the
   * store began, the last full pass, and a runtime upgrade whose pass is owed or running.
   */
  verification: {
    pass: number;
    phase: "tokens" | "pools" | "lp" | "chain" | "store";
    block: number;
    passStartedAt: string;
    checked: number;
    found: number;
    repaired: Record<string, number>;
    lastPass: { pass: number; startBlock: number; endBlock: number; startedAt: string; endedAt: string; seconds: number; checked: number; found: number; upgrade: number | null } | null;
    upgrade: { block: number; specName: string; specVersion: number } | null;
  } | null;
}

export async function taskProgress(db: Database): Promise<TaskProgress> {
  const tasks = (await allTasks(db)) as Record<string, Record<string, any> | undefined>;
  const b = tasks.bootstrap;
  const h = tasks.history;
  const r = tasks.reread;
  const v = tasks.sweep;
  const u = tasks["sweep-upgrade"];
  return {
    bootstrap: b
      ? { block: b.number, finished: b.finished, accounts: b.accounts, holders: b.holders, perSecond: b.perSecond, etaSeconds: b.etaSeconds, resumed: b.resumed, note: b.note }
      : null,
    history: h ? { from: h.from, to: h.to, hours: h.hours, done: h.done, finished: h.finished, error: h.error } : null,
    reread: r
      ? { block: r.block, scope: r.scope === "all" ? "all" : "tokens", tokens: r.scope === "all" ? [] : r.scope.slice(0, 20), tokenCount: r.scope === "all" ? 0 : r.scope.length, rows: r.rows, reasons: r.reasons.slice(-5) }
      : null,
    verification:
      v || u
        ? {
            pass: v?.pass ?? 0,
            phase: v?.phase ?? "tokens",
            block: v?.block ?? 0,
            passStartedAt: v?.passStartedAt ?? new Date(0).toISOString(),
            checked: v?.checked ?? 0,
            found: v?.found ?? 0,
            repaired: v?.repaired ?? {},
            lastPass: v?.lastPass ?? null,
            upgrade: u ? { block: u.block, specName: u.specName, specVersion: u.specVersion } : null,
          }
        : null,
  };
}
