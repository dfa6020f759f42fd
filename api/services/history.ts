/**
 * A pool's trades and candles, and a token's supply and holders over time: read from rows the
 * indexer keeps per block and per bucket, so each answer reads a bounded number of rows
 * (≤ 1,000 points or candles, ≤ 5 candle rows each), whatever the number of swaps behind it.
 */
import {
  findPool,
  latestBlock,
  poolCandleRows,
  poolSwaps,
  priceBefore,
  reservesBefore,
  statsBuckets,
  tokenCandleRows,
  type Database,
  type PoolCandle,
  type Token,
  type TokenCandle,
} from "../../db/index.js";
import { formatFixed, normalizeDecimal, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { AppError } from "../../shared/errors.js";
import { spotPrice } from "../../shared/market.js";
import { resolveTokenRef } from "./pools.js";
import { requireToken } from "./tokens.js";

/** Candle and point intervals: seconds, and the stored bucket size they are made of. */
export const INTERVALS = { "1m": [60, 60], "5m": [300, 60], "15m": [900, 900], "1h": [3_600, 3_600], "4h": [14_400, 3_600], "1d": [86_400, 86_400] } as const;
export type Interval = keyof typeof INTERVALS;
export const INTERVAL_NAMES = Object.keys(INTERVALS) as [Interval, ...Interval[]];
export const MAX_POINTS = 1_000;
/** Candles or points in an answer when `from` is not given. */
export const DEFAULT_POINTS = 200;

const usd = (v: bigint) => formatFixed(v, USD_SCALE);

async function pairPool(db: Database, refA: string, refB: string) {
  const [a, b] = await Promise.all([resolveTokenRef(db, refA, "tokenA"), resolveTokenRef(db, refB, "tokenB")]);
  if (a.id === b.id) throw new AppError("VALIDATION_ERROR", `Invalid path parameter "tokenB": the two tokens of a pair must differ.`);
  const pool = await findPool(db, a.id, b.id);
  if (!pool) throw new AppError("POOL_NOT_FOUND", `No pool exists for ${a.symbol || a.id}/${b.symbol || b.id}.`);
  return { a, b, pool, aIs0: pool.token0Id === a.id };
}

const sideOf = (t: Token) => ({ tokenId: t.id, symbol: t.symbol, decimals: t.decimals });

// ---- trades

interface TradeCursor {
  blockNumber: number;
  eventIndex: number;
  hop: number;
}

function encodeTradeCursor(c: TradeCursor): string {
  return Buffer.from(JSON.stringify([c.blockNumber, c.eventIndex, c.hop])).toString("base64url");
}

function decodeTradeCursor(text: string): TradeCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const ok = (v: unknown, max: number) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;
  if (Array.isArray(parsed) && parsed.length === 3 && ok(parsed[0], Number.MAX_SAFE_INTEGER) && ok(parsed[1], 2_147_483_647) && ok(parsed[2], 32_767)) {
    const cursor = { blockNumber: parsed[0], eventIndex: parsed[1], hop: parsed[2] };
    // One spelling per position (padding, stray characters, `1e3` or spaces decoded too): each
    // other spelling would be one more response-cache key.
    if (encodeTradeCursor(cursor) === text) return cursor;
  }
  throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": not a cursor returned by this endpoint (use nextCursor).');
}

/** A pool's trades newest first (one row per hop through this pool), keyset-paged. */
export async function poolTrades(db: Database, refA: string, refB: string, q: { limit: number; cursor?: string | undefined }) {
  const before = q.cursor === undefined ? undefined : decodeTradeCursor(q.cursor);
  const { a, b, pool } = await pairPool(db, refA, refB);
  const rows = await poolSwaps(db, pool, q.limit + 1, before);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    tokenA: sideOf(a),
    tokenB: sideOf(b),
    trades: page.map((s) => ({
      blockNumber: s.blockNumber,
      timestamp: s.timestamp,
      extrinsicIndex: s.extrinsicIndex,
      eventIndex: s.eventIndex,
      hop: s.hop,
      hops: s.hops,
      multiHop: s.hops > 1,
      account: s.account,
      side: s.tokenIn === a.id ? ("sell" as const) : ("buy" as const),
      tokenIn: s.tokenIn,
      tokenOut: s.tokenOut,
      amountIn: normalizeDecimal(s.amountIn),
      amountOut: normalizeDecimal(s.amountOut),
      volumeUsd: normalizeDecimal(s.volumeUsd),
      fee: normalizeDecimal(s.fee),
      feeUsd: normalizeDecimal(s.feeUsd),
    })),
    nextCursor: rows.length > q.limit && last ? encodeTradeCursor(last) : null,
  };
}

// ---- windows

export interface WindowQuery {
  interval?: Interval | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** Interval starts from `from` to `to` (aligned to the interval, UTC), at most MAX_POINTS. */
async function windowOf(db: Database, q: WindowQuery, fallback: Interval) {
  const name = q.interval ?? fallback;
  const [seconds, res] = INTERVALS[name];
  const head = await latestBlock(db);
  // Nothing is known after the newest indexed block: a later "to" is capped there (it answered
  // points dated centuries ahead with today's values).
  const newest = head?.timestamp ?? Math.floor(Date.now() / 1000);
  const to = Math.min(q.to ?? newest, newest);
  const first = Math.floor((q.from ?? Math.max(0, to - (DEFAULT_POINTS - 1) * seconds)) / seconds) * seconds;
  const lastStart = Math.floor(to / seconds) * seconds;
  if (q.from !== undefined && q.from > to) throw new AppError("VALIDATION_ERROR", `Invalid query parameter "from": it must not be after "to" (${to}).`);
  const count = (lastStart - first) / seconds + 1;
  if (count > MAX_POINTS) {
    throw new AppError("VALIDATION_ERROR", `Invalid query parameter "from": ${count} intervals of ${name} from "from" to "to", more than ${MAX_POINTS}; narrow the range or take a longer interval.`);
  }
  return { name, seconds, res, first, count, to, head };
}

// ---- candles

type Reserves = { r0: bigint; r1: bigint };
type Ohlc<T> = { open: T; high: T; low: T; close: T };

/** Folds stored rows of one candle (oldest first) into reserves OHLC, token1-per-token0 order; undefined without a price. */
function foldPool(rows: PoolCandle[]): (Ohlc<Reserves> & { volume0: bigint; volume1: bigint; volumeUsd: bigint; swaps: number }) | { volume0: bigint; volume1: bigint; volumeUsd: bigint; swaps: number; open?: undefined } {
  let out: (Ohlc<Reserves> & { openBlock: number; closeBlock: number }) | undefined;
  let volume0 = 0n;
  let volume1 = 0n;
  let volumeUsd = 0n;
  let swaps = 0;
  const cmp = (x: Reserves, y: Reserves) => x.r1 * y.r0 - y.r1 * x.r0;
  for (const r of rows) {
    volume0 += BigInt(r.volume0);
    volume1 += BigInt(r.volume1);
    volumeUsd += parseFixed(r.volumeUsd, USD_SCALE);
    swaps += r.swaps;
    if (r.openBlock === null || r.closeBlock === null) continue;
    const rs = (x: string | null, y: string | null) => ({ r0: BigInt(x!), r1: BigInt(y!) });
    const c = { open: rs(r.openReserve0, r.openReserve1), close: rs(r.closeReserve0, r.closeReserve1), high: rs(r.highReserve0, r.highReserve1), low: rs(r.lowReserve0, r.lowReserve1), openBlock: r.openBlock, closeBlock: r.closeBlock };
    if (!out) {
      out = c;
      continue;
    }
    if (c.openBlock < out.openBlock) Object.assign(out, { open: c.open, openBlock: c.openBlock });
    if (c.closeBlock > out.closeBlock) Object.assign(out, { close: c.close, closeBlock: c.closeBlock });
    if (cmp(c.high, out.high) > 0n) out.high = c.high;
    if (cmp(c.low, out.low) < 0n) out.low = c.low;
  }
  return out ? { open: out.open, high: out.high, low: out.low, close: out.close, volume0, volume1, volumeUsd, swaps } : { volume0, volume1, volumeUsd, swaps };
}

function foldUsd(rows: TokenCandle[]): Ohlc<bigint> | undefined {
  let out: (Ohlc<bigint> & { openBlock: number; closeBlock: number }) | undefined;
  for (const r of rows) {
    const c = { open: parseFixed(r.open, USD_SCALE), close: parseFixed(r.close, USD_SCALE), high: parseFixed(r.high, USD_SCALE), low: parseFixed(r.low, USD_SCALE), openBlock: r.openBlock, closeBlock: r.closeBlock };
    if (!out) {
      out = c;
      continue;
    }
    if (c.openBlock < out.openBlock) Object.assign(out, { open: c.open, openBlock: c.openBlock });
    if (c.closeBlock > out.closeBlock) Object.assign(out, { close: c.close, closeBlock: c.closeBlock });
    if (c.high > out.high) out.high = c.high;
    if (c.low < out.low) out.low = c.low;
  }
  return out;
}

function groupBy<T extends { bucket: number }>(rows: T[], first: number, seconds: number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const i = Math.floor((r.bucket - first) / seconds);
    const list = out.get(i);
    if (list) list.push(r);
    else out.set(i, [r]);
  }
  return out;
}

/**
 * Candles of the price of A in B (from the pool's reserves after each block) and of A in USD
 * (its oracle value), with volumes. An interval without a trade or price change carries the
 * previous close and says `empty`; intervals before the pool's first price are left out.
 */
export async function poolOhlcv(db: Database, refA: string, refB: string, q: WindowQuery) {
  const { a, b, pool, aIs0 } = await pairPool(db, refA, refB);
  const w = await windowOf(db, q, "1h");
  const end = w.first + w.count * w.seconds;
  const [poolRows, usdRows, priorReserves, priorUsd] = await Promise.all([
    poolCandleRows(db, pool, w.res, w.first, end),
    tokenCandleRows(db, a.id, w.res, w.first, end),
    reservesBefore(db, pool, w.first),
    priceBefore(db, a.id, w.first),
  ]);
  const poolGroups = groupBy(poolRows, w.first, w.seconds);
  const usdGroups = groupBy(usdRows, w.first, w.seconds);
  // A in B from reserves in the pool's order: token1 per token0 is r1/r0, its inverse for A = token1.
  const priceAB = (r: Reserves) => (aIs0 ? spotPrice(r.r0, a.decimals, r.r1, b.decimals) : spotPrice(r.r1, a.decimals, r.r0, b.decimals));
  let last: Reserves | undefined = priorReserves ? { r0: BigInt(priorReserves.reserve0), r1: BigInt(priorReserves.reserve1) } : undefined;
  let lastUsd: bigint | undefined = priorUsd === undefined ? undefined : parseFixed(priorUsd, USD_SCALE);
  const candles = [];
  for (let i = 0; i < w.count; i++) {
    const p = foldPool(poolGroups.get(i) ?? []);
    const u = foldUsd(usdGroups.get(i) ?? []);
    const empty = p.open === undefined;
    if (empty && last === undefined) continue;
    const ohlc: Ohlc<Reserves> = p.open ? p : { open: last!, high: last!, low: last!, close: last! };
    // High of A in B is the high of r1/r0 when A is token0, its low when A is token1.
    const [hi, lo] = aIs0 ? [ohlc.high, ohlc.low] : [ohlc.low, ohlc.high];
    last = ohlc.close;
    const usdOhlc = u ?? (lastUsd === undefined ? undefined : { open: lastUsd, high: lastUsd, low: lastUsd, close: lastUsd });
    if (usdOhlc) lastUsd = usdOhlc.close;
    candles.push({
      timestamp: w.first + i * w.seconds,
      open: usd(priceAB(ohlc.open)),
      high: usd(priceAB(hi)),
      low: usd(priceAB(lo)),
      close: usd(priceAB(ohlc.close)),
      usd: usdOhlc ? { open: usd(usdOhlc.open), high: usd(usdOhlc.high), low: usd(usdOhlc.low), close: usd(usdOhlc.close) } : null,
      volumeA: (aIs0 ? p.volume0 : p.volume1).toString(),
      volumeB: (aIs0 ? p.volume1 : p.volume0).toString(),
      volumeUsd: usd(p.volumeUsd),
      swaps: p.swaps,
      empty,
    });
  }
  return { tokenA: sideOf(a), tokenB: sideOf(b), interval: w.name, from: w.first, to: w.to, blockNumber: w.head?.number ?? null, candles };
}

// ---- supply and holders

/** A token's supply and holder count at the end of each interval, as the indexer recorded them. */
export async function assetHistory(db: Database, id: number, q: WindowQuery) {
  const token = await requireToken(db, id);
  const w = await windowOf(db, q, "1h");
  const stats = await statsBuckets(db, id, { from: w.first, to: w.to, interval: w.seconds, buckets: w.count });
  return {
    tokenId: token.id,
    symbol: token.symbol,
    decimals: token.decimals,
    interval: w.name,
    from: w.first,
    to: w.to,
    points: stats.map((s, i) => ({
      timestamp: Math.min(w.first + (i + 1) * w.seconds, w.to),
      supply: s ? normalizeDecimal(s.supply) : null,
      holders: s ? s.holders : null,
      blockNumber: s?.blockNumber ?? null,
    })),
  };
}
