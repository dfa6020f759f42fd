import { and, count, eq, gt, lte, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { liquidityEvents, swaps } from "../schema/index.js";

export type NewSwap = typeof swaps.$inferInsert;
export type NewLiquidityEvent = typeof liquidityEvents.$inferInsert;

/** Swap hops keyed by (block, event index, hop): inserting the same event twice is a no-op. */
export async function insertSwaps(db: Database, rows: NewSwap[]): Promise<void> {
  if (rows.length > 0) await db.insert(swaps).values(rows).onConflictDoNothing();
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
 * Totals of the swaps with from < timestamp <= to, over all pools or one pool
 * (token0, token1 in the pool's own order).
 */
export async function swapTotals(
  db: Database,
  window: { from: number; to: number },
  pool?: { token0Id: number; token1Id: number },
): Promise<SwapTotals> {
  const inWindow = and(gt(swaps.timestamp, window.from), lte(swaps.timestamp, window.to));
  const where = pool ? and(inWindow, eq(swaps.token0Id, pool.token0Id), eq(swaps.token1Id, pool.token1Id)) : inWindow;
  const [row] = await db
    .select({
      volumeUsd: sql<string>`coalesce(sum(${swaps.volumeUsd}), 0)::text`,
      feeUsd: sql<string>`coalesce(sum(${swaps.feeUsd}), 0)::text`,
      swaps: count(),
    })
    .from(swaps)
    .where(where);
  return { volumeUsd: row?.volumeUsd ?? "0", feeUsd: row?.feeUsd ?? "0", swaps: Number(row?.swaps ?? 0) };
}

/** swapTotals of every pool that had swaps in the window, keyed "token0/token1". */
export async function swapTotalsByPool(db: Database, window: { from: number; to: number }): Promise<Map<string, SwapTotals>> {
  const rows = await db
    .select({
      token0Id: swaps.token0Id,
      token1Id: swaps.token1Id,
      volumeUsd: sql<string>`coalesce(sum(${swaps.volumeUsd}), 0)::text`,
      feeUsd: sql<string>`coalesce(sum(${swaps.feeUsd}), 0)::text`,
      swaps: count(),
    })
    .from(swaps)
    .where(and(gt(swaps.timestamp, window.from), lte(swaps.timestamp, window.to)))
    .groupBy(swaps.token0Id, swaps.token1Id);
  return new Map(rows.map((r) => [`${r.token0Id}/${r.token1Id}`, { volumeUsd: r.volumeUsd, feeUsd: r.feeUsd, swaps: Number(r.swaps) }]));
}
