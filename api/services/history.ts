/**
 * A pool's trades and candles, and a token's supply and holders over time: read from rows the
 * indexer keeps per block and per bucket, so each answer reads a bounded number of rows
 * (≤ 1,000 points or candles, ≤ 5 candle rows each), whatever the number of swaps behind it.
 */
import {
  findPool,
  latestBlock,
  poolCandleFolds,
  accountSwaps,
  poolSwaps,
  priceBefore,
  reservesBefore,
  statsBuckets,
  tokenCandleFolds,
  type Database,
  type CurrentPrice,
  type Token,
  type UsdCandleFold,
} from "../../db/index.js";
import { resolveAddress } from "./accounts.js";
import { coverageBody, coverageOf, named, requireBlocks, requireTimes } from "./coverage.js";
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
  const [rows, coverage] = await Promise.all([poolSwaps(db, pool, q.limit + 1, before), coverageOf(db, "events")]);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    tokenA: sideOf(a),
    tokenB: sideOf(b),
    ...coverageBody(coverage),
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

/**
 * An account's trades newest first (one row per pool a swap crossed), keyset-paged, optionally
 * within blocks [fromBlock, toBlock].
 */
export async function accountTrades(db: Database, text: string, q: { limit: number; cursor?: string | undefined; fromBlock?: number | undefined; toBlock?: number | undefined }) {
  if (q.fromBlock !== undefined && q.toBlock !== undefined && q.fromBlock > q.toBlock) throw new AppError("VALIDATION_ERROR", 'Invalid query: "fromBlock" is after "toBlock".');
  const before = q.cursor === undefined ? undefined : decodeTradeCursor(q.cursor);
  const { address, accountId } = await resolveAddress(db, text);
  const coverage = await coverageOf(db, "events");
  await requireBlocks(db, coverage, q.fromBlock, q.toBlock, named({ fromBlock: q.fromBlock, toBlock: q.toBlock }));
  const rows = await accountSwaps(db, address, q.limit + 1, { before, fromBlock: q.fromBlock, toBlock: q.toBlock });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    address,
    accountId,
    ...coverageBody(coverage),
    trades: page.map((s) => ({
      blockNumber: s.blockNumber,
      timestamp: s.timestamp,
      extrinsicIndex: s.extrinsicIndex,
      eventIndex: s.eventIndex,
      hop: s.hop,
      hops: s.hops,
      multiHop: s.hops > 1,
      pool: { token0Id: s.token0Id, token1Id: s.token1Id },
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
type Ohlc = { open: string; high: string; low: string; close: string };

/**
 * tokenA's USD candle for each of `count` intervals: the prices it had during the interval (its
 * stored candle), or the previous close carried through an interval without a point — but only
 * while that price is current: an expiry (a block where every route fell below the floor) ends
 * it, and the intervals after the one holding the expiry have none (null) until the token has a
 * price again.
 */
function usdSeries(folds: UsdCandleFold[], prior: CurrentPrice | undefined, w: { first: number; seconds: number; count: number }): (Ohlc | null)[] {
  const foldAt = new Map(folds.map((f) => [f.i, f]));
  let carried = prior && { price: usd(parseFixed(prior.priceUsd, USD_SCALE)), expiresAt: prior.expiresAt };
  const out: (Ohlc | null)[] = [];
  for (let i = 0; i < w.count; i++) {
    const u = foldAt.get(i);
    if (u) carried = { price: u.close, expiresAt: u.expiresAt };
    // A price that expired before this interval began is no price here.
    else if (carried && carried.expiresAt !== null && carried.expiresAt < w.first + i * w.seconds) carried = undefined;
    out.push(u ? { open: u.open, high: u.high, low: u.low, close: u.close } : carried ? { open: carried.price, high: carried.price, low: carried.price, close: carried.price } : null);
  }
  return out;
}

/**
 * Candles of the price of A in B (from the pool's reserves after each block) and of A in USD
 * (its oracle value), with volumes. An interval without a trade or price change carries the
 * previous close and says `empty`; intervals before the pool's first price are left out. `usd`
 * is null where tokenA had no USD price (see usdSeries).
 */
export async function poolOhlcv(db: Database, refA: string, refB: string, q: WindowQuery) {
  const { a, b, pool, aIs0 } = await pairPool(db, refA, refB);
  const w = await windowOf(db, q, "1h");
  const coverage = await coverageOf(db, "events");
  await requireTimes(db, coverage, q.from, q.to, named({ from: q.from, to: q.to }));
  const end = w.first + w.count * w.seconds;
  const span = { res: w.res, first: w.first, seconds: w.seconds, end };
  // Each candle is folded in SQL from its stored rows (≤ 5), prices already as the API writes
  // them (exact: see poolCandleFolds); here only the carrying of closes through empty intervals.
  const [poolFolds, usdFolds, priorReserves, priorUsd] = await Promise.all([
    poolCandleFolds(db, pool, span, { aIs0, decimalsA: a.decimals, decimalsB: b.decimals }),
    tokenCandleFolds(db, a.id, span),
    reservesBefore(db, pool, w.first),
    priceBefore(db, a.id, w.first),
  ]);
  const poolAt = new Map(poolFolds.map((f) => [f.i, f]));
  const usdAt = usdSeries(usdFolds, priorUsd, w);
  // A in B from reserves in the pool's order: token1 per token0 is r1/r0, its inverse for A = token1.
  const priceAB = (r: Reserves) => (aIs0 ? spotPrice(r.r0, a.decimals, r.r1, b.decimals) : spotPrice(r.r1, a.decimals, r.r0, b.decimals));
  let last: string | undefined = priorReserves ? usd(priceAB({ r0: BigInt(priorReserves.reserve0), r1: BigInt(priorReserves.reserve1) })) : undefined;
  const candles = [];
  for (let i = 0; i < w.count; i++) {
    const p = poolAt.get(i);
    const usdOhlc = usdAt[i]!;
    const empty = p?.open == null;
    if (empty && last === undefined) continue;
    const ohlc = empty ? { open: last!, high: last!, low: last!, close: last! } : { open: p!.open!, high: p!.high!, low: p!.low!, close: p!.close! };
    last = ohlc.close;
    candles.push({
      timestamp: w.first + i * w.seconds,
      open: ohlc.open,
      high: ohlc.high,
      low: ohlc.low,
      close: ohlc.close,
      usd: usdOhlc,
      volumeA: p?.volumeA ?? "0",
      volumeB: p?.volumeB ?? "0",
      volumeUsd: p?.volumeUsd ?? "0",
      swaps: p?.swaps ?? 0,
      empty,
    });
  }
  return { tokenA: sideOf(a), tokenB: sideOf(b), interval: w.name, from: w.first, to: w.to, blockNumber: w.head?.number ?? null, ...coverageBody(coverage), candles };
}

// ---- supply and holders

/** A token's supply and holder count at the end of each interval, as the indexer recorded them. */
export async function assetHistory(db: Database, id: number, q: WindowQuery) {
  const token = await requireToken(db, id);
  const w = await windowOf(db, q, "1h");
  const coverage = await coverageOf(db, "state");
  await requireTimes(db, coverage, q.from, q.to, named({ from: q.from, to: q.to }));
  const stats = await statsBuckets(db, id, { from: w.first, to: w.to, interval: w.seconds, buckets: w.count });
  return {
    tokenId: token.id,
    symbol: token.symbol,
    decimals: token.decimals,
    interval: w.name,
    from: w.first,
    to: w.to,
    ...coverageBody(coverage),
    points: stats.map((s, i) => ({
      timestamp: Math.min(w.first + (i + 1) * w.seconds, w.to),
      supply: s ? normalizeDecimal(s.supply) : null,
      holders: s ? s.holders : null,
      blockNumber: s?.blockNumber ?? null,
    })),
  };
}
