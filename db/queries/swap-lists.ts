/**
 * Swap lists, newest first, keyset-paged: a pool's trades and an account's, each a walk of its
 * index from the cursor (db/schema/pools.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { swaps } from "../schema/index.js";
import { inListOrder } from "./list-order.js";

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

/** poolSwaps' statement (for EXPLAIN in tests: run it through inListOrder, as poolSwaps does). */
export function poolSwapsQuery(db: Database, pool: { token0Id: number; token1Id: number }, limit: number, before?: SwapPosition) {
  return db
    .select()
    .from(swaps)
    .where(and(eq(swaps.token0Id, pool.token0Id), eq(swaps.token1Id, pool.token1Id), before && olderThan(before)))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/**
 * A pool's swap hops newest first, after `before` (exclusive) when given: a walk of
 * swaps_pool_block_idx from the position, flat at any depth.
 */
export function poolSwaps(db: Database, pool: { token0Id: number; token1Id: number }, limit: number, before?: SwapPosition): Promise<Swap[]> {
  return inListOrder(db, (tx) => poolSwapsQuery(tx, pool, limit, before));
}

export interface SwapFilter {
  before?: SwapPosition | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
}

/** accountSwaps' statement (for EXPLAIN in tests, as poolSwapsQuery). */
export function accountSwapsQuery(db: Database, account: string, limit: number, f: SwapFilter = {}) {
  const from = f.fromBlock === undefined ? undefined : sql`-${swaps.blockNumber} <= -${f.fromBlock}::bigint`;
  const to = f.toBlock === undefined ? undefined : sql`-${swaps.blockNumber} >= -${f.toBlock}::bigint`;
  return db
    .select()
    .from(swaps)
    .where(and(eq(swaps.account, account), f.before && olderThan(f.before), from, to))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/**
 * An account's swap hops newest first (it traded; a swap of credit names no account), after
 * `before` when given, optionally within blocks [fromBlock, toBlock]: a walk of
 * swaps_account_block_idx.
 */
export function accountSwaps(db: Database, account: string, limit: number, f: SwapFilter = {}): Promise<Swap[]> {
  return inListOrder(db, (tx) => accountSwapsQuery(tx, account, limit, f));
}
