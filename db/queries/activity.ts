import { and, eq, gte, lt, or, sql } from "drizzle-orm";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import type { Database } from "../client.js";
import { addCandleVolumes } from "./candles.js";
import { liquidityEvents, poolVolumeHourly, poolVolumeMinutely, swaps } from "../schema/index.js";

export type NewSwap = typeof swaps.$inferInsert;
export type NewLiquidityEvent = typeof liquidityEvents.$inferInsert;

export const HOUR = 3_600;

/**
 * Swap hops keyed by (block, event index, hop): inserting the same event twice is a no-op. The
 * rows actually inserted are added to their pool's hourly bucket in the same statement batch
 * (callers run it in a transaction), so a replay never counts a swap twice.
 */
export async function insertSwaps(db: Database, rows: NewSwap[]): Promise<void> {
  if (rows.length === 0) return;
  const inserted = await db
    .insert(swaps)
    .values(rows)
    .onConflictDoNothing()
    .returning({
      token0Id: swaps.token0Id,
      token1Id: swaps.token1Id,
      timestamp: swaps.timestamp,
      volumeUsd: swaps.volumeUsd,
      feeUsd: swaps.feeUsd,
      tokenIn: swaps.tokenIn,
      amountIn: swaps.amountIn,
      amountOut: swaps.amountOut,
    });
  for (const level of LEVELS) await addToBuckets(db, level, inserted);
  await addCandleVolumes(db, inserted);
}

/** Token pair of the buckets that total every pool (both ids -1: no token has a negative id). */
export const ALL_POOLS = -1;

/** The bucket sizes, coarse to fine, and where each is kept. */
const LEVELS = [
  { seconds: HOUR, table: poolVolumeHourly, start: poolVolumeHourly.hour, key: "hour" },
  { seconds: 60, table: poolVolumeMinutely, start: poolVolumeMinutely.minute, key: "minute" },
] as const;
type Level = (typeof LEVELS)[number];

type SwapAmounts = { token0Id: number; token1Id: number; timestamp: number; volumeUsd: string; feeUsd: string };

/** Adds swaps to their pool's bucket and to the all-pools bucket of `level`. */
async function addToBuckets(db: Database, level: Level, rows: SwapAmounts[]): Promise<void> {
  const buckets = new Map<string, { token0Id: number; token1Id: number; start: number; volume: bigint; fee: bigint; swaps: number }>();
  for (const r of rows) {
    const start = r.timestamp - (r.timestamp % level.seconds);
    for (const [token0Id, token1Id] of [[r.token0Id, r.token1Id], [ALL_POOLS, ALL_POOLS]] as const) {
      const key = `${token0Id}/${token1Id}/${start}`;
      const b = buckets.get(key) ?? { token0Id, token1Id, start, volume: 0n, fee: 0n, swaps: 0 };
      b.volume += parseFixed(r.volumeUsd, USD_SCALE);
      b.fee += parseFixed(r.feeUsd, USD_SCALE);
      b.swaps += 1;
      buckets.set(key, b);
    }
  }
  if (buckets.size === 0) return;
  // One key order for every writer: concurrent backfill chunks never deadlock on the same buckets.
  const values = [...buckets.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, b]) => ({ token0Id: b.token0Id, token1Id: b.token1Id, [level.key]: b.start, volumeUsd: formatFixed(b.volume, USD_SCALE), feeUsd: formatFixed(b.fee, USD_SCALE), swaps: b.swaps }));
  const t = level.table;
  await db
    .insert(t)
    .values(values as never) // one row shape for either table; TypeScript cannot pair the union
    .onConflictDoUpdate({
      target: [t.token0Id, t.token1Id, level.start],
      set: { volumeUsd: sql`${t.volumeUsd} + excluded."volume_usd"`, feeUsd: sql`${t.feeUsd} + excluded."fee_usd"`, swaps: sql`${t.swaps} + excluded."swaps"` },
    });
}

export async function insertLiquidityEvents(db: Database, rows: NewLiquidityEvent[]): Promise<void> {
  if (rows.length > 0) await db.insert(liquidityEvents).values(rows).onConflictDoNothing();
}

export interface SwapTotals {
  /** Sum of volumeUsd (decimal string). */
  volumeUsd: string;
  /** Sum of feeUsd (decimal string). */
  feeUsd: string;
  swaps: number;
}

/**
 * Totals of the swaps with from < timestamp <= to, over all pools or one pool (token0, token1 in
 * the pool's own order); see swapTotalsByPool.
 */
export async function swapTotals(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number },
): Promise<SwapTotals> {
  const byPool = await swapTotalsByPool(db, window, pool ?? "all");
  let volume = 0n;
  let fee = 0n;
  let count = 0;
  for (const t of byPool.values()) {
    volume += parseFixed(t.volumeUsd, USD_SCALE);
    fee += parseFixed(t.feeUsd, USD_SCALE);
    count += t.swaps;
  }
  return { volumeUsd: formatFixed(volume, USD_SCALE), feeUsd: formatFixed(fee, USD_SCALE), swaps: count };
}

type Totals = { volume: bigint; fee: bigint; swaps: number };
type Part = { token0Id: number; token1Id: number; volumeUsd: string; feeUsd: string; swaps: number };

/**
 * Splits the seconds [lo, hi) into whole buckets of each level, coarse to fine, and what is left
 * at the edges, which is read from the swaps themselves. For 24 h: ≤ 24 hours, ≤ 118 minutes and
 * ≤ 2 partial minutes.
 */
function plan(lo: number, hi: number): { buckets: { level: Level; from: number; to: number }[]; raw: [number, number][] } {
  const buckets: { level: Level; from: number; to: number }[] = [];
  let ranges: [number, number][] = [[lo, hi]];
  for (const level of LEVELS) {
    const rest: [number, number][] = [];
    for (const [a, b] of ranges) {
      const first = Math.ceil(a / level.seconds) * level.seconds;
      const last = Math.floor(b / level.seconds) * level.seconds;
      if (first >= last) {
        rest.push([a, b]);
        continue;
      }
      buckets.push({ level, from: first, to: last });
      if (a < first) rest.push([a, first]);
      if (last < b) rest.push([last, b]);
    }
    ranges = rest;
  }
  return { buckets, raw: ranges };
}

/**
 * swapTotals of every pool that had swaps in (from, to] — or of `pool`, or with `allPools` of
 * all pools together (key "-1/-1") — keyed "token0/token1". Exact: whole buckets plus the raw
 * swaps of the partial minutes at the edges; flat in the number of swaps.
 */
export async function swapTotalsByPool(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number } | "all",
): Promise<Map<string, SwapTotals>> {
  const { buckets, raw } = plan(window.from + 1, window.to + 1);
  const only = pool === "all" ? { token0Id: ALL_POOLS, token1Id: ALL_POOLS } : pool;
  const reads: Promise<Part[]>[] = buckets.map(({ level, from, to }) => {
    const t = level.table;
    const which = only ? and(eq(t.token0Id, only.token0Id), eq(t.token1Id, only.token1Id)) : gte(t.token0Id, 0);
    return db
      .select({
        token0Id: t.token0Id,
        token1Id: t.token1Id,
        volumeUsd: sql<string>`sum(${t.volumeUsd})::text`,
        feeUsd: sql<string>`sum(${t.feeUsd})::text`,
        swaps: sql<number>`sum(${t.swaps})::integer`,
      })
      .from(t)
      .where(and(gte(level.start, from), lt(level.start, to), which))
      .groupBy(t.token0Id, t.token1Id);
  });
  if (raw.length > 0) {
    const inRaw = or(...raw.map(([a, b]) => and(gte(swaps.timestamp, a), lt(swaps.timestamp, b))));
    const swapPool = only && only.token0Id !== ALL_POOLS ? and(eq(swaps.token0Id, only.token0Id), eq(swaps.token1Id, only.token1Id)) : undefined;
    const all = only?.token0Id === ALL_POOLS;
    reads.push(
      db
        .select({
          token0Id: all ? sql<number>`-1` : swaps.token0Id,
          token1Id: all ? sql<number>`-1` : swaps.token1Id,
          volumeUsd: sql<string>`sum(${swaps.volumeUsd})::text`,
          feeUsd: sql<string>`sum(${swaps.feeUsd})::text`,
          swaps: sql<number>`count(*)::integer`,
        })
        .from(swaps)
        .where(and(inRaw, swapPool))
        .groupBy(...(all ? [] : [swaps.token0Id, swaps.token1Id]))
        .then((rows) => rows.filter((r) => r.swaps > 0)),
    );
  }
  const totals = new Map<string, Totals>();
  for (const r of (await Promise.all(reads)).flat()) {
    const key = `${Number(r.token0Id)}/${Number(r.token1Id)}`;
    const t = totals.get(key) ?? { volume: 0n, fee: 0n, swaps: 0 };
    t.volume += parseFixed(r.volumeUsd, USD_SCALE);
    t.fee += parseFixed(r.feeUsd, USD_SCALE);
    t.swaps += Number(r.swaps);
    totals.set(key, t);
  }
  return new Map([...totals].map(([k, t]) => [k, { volumeUsd: formatFixed(t.volume, USD_SCALE), feeUsd: formatFixed(t.fee, USD_SCALE), swaps: t.swaps }]));
}

export type Swap = typeof swaps.$inferSelect;

/** Position of a swap hop: the keyset of a pool's trades, newest first. */
export interface SwapPosition {
  blockNumber: number;
  eventIndex: number;
  hop: number;
}

/**
 * A pool's swap hops newest first, after `before` (exclusive) when given: a backward walk of
 * swaps_pool_block_idx from the position, flat at any depth.
 */
export function poolSwaps(db: Database, pool: { token0Id: number; token1Id: number }, limit: number, before?: SwapPosition): Promise<Swap[]> {
  const from = before ? sql`(${swaps.blockNumber}, ${swaps.eventIndex}, ${swaps.hop}) < (${before.blockNumber}::bigint, ${before.eventIndex}::integer, ${before.hop}::smallint)` : undefined;
  return db
    .select()
    .from(swaps)
    .where(and(eq(swaps.token0Id, pool.token0Id), eq(swaps.token1Id, pool.token1Id), from))
    .orderBy(sql`${swaps.blockNumber} desc`, sql`${swaps.eventIndex} desc`, sql`${swaps.hop} desc`)
    .limit(limit);
}
