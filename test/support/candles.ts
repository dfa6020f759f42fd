/**
 * Candles worked out the slow way: a scan of the raw rows of a window (every reserve change,
 * swap and price point in it), folded here, with none of the buckets the indexer keeps. The
 * candle test compares the API with this on random windows, and `npm run bench` does the same
 * on the 5M-swap store.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/index.js";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { spotPrice } from "../../shared/market.js";

export const INTERVAL_SECONDS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3_600, "4h": 14_400, "1d": 86_400 } as const;

type Side = { id: number; decimals: number };

async function rows<T>(db: Database, q: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(q);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/**
 * The candles `GET /pools/{a}/{b}/ohlcv?interval&from&to` should answer, from the raw rows of
 * pool_reserves, swaps, token_prices and blocks. Same window rules as the API: intervals aligned
 * to UTC from floor(from) to floor(to), each whole; none before the pool's first price.
 */
export async function bruteForceCandles(db: Database, a: Side, b: Side, interval: keyof typeof INTERVAL_SECONDS, from: number, to: number) {
  const seconds = INTERVAL_SECONDS[interval];
  // As the API: nothing is known after the newest block, so "to" stops there.
  const [newest] = await rows<{ t: string | null }>(db, sql`select max(timestamp)::text as t from blocks`);
  if (newest?.t != null) to = Math.min(to, Number(newest.t));
  const first = Math.floor(from / seconds) * seconds;
  const end = Math.floor(to / seconds) * seconds + seconds;
  const [t0, t1] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
  const aIs0 = a.id === t0;
  const reserves = await rows<{ timestamp: string; r0: string; r1: string }>(
    db,
    sql`select timestamp::text as timestamp, reserve0::text as r0, reserve1::text as r1 from pool_reserves
        where token0_id = ${t0} and token1_id = ${t1} and timestamp < ${end} and reserve0 > 0 and reserve1 > 0
        order by block_number`,
  );
  const swaps = await rows<{ timestamp: string; token_in: string; amount_in: string; amount_out: string; volume_usd: string }>(
    db,
    sql`select timestamp::text as timestamp, token_in::text as token_in, amount_in::text as amount_in, amount_out::text as amount_out, volume_usd::text as volume_usd
        from swaps where token0_id = ${t0} and token1_id = ${t1} and timestamp >= ${first} and timestamp < ${end}`,
  );
  // A null price is an expiry: no price from that block until the next point.
  const prices = await rows<{ timestamp: string; price: string | null }>(
    db,
    sql`select b.timestamp::text as timestamp, p.price_usd::text as price from token_prices p join blocks b on b.number = p.block_number
        where p.token_id = ${a.id} and b.timestamp < ${end} order by p.block_number`,
  );
  const priceAB = (r0: bigint, r1: bigint) => (aIs0 ? spotPrice(r0, a.decimals, r1, b.decimals) : spotPrice(r1, a.decimals, r0, b.decimals));
  const usd = (v: bigint) => formatFixed(v, USD_SCALE);
  let last: bigint | undefined;
  for (const r of reserves) if (Number(r.timestamp) < first) last = priceAB(BigInt(r.r0), BigInt(r.r1));
  const usdPoints = prices.map((p) => ({ t: Number(p.timestamp), v: p.price === null ? undefined : parseFixed(p.price, USD_SCALE) }));
  // The USD price in force at a candle's start: the newest point before it (undefined after an expiry).
  let next = 0;
  let inForce: bigint | undefined;
  const candles = [];
  for (let start = first; start < end; start += seconds) {
    for (; next < usdPoints.length && usdPoints[next]!.t < start; next++) inForce = usdPoints[next]!.v;
    const inside = (t: string) => Number(t) >= start && Number(t) < start + seconds;
    const ps = reserves.filter((r) => inside(r.timestamp)).map((r) => priceAB(BigInt(r.r0), BigInt(r.r1)));
    const us = usdPoints.filter((p) => p.t >= start && p.t < start + seconds && p.v !== undefined).map((p) => p.v!);
    const ss = swaps.filter((s) => inside(s.timestamp));
    if (ps.length === 0 && last === undefined) continue;
    const ohlc = (xs: bigint[]) => ({ open: usd(xs[0]!), high: usd(xs.reduce((m, x) => (x > m ? x : m))), low: usd(xs.reduce((m, x) => (x < m ? x : m))), close: usd(xs.at(-1)!) });
    const prices_ = ps.length > 0 ? ps : [last!];
    // The prices the token had during the candle: its points, or else the one in force at its start.
    const usds = us.length > 0 ? us : inForce === undefined ? [] : [inForce];
    last = prices_.at(-1);
    let volumeA = 0n;
    let volumeB = 0n;
    let volumeUsd = 0n;
    for (const s of ss) {
      const inA = Number(s.token_in) === a.id;
      volumeA += BigInt(inA ? s.amount_in : s.amount_out);
      volumeB += BigInt(inA ? s.amount_out : s.amount_in);
      volumeUsd += parseFixed(s.volume_usd, USD_SCALE);
    }
    candles.push({
      timestamp: start,
      ...ohlc(prices_),
      usd: usds.length > 0 ? ohlc(usds) : null,
      volumeA: volumeA.toString(),
      volumeB: volumeB.toString(),
      volumeUsd: usd(volumeUsd),
      swaps: ss.length,
      empty: ps.length === 0,
    });
  }
  return candles;
}
