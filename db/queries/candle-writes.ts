/**
 * Candles kept at ingest, so that a chart of any range reads a bounded number of rows (≤ 5 per
 * candle), whatever the number of swaps or price points: pool candles folded from reserves and
 * swap volumes, token USD candles from price points. Every write is idempotent or additive as
 * its doc says; their readers are in candle-reads.ts.
 */
import { sql } from "drizzle-orm";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import type { Database } from "../database.js";
import { unnestRows } from "./bulk.js";
import { poolCandles, tokenCandles } from "../schema/index.js";

/** Bucket sizes kept, in seconds; every interval the API offers is a whole number of one of them. */
export const CANDLE_RESOLUTIONS = [60, 900, 3600, 86_400] as const;

const bucketOf = (timestamp: number, res: number) => timestamp - (timestamp % res);

/** The map's values in key order: one row order for every writer, so concurrent backfill chunks never deadlock on the same rows. */
const inKeyOrder = <T>(rows: Map<string, T>): T[] => [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);

type ReservePoint = { token0Id: number; token1Id: number; blockNumber: number; timestamp: number; reserve0: string; reserve1: string };

/** r1/r0 of `a` compared with that of `b`, exactly (cross-multiplied). */
function comparePrice(a: { r0: bigint; r1: bigint }, b: { r0: bigint; r1: bigint }): number {
  const l = a.r1 * b.r0;
  const r = b.r1 * a.r0;
  return l < r ? -1 : l > r ? 1 : 0;
}

/**
 * Folds reserves after blocks into their pools' candles. The upsert keeps the earlier open, the
 * later close and the more extreme high and low (compared exactly, r1·r0' against r1'·r0), so it
 * is idempotent and order-free: a replay or a backfill of older blocks lands the same rows.
 */
export async function addPoolCandles(db: Database, rows: ReservePoint[]): Promise<void> {
  type P = { block: number; r0: bigint; r1: bigint };
  const candles = new Map<string, { token0Id: number; token1Id: number; res: number; bucket: number; open: P; close: P; high: P; low: P }>();
  for (const r of rows) {
    const p = { block: r.blockNumber, r0: BigInt(r.reserve0), r1: BigInt(r.reserve1) };
    if (p.r0 === 0n || p.r1 === 0n) continue; // an emptied pool has no price
    for (const res of CANDLE_RESOLUTIONS) {
      const bucket = bucketOf(r.timestamp, res);
      const key = `${r.token0Id}/${r.token1Id}/${res}/${bucket}`;
      const c = candles.get(key);
      if (!c) {
        candles.set(key, { token0Id: r.token0Id, token1Id: r.token1Id, res, bucket, open: p, close: p, high: p, low: p });
        continue;
      }
      if (p.block < c.open.block) c.open = p;
      if (p.block > c.close.block) c.close = p;
      if (comparePrice(p, c.high) > 0) c.high = p;
      if (comparePrice(p, c.low) < 0) c.low = p;
    }
  }
  if (candles.size === 0) return;
  const s = (v: bigint) => v.toString();
  const values = inKeyOrder(candles).map((c) => ({
      token0Id: c.token0Id,
      token1Id: c.token1Id,
      res: c.res,
      bucket: c.bucket,
      openBlock: c.open.block,
      openReserve0: s(c.open.r0),
      openReserve1: s(c.open.r1),
      closeBlock: c.close.block,
      closeReserve0: s(c.close.r0),
      closeReserve1: s(c.close.r1),
      highReserve0: s(c.high.r0),
      highReserve1: s(c.high.r1),
      lowReserve0: s(c.low.r0),
      lowReserve1: s(c.low.r1),
    }));
  const t = poolCandles;
  const earlier = sql`(${t.openBlock} is null or excluded.open_block < ${t.openBlock})`;
  const later = sql`(${t.closeBlock} is null or excluded.close_block > ${t.closeBlock})`;
  const higher = sql`(${t.highReserve0} is null or excluded.high_reserve1 * ${t.highReserve0} > ${t.highReserve1} * excluded.high_reserve0)`;
  const lower = sql`(${t.lowReserve0} is null or excluded.low_reserve1 * ${t.lowReserve0} < ${t.lowReserve1} * excluded.low_reserve0)`;
  type Col = "openBlock" | "openReserve0" | "openReserve1" | "closeBlock" | "closeReserve0" | "closeReserve1" | "highReserve0" | "highReserve1" | "lowReserve0" | "lowReserve1";
  const pick = (cond: ReturnType<typeof sql>, column: Col, name: string) => sql`case when ${cond} then excluded.${sql.identifier(name)} else ${t[column]} end`;
  await db
    .insert(t)
    .select(unnestRows(t, values))
    .onConflictDoUpdate({
      target: [t.token0Id, t.token1Id, t.res, t.bucket],
      set: {
        openBlock: pick(earlier, "openBlock", "open_block"),
        openReserve0: pick(earlier, "openReserve0", "open_reserve0"),
        openReserve1: pick(earlier, "openReserve1", "open_reserve1"),
        closeBlock: pick(later, "closeBlock", "close_block"),
        closeReserve0: pick(later, "closeReserve0", "close_reserve0"),
        closeReserve1: pick(later, "closeReserve1", "close_reserve1"),
        highReserve0: pick(higher, "highReserve0", "high_reserve0"),
        highReserve1: pick(higher, "highReserve1", "high_reserve1"),
        lowReserve0: pick(lower, "lowReserve0", "low_reserve0"),
        lowReserve1: pick(lower, "lowReserve1", "low_reserve1"),
      },
    });
}

type SwapVolume = { token0Id: number; token1Id: number; timestamp: number; tokenIn: number; amountIn: string; amountOut: string; volumeUsd: string };

/** Adds inserted swap rows (never replays: the caller passes what its insert returned) to their pools' candles. */
export async function addCandleVolumes(db: Database, rows: SwapVolume[]): Promise<void> {
  const candles = new Map<string, { token0Id: number; token1Id: number; res: number; bucket: number; v0: bigint; v1: bigint; usd: bigint; swaps: number }>();
  for (const r of rows) {
    const in0 = r.tokenIn === r.token0Id;
    const v0 = BigInt(in0 ? r.amountIn : r.amountOut);
    const v1 = BigInt(in0 ? r.amountOut : r.amountIn);
    const usd = parseFixed(r.volumeUsd, USD_SCALE);
    for (const res of CANDLE_RESOLUTIONS) {
      const bucket = bucketOf(r.timestamp, res);
      const key = `${r.token0Id}/${r.token1Id}/${res}/${bucket}`;
      const c = candles.get(key) ?? { token0Id: r.token0Id, token1Id: r.token1Id, res, bucket, v0: 0n, v1: 0n, usd: 0n, swaps: 0 };
      c.v0 += v0;
      c.v1 += v1;
      c.usd += usd;
      c.swaps += 1;
      candles.set(key, c);
    }
  }
  if (candles.size === 0) return;
  const values = inKeyOrder(candles).map((c) => ({ token0Id: c.token0Id, token1Id: c.token1Id, res: c.res, bucket: c.bucket, volume0: c.v0.toString(), volume1: c.v1.toString(), volumeUsd: formatFixed(c.usd, USD_SCALE), swaps: c.swaps }));
  const t = poolCandles;
  await db
    .insert(t)
    .values(values)
    .onConflictDoUpdate({
      target: [t.token0Id, t.token1Id, t.res, t.bucket],
      set: {
        volume0: sql`${t.volume0} + excluded.volume0`,
        volume1: sql`${t.volume1} + excluded.volume1`,
        volumeUsd: sql`${t.volumeUsd} + excluded.volume_usd`,
        swaps: sql`${t.swaps} + excluded.swaps`,
      },
    });
}

/**
 * Folds price points into their tokens' USD candles (idempotent and order-free, as
 * addPoolCandles). An expiry (a null price) is no price: it adds nothing to a candle, and the
 * candles' readers learn of it from token_prices (priceExpiries).
 */
export async function addTokenCandles(db: Database, rows: { tokenId: number; blockNumber: number; priceUsd?: string | null | undefined }[], timeOf: (block: number) => number | undefined): Promise<void> {
  type P = { block: number; price: string; v: bigint };
  const candles = new Map<string, { tokenId: number; res: number; bucket: number; open: P; close: P; high: P; low: P }>();
  for (const r of rows) {
    const ts = timeOf(r.blockNumber);
    if (ts === undefined || r.priceUsd == null) continue;
    const p = { block: r.blockNumber, price: r.priceUsd, v: parseFixed(r.priceUsd, USD_SCALE) };
    for (const res of CANDLE_RESOLUTIONS) {
      const bucket = bucketOf(ts, res);
      const key = `${r.tokenId}/${res}/${bucket}`;
      const c = candles.get(key);
      if (!c) {
        candles.set(key, { tokenId: r.tokenId, res, bucket, open: p, close: p, high: p, low: p });
        continue;
      }
      if (p.block < c.open.block) c.open = p;
      if (p.block > c.close.block) c.close = p;
      if (p.v > c.high.v) c.high = p;
      if (p.v < c.low.v) c.low = p;
    }
  }
  if (candles.size === 0) return;
  const values = inKeyOrder(candles).map((c) => ({ tokenId: c.tokenId, res: c.res, bucket: c.bucket, openBlock: c.open.block, open: c.open.price, closeBlock: c.close.block, close: c.close.price, high: c.high.price, low: c.low.price }));
  const t = tokenCandles;
  await db
    .insert(t)
    .select(unnestRows(t, values))
    .onConflictDoUpdate({
      target: [t.tokenId, t.res, t.bucket],
      set: {
        openBlock: sql`least(${t.openBlock}, excluded.open_block)`,
        open: sql`case when excluded.open_block < ${t.openBlock} then excluded.open else ${t.open} end`,
        closeBlock: sql`greatest(${t.closeBlock}, excluded.close_block)`,
        close: sql`case when excluded.close_block > ${t.closeBlock} then excluded.close else ${t.close} end`,
        high: sql`greatest(${t.high}, excluded.high)`,
        low: sql`least(${t.low}, excluded.low)`,
      },
    });
}
