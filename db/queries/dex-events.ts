/**
 * The pool events of a block range, as the DEX Screener adapter serves them (api/services/
 * dexscreener.ts): every swap hop and every liquidity change, in chain order, with the pool
 * reserves the store read around them. Three statements of index range scans.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { idArray } from "./prices.js";

/** A swap hop or a liquidity change, in its pool's orientation (token0, token1). */
export interface PoolEvent {
  blockNumber: number;
  timestamp: number;
  /** The event's index in its block (a multi-hop swap is one event with a row per hop). */
  eventIndex: number;
  hop: number;
  hops: number;
  kind: "swap" | "add" | "remove";
  token0Id: number;
  token1Id: number;
  /** Index of the extrinsic that emitted it; null outside one or unknown (indexed before the column). */
  extrinsicIndex: number | null;
  /** The trader or liquidity provider; null for a swap of credit. */
  account: string | null;
  /** Swaps: the token paid in, and the amounts in and out. */
  tokenIn: number | null;
  amountIn: string | null;
  amountOut: string | null;
  /** Liquidity: the amounts of token0 and token1 added or removed. */
  amount0: string | null;
  amount1: string | null;
}

type Num = string | number;

/** The events of blocks from..to (both included) in chain order; at most `limit` rows. */
export async function poolEventsIn(db: Database, from: number, to: number, limit: number): Promise<PoolEvent[]> {
  const rows = rowsOf<Record<string, Num | null>>(
    await db.execute(sql`
      select * from (
        select block_number, timestamp, event_index, hop, hops, 'swap' as kind, token0_id, token1_id, extrinsic_index, account,
          token_in, amount_in::text as amount_in, amount_out::text as amount_out, null::text as amount0, null::text as amount1
        from swaps where block_number between ${from}::bigint and ${to}::bigint
        union all
        select block_number, timestamp, event_index, 0, 1, kind, token0_id, token1_id, extrinsic_index, account,
          null, null, null, amount0::text, amount1::text
        from liquidity_events where block_number between ${from}::bigint and ${to}::bigint
      ) e
      order by block_number, event_index, hop
      limit ${limit}`),
  );
  const n = (v: Num | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const s = (v: Num | null | undefined) => (v === null || v === undefined ? null : String(v));
  return rows.map((r) => ({
    blockNumber: Number(r.block_number),
    timestamp: Number(r.timestamp),
    eventIndex: Number(r.event_index),
    hop: Number(r.hop),
    hops: Number(r.hops),
    kind: r.kind as PoolEvent["kind"],
    token0Id: Number(r.token0_id),
    token1Id: Number(r.token1_id),
    extrinsicIndex: n(r.extrinsic_index),
    account: s(r.account),
    tokenIn: n(r.token_in),
    amountIn: s(r.amount_in),
    amountOut: s(r.amount_out),
    amount0: s(r.amount0),
    amount1: s(r.amount1),
  }));
}

/** A pool's reserves as read after a block that changed them. */
export interface ReservesRow {
  token0Id: number;
  token1Id: number;
  blockNumber: number;
  reserve0: string;
  reserve1: string;
}

/**
 * For each of `pools`: its reserves rows of blocks from..to, and its newest row before `from`
 * (the reserves its first event in the range started from), oldest first.
 */
export async function reservesAround(db: Database, pools: { token0Id: number; token1Id: number }[], from: number, to: number): Promise<ReservesRow[]> {
  if (pools.length === 0) return [];
  const t0 = idArray(pools.map((p) => p.token0Id));
  const t1 = idArray(pools.map((p) => p.token1Id));
  const rows = rowsOf<Record<string, Num>>(
    await db.execute(sql`
      select p.t0 as token0_id, p.t1 as token1_id, r.block_number, r.reserve0::text as reserve0, r.reserve1::text as reserve1
      from unnest(${t0}::bigint[], ${t1}::bigint[]) as p(t0, t1)
      cross join lateral (
        (select block_number, reserve0, reserve1 from pool_reserves
         where token0_id = p.t0 and token1_id = p.t1 and block_number < ${from}::bigint order by block_number desc limit 1)
        union all
        (select block_number, reserve0, reserve1 from pool_reserves
         where token0_id = p.t0 and token1_id = p.t1 and block_number between ${from}::bigint and ${to}::bigint)
      ) r
      order by r.block_number`),
  );
  return rows.map((r) => ({ token0Id: Number(r.token0_id), token1Id: Number(r.token1_id), blockNumber: Number(r.block_number), reserve0: String(r.reserve0), reserve1: String(r.reserve1) }));
}

/** The newest block whose events the store holds, with its time (undefined: none yet, or its time unknown). */
export async function latestEventBlock(db: Database): Promise<{ number: number; timestamp: number } | undefined> {
  const [row] = rowsOf<{ number: Num; timestamp: Num }>(
    await db.execute(sql`
      select b.number, b.timestamp from (select to_block from event_ranges order by from_block desc limit 1) r
      join blocks b on b.number = r.to_block`),
  );
  return row ? { number: Number(row.number), timestamp: Number(row.timestamp) } : undefined;
}

/** The times of `numbers` that the store keeps. */
export async function blockTimes(db: Database, numbers: number[]): Promise<Map<number, number>> {
  if (numbers.length === 0) return new Map();
  const rows = rowsOf<{ number: Num; timestamp: Num }>(await db.execute(sql`select number, timestamp from blocks where number = any(${idArray(numbers)}::bigint[])`));
  return new Map(rows.map((r) => [Number(r.number), Number(r.timestamp)]));
}

/** The block each of `pools` was first seen in (its creation block when the store followed it). */
export async function poolsCreated(db: Database, pools: { token0Id: number; token1Id: number }[]): Promise<Map<string, number>> {
  if (pools.length === 0) return new Map();
  const rows = rowsOf<Record<string, Num>>(
    await db.execute(sql`
      select p.token0_id, p.token1_id, p.created_block from pools p
      join unnest(${idArray(pools.map((x) => x.token0Id))}::bigint[], ${idArray(pools.map((x) => x.token1Id))}::bigint[]) as k(t0, t1)
        on p.token0_id = k.t0 and p.token1_id = k.t1`),
  );
  return new Map(rows.map((r) => [`${Number(r.token0_id)}-${Number(r.token1_id)}`, Number(r.created_block)]));
}
