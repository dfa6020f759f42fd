import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { poolReserves, pools } from "../schema/index.js";
import { unnestRows } from "./bulk.js";
import { addPoolCandles } from "./candle-writes.js";
import { idArray } from "./prices.js";
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

export async function insertPoolReserves(db: Database, given: NewPoolReserves[]): Promise<void> {
  if (given.length === 0) return;
  // One row per key in a statement (ON CONFLICT cannot update a row twice): the last one given —
  // a backfill's upgrade block reads a pool it touched and then every pool, at one block.
  const byKey = new Map(given.map((r) => [`${r.token0Id}/${r.token1Id}/${r.blockNumber}`, r]));
  const rows = byKey.size === given.length ? given : [...byKey.values()];
  await db
    .insert(poolReserves)
    .select(unnestRows(poolReserves, rows))
    .onConflictDoUpdate({
      target: [poolReserves.token0Id, poolReserves.token1Id, poolReserves.blockNumber],
      set: excludedSet(poolReserves, [poolReserves.token0Id, poolReserves.token1Id, poolReserves.blockNumber]),
    });
  await addPoolCandles(db, rows);
}

/**
 * Reserves of a pool as they stood at `timestamp`: the last change at or before it, or, for a
 * pool younger than that, its first recorded reserves.
 */
export async function reservesAt(db: Database, pool: Pick<Pool, "token0Id" | "token1Id">, timestamp: number): Promise<PoolReserves | undefined> {
  // Both reads in one statement (one round trip): the second only answers when the first has no row.
  const pick = (cmp: string, order: string, rank: number) =>
    sql`(select ${RESERVE_COLUMNS}, ${sql.raw(String(rank))} as rank from pool_reserves
      where token0_id = ${pool.token0Id}::bigint and token1_id = ${pool.token1Id}::bigint and timestamp ${sql.raw(cmp)} ${timestamp}::bigint
      order by timestamp ${sql.raw(order)}, block_number ${sql.raw(order)} limit 1)`;
  const [row] = rowsOf<ReservesRow>(await db.execute(sql`${pick("<=", "desc", 0)} union all ${pick(">=", "asc", 1)} order by rank limit 1`));
  return row && toReserves(row);
}

const RESERVE_COLUMNS = sql.raw("token0_id, token1_id, block_number, timestamp, reserve0::text as reserve0, reserve1::text as reserve1, lp_supply::text as lp_supply, lp_fee_ppm");
type ReservesRow = { token0_id: string | number; token1_id: string | number; block_number: string | number; timestamp: string | number; reserve0: string; reserve1: string; lp_supply: string | null; lp_fee_ppm: number | null };
const toReserves = (r: ReservesRow): PoolReserves => ({
  token0Id: Number(r.token0_id),
  token1Id: Number(r.token1_id),
  blockNumber: Number(r.block_number),
  timestamp: Number(r.timestamp),
  reserve0: r.reserve0,
  reserve1: r.reserve1,
  lpSupply: r.lp_supply,
  lpFeePpm: r.lp_fee_ppm === null ? null : Number(r.lp_fee_ppm),
});

/**
 * Each of `given` as of `block`: its newest pool_reserves row at or before it (reserves, and LP
 * supply and fee — null on rows from before migration 0016). A pool without one did not exist
 * yet (or not in this store's history) and is left out.
 */
export async function poolsAt(db: Database, given: Array<Pick<Pool, "token0Id" | "token1Id">>, block: number): Promise<PoolReserves[]> {
  if (given.length === 0) return [];
  const rows = rowsOf<ReservesRow>(
    await db.execute(sql`
      select r.* from unnest(${idArray(given.map((p) => p.token0Id))}::bigint[], ${idArray(given.map((p) => p.token1Id))}::bigint[]) as g(t0, t1)
      cross join lateral (
        select ${RESERVE_COLUMNS}
        from pool_reserves where token0_id = g.t0 and token1_id = g.t1 and block_number <= ${block}::bigint
        order by block_number desc limit 1
      ) r`),
  );
  return rows.map(toReserves);
}

/** The first block from which a pool's LP supply is on record (rows from before migration 0016 have none). */
export async function poolSupplyFrom(db: Database, pool: Pick<Pool, "token0Id" | "token1Id">): Promise<number | undefined> {
  const rows = rowsOf<{ block_number: string | number }>(
    await db.execute(sql`
      select block_number from pool_reserves
      where token0_id = ${pool.token0Id} and token1_id = ${pool.token1Id} and lp_supply is not null
      order by block_number limit 1`),
  );
  return rows[0] === undefined ? undefined : Number(rows[0].block_number);
}

/** The pools of these LP token ids. */
export async function poolsByLpToken(db: Database, lpTokenIds: number[]): Promise<Pool[]> {
  if (lpTokenIds.length === 0) return [];
  return db.select().from(pools).where(inArray(pools.lpTokenId, lpTokenIds));
}


/** A pool with its TVL, as the pool list sorts it. */
export interface PoolValue {
  token0Id: number;
  token1Id: number;
  lpTokenId: number;
  reserve0: string;
  reserve1: string;
  /** USD value locked, fixed-point (USD_SCALE) integer text. */
  tvl: string;
}

/**
 * The USD value locked in each pool, computed in SQL exactly as poolTvlUsd does on bigints: a
 * priced side is worth reserve × price / 10^decimals (the price truncated to 18 decimals, the
 * quotient truncated, numeric integer division as bigint division), an unpriced side (no price,
 * an expired one, or its token gone) 0, and the pool the sum of its sides.
 */
export const POOL_VALUES = sql`
  select p.token0_id, p.token1_id, p.lp_token_id, p.reserve0::text as reserve0, p.reserve1::text as reserve1,
    coalesce(v.a, 0::numeric) + coalesce(v.b, 0::numeric) as tvl
  from pools p
  left join tokens t0 on t0.id = p.token0_id
  left join tokens t1 on t1.id = p.token1_id
  left join token_latest_prices l0 on l0.token_id = p.token0_id
  left join token_latest_prices l1 on l1.token_id = p.token1_id
  cross join lateral (select
    div(p.reserve0 * trunc(l0.price_usd * 1000000000000000000), power(10::numeric, t0.decimals)) as a,
    div(p.reserve1 * trunc(l1.price_usd * 1000000000000000000), power(10::numeric, t1.decimals)) as b) v`;

/** Every pool with its TVL, in listPools' order (token0, token1). */
export async function poolValues(db: Database): Promise<PoolValue[]> {
  const rows = rowsOf<{ token0_id: string | number; token1_id: string | number; lp_token_id: string | number; reserve0: string; reserve1: string; tvl: string }>(
    await db.execute(sql`select token0_id, token1_id, lp_token_id, reserve0, reserve1, trunc(tvl)::text as tvl from (${POOL_VALUES}) v order by token0_id, token1_id`),
  );
  return rows.map((r) => ({ token0Id: Number(r.token0_id), token1Id: Number(r.token1_id), lpTokenId: Number(r.lp_token_id), reserve0: r.reserve0, reserve1: r.reserve1, tvl: r.tvl }));
}

/** The number of pools and the sum of their TVLs (fixed-point integer text), in one row. */
export async function poolValueTotal(db: Database): Promise<{ pools: number; tvl: string }> {
  const [row] = rowsOf<{ pools: string | number; tvl: string }>(await db.execute(sql`select count(*)::integer as pools, trunc(coalesce(sum(tvl), 0))::text as tvl from (${POOL_VALUES}) v`));
  return { pools: Number(row?.pools ?? 0), tvl: row?.tvl ?? "0" };
}

