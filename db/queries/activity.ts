import { and, eq, gt, gte, lt, lte, or, sql } from "drizzle-orm";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import type { Database } from "../client.js";
import { liquidityEvents, poolVolumeHourly, swaps } from "../schema/index.js";

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
    .returning({ token0Id: swaps.token0Id, token1Id: swaps.token1Id, timestamp: swaps.timestamp, volumeUsd: swaps.volumeUsd, feeUsd: swaps.feeUsd });
  const buckets = new Map<string, { token0Id: number; token1Id: number; hour: number; volume: bigint; fee: bigint; swaps: number }>();
  for (const r of inserted) {
    const hour = r.timestamp - (r.timestamp % HOUR);
    const key = `${r.token0Id}/${r.token1Id}/${hour}`;
    const b = buckets.get(key) ?? { token0Id: r.token0Id, token1Id: r.token1Id, hour, volume: 0n, fee: 0n, swaps: 0 };
    b.volume += parseFixed(r.volumeUsd, USD_SCALE);
    b.fee += parseFixed(r.feeUsd, USD_SCALE);
    b.swaps += 1;
    buckets.set(key, b);
  }
  if (buckets.size === 0) return;
  // One key order for every writer: concurrent backfill chunks never deadlock on the same hours.
  const values = [...buckets.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, b]) => ({ token0Id: b.token0Id, token1Id: b.token1Id, hour: b.hour, volumeUsd: formatFixed(b.volume, USD_SCALE), feeUsd: formatFixed(b.fee, USD_SCALE), swaps: b.swaps }));
  await db
    .insert(poolVolumeHourly)
    .values(values)
    .onConflictDoUpdate({
      target: [poolVolumeHourly.token0Id, poolVolumeHourly.token1Id, poolVolumeHourly.hour],
      set: {
        volumeUsd: sql`${poolVolumeHourly.volumeUsd} + excluded."volume_usd"`,
        feeUsd: sql`${poolVolumeHourly.feeUsd} + excluded."fee_usd"`,
        swaps: sql`${poolVolumeHourly.swaps} + excluded."swaps"`,
      },
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
 * the pool's own order): whole hours from the hourly buckets, the partial hours at both ends
 * from the swaps themselves — exact, and flat in the number of swaps.
 */
export async function swapTotals(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number },
): Promise<SwapTotals> {
  const byPool = await swapTotalsByPool(db, window, pool);
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

/** Whole hours inside (from, to]: bucket starts h with from < h and h + 3600 - 1 <= to. */
function wholeHours(window: { from: number; to: number }): { first: number; last: number } {
  const first = Math.ceil((window.from + 1) / HOUR) * HOUR;
  const last = Math.floor((window.to + 1) / HOUR) * HOUR - HOUR;
  return { first, last };
}

type Totals = { volume: bigint; fee: bigint; swaps: number };

/** swapTotals of every pool that had swaps in the window (or of `pool`), keyed "token0/token1". */
export async function swapTotalsByPool(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number },
): Promise<Map<string, SwapTotals>> {
  const { first, last } = wholeHours(window);
  const bucketPool = pool ? and(eq(poolVolumeHourly.token0Id, pool.token0Id), eq(poolVolumeHourly.token1Id, pool.token1Id)) : undefined;
  const swapPool = pool ? and(eq(swaps.token0Id, pool.token0Id), eq(swaps.token1Id, pool.token1Id)) : undefined;
  // Timestamps outside the whole hours: (from, first) and [last + 3600, to]; all of it without whole hours.
  const edges =
    first <= last
      ? or(and(gt(swaps.timestamp, window.from), lt(swaps.timestamp, first)), and(gte(swaps.timestamp, last + HOUR), lte(swaps.timestamp, window.to)))
      : and(gt(swaps.timestamp, window.from), lte(swaps.timestamp, window.to));
  const [fromBuckets, fromSwaps] = await Promise.all([
    first <= last
      ? db
          .select({
            token0Id: poolVolumeHourly.token0Id,
            token1Id: poolVolumeHourly.token1Id,
            volumeUsd: sql<string>`sum(${poolVolumeHourly.volumeUsd})::text`,
            feeUsd: sql<string>`sum(${poolVolumeHourly.feeUsd})::text`,
            swaps: sql<number>`sum(${poolVolumeHourly.swaps})::integer`,
          })
          .from(poolVolumeHourly)
          .where(and(gte(poolVolumeHourly.hour, first), lte(poolVolumeHourly.hour, last), bucketPool))
          .groupBy(poolVolumeHourly.token0Id, poolVolumeHourly.token1Id)
      : Promise.resolve([]),
    db
      .select({
        token0Id: swaps.token0Id,
        token1Id: swaps.token1Id,
        volumeUsd: sql<string>`sum(${swaps.volumeUsd})::text`,
        feeUsd: sql<string>`sum(${swaps.feeUsd})::text`,
        swaps: sql<number>`count(*)::integer`,
      })
      .from(swaps)
      .where(and(edges, swapPool))
      .groupBy(swaps.token0Id, swaps.token1Id),
  ]);
  const totals = new Map<string, Totals>();
  for (const r of [...fromBuckets, ...fromSwaps]) {
    const key = `${r.token0Id}/${r.token1Id}`;
    const t = totals.get(key) ?? { volume: 0n, fee: 0n, swaps: 0 };
    t.volume += parseFixed(r.volumeUsd, USD_SCALE);
    t.fee += parseFixed(r.feeUsd, USD_SCALE);
    t.swaps += Number(r.swaps);
    totals.set(key, t);
  }
  return new Map([...totals].map(([k, t]) => [k, { volumeUsd: formatFixed(t.volume, USD_SCALE), feeUsd: formatFixed(t.fee, USD_SCALE), swaps: t.swaps }]));
}
