/**
 * Swap lists, newest first, keyset-paged: a pool's trades and an account's, each a walk of its
 * index from the cursor (db/schema/pools.ts), a block slice of partitions at a time (listSlices).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../database.js";
import { swaps } from "../schema/index.js";
import { inListOrder } from "./list-order.js";
import { listSlices, type BlockBounds, type BlockSlice } from "./partitions.js";

export type Swap = typeof swaps.$inferSelect;

/** Position of a swap hop: the keyset of a pool's trades, newest first. */
export interface SwapPosition {
  blockNumber: number;
  eventIndex: number;
  hop: number;
}

/** A swap hop's position as the list indexes key it (db/schema/pools.ts): negated, newest first ascending. */
const NEWEST_FIRST = [sql`-${swaps.blockNumber}`, sql`-${swaps.eventIndex}`, sql`-${swaps.hop}`] as const;

/** Swap hops strictly older than `before`, on the negated keys (an index condition of either list index). */
const olderThan = (before: SwapPosition) =>
  sql`(-${swaps.blockNumber}, -${swaps.eventIndex}, -${swaps.hop}) > (-${before.blockNumber}::bigint, -${before.eventIndex}::integer, -${before.hop}::smallint)`;

/** Blocks [from, to] on the negated key (an index range) and on block_number (prunes the partitions outside, at plan time). */
const within = (s: BlockBounds) =>
  and(
    s.from === undefined ? undefined : sql`-${swaps.blockNumber} <= -${s.from}::bigint and ${swaps.blockNumber} >= ${s.from}::bigint`,
    s.to === undefined ? undefined : sql`-${swaps.blockNumber} >= -${s.to}::bigint and ${swaps.blockNumber} <= ${s.to}::bigint`,
  );

/**
 * A list read a block slice at a time, newest first (listSlices: the newest partition alone, then
 * 2, 4…), until `limit` rows: each slice's rows are all newer than the next's.
 */
async function bySlice(tx: Database, from: number | undefined, to: number | undefined, limit: number, read: (s: BlockSlice, left: number) => Promise<Swap[]>): Promise<Swap[]> {
  const found: Swap[] = [];
  for (const s of await listSlices(tx, "swaps", from, to)) {
    found.push(...(await read(s, limit - found.length)));
    if (found.length >= limit) break;
  }
  return found;
}

/** poolSwaps' statement for a slice (for EXPLAIN in tests: run it through inListOrder, as poolSwaps does). */
export function poolSwapsQuery(db: Database, pool: { token0Id: number; token1Id: number }, limit: number, before?: SwapPosition, slice: BlockBounds = { from: undefined, to: before?.blockNumber }) {
  return db
    .select()
    .from(swaps)
    .where(and(eq(swaps.token0Id, pool.token0Id), eq(swaps.token1Id, pool.token1Id), before && olderThan(before), within(slice)))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/**
 * A pool's swap hops newest first, after `before` (exclusive) when given: a walk of
 * swaps_pool_block_idx from the position, flat at any depth.
 */
export function poolSwaps(db: Database, pool: { token0Id: number; token1Id: number }, limit: number, before?: SwapPosition): Promise<Swap[]> {
  return inListOrder(db, (tx) => bySlice(tx, undefined, before?.blockNumber, limit, (s, left) => poolSwapsQuery(tx, pool, left, before, s)));
}

export interface SwapFilter {
  before?: SwapPosition | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
}

/** The newest block `f` allows: its toBlock, or its cursor's block when lower. */
const upTo = (f: SwapFilter) => (f.before === undefined ? f.toBlock : Math.min(f.toBlock ?? f.before.blockNumber, f.before.blockNumber));

/** accountSwaps' statement, its blocks one slice's (for EXPLAIN in tests, as poolSwapsQuery). */
export function accountSwapsQuery(db: Database, account: string, limit: number, f: SwapFilter = {}) {
  return db
    .select()
    .from(swaps)
    .where(and(eq(swaps.account, account), f.before && olderThan(f.before), within({ from: f.fromBlock, to: upTo(f) })))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/**
 * An account's swap hops newest first (it traded; a swap of credit names no account), after
 * `before` when given, optionally within blocks [fromBlock, toBlock]: a walk of
 * swaps_account_block_idx.
 */
export function accountSwaps(db: Database, account: string, limit: number, f: SwapFilter = {}): Promise<Swap[]> {
  return inListOrder(db, (tx) => bySlice(tx, f.fromBlock, upTo(f), limit, (s, left) => accountSwapsQuery(tx, account, left, { ...f, fromBlock: s.from, toBlock: s.to })));
}
