import { and, asc, desc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { poolReserves, pools } from "../schema/index.js";
import { addPoolCandles } from "./candles.js";
import { excludedSet, notOlder } from "./upsert.js";

export type Pool = typeof pools.$inferSelect;
export type NewPool = typeof pools.$inferInsert;
export type NewPoolReserves = typeof poolReserves.$inferInsert;
export type PoolReserves = typeof poolReserves.$inferSelect;

export async function upsertPools(db: Database, rows: NewPool[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(pools)
    .values(rows)
    .onConflictDoUpdate({
      target: [pools.token0Id, pools.token1Id],
      set: excludedSet(pools, [pools.token0Id, pools.token1Id, pools.createdBlock]),
      setWhere: notOlder(pools.blockNumber),
    });
}

export async function listPools(db: Database): Promise<Pool[]> {
  return db.select().from(pools).orderBy(asc(pools.token0Id), asc(pools.token1Id));
}

/** The pool of two tokens, whichever order they are given in. */
export async function findPool(db: Database, a: number, b: number): Promise<Pool | undefined> {
  const [row] = await db
    .select()
    .from(pools)
    .where(or(and(eq(pools.token0Id, a), eq(pools.token1Id, b)), and(eq(pools.token0Id, b), eq(pools.token1Id, a))))
    .limit(1);
  return row;
}

export async function insertPoolReserves(db: Database, rows: NewPoolReserves[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(poolReserves)
    .values(rows)
    .onConflictDoUpdate({
      target: [poolReserves.token0Id, poolReserves.token1Id, poolReserves.blockNumber],
      set: { reserve0: sql`excluded."reserve0"`, reserve1: sql`excluded."reserve1"`, timestamp: sql`excluded."timestamp"` },
    });
  await addPoolCandles(db, rows);
}

/**
 * Reserves of a pool as they stood at `timestamp`: the last change at or before it, or, for a
 * pool younger than that, its first recorded reserves.
 */
export async function reservesAt(db: Database, pool: Pick<Pool, "token0Id" | "token1Id">, timestamp: number): Promise<PoolReserves | undefined> {
  const same = and(eq(poolReserves.token0Id, pool.token0Id), eq(poolReserves.token1Id, pool.token1Id));
  const [before] = await db
    .select()
    .from(poolReserves)
    .where(and(same, lte(poolReserves.timestamp, timestamp)))
    .orderBy(desc(poolReserves.timestamp), desc(poolReserves.blockNumber))
    .limit(1);
  if (before) return before;
  const [first] = await db
    .select()
    .from(poolReserves)
    .where(and(same, gte(poolReserves.timestamp, timestamp)))
    .orderBy(asc(poolReserves.timestamp), asc(poolReserves.blockNumber))
    .limit(1);
  return first;
}

/** The pools of these LP token ids. */
export async function poolsByLpToken(db: Database, lpTokenIds: number[]): Promise<Pool[]> {
  if (lpTokenIds.length === 0) return [];
  return db.select().from(pools).where(inArray(pools.lpTokenId, lpTokenIds));
}
