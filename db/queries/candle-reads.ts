/**
 * Reads of the candles kept at ingest (candle-writes.ts): stored rows of a range, and candles of
 * any interval folded from them in SQL (a bounded number of rows per candle, whatever the number
 * of swaps or price points), with the reserves and price in force before a range begins.
 */
import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { USD_SCALE } from "../../shared/decimal.js";
import { rowsOf, type Database } from "../database.js";
import { blocks, poolCandles, poolReserves, tokenCandles } from "../schema/index.js";

export type PoolCandle = typeof poolCandles.$inferSelect;
export type TokenCandle = typeof tokenCandles.$inferSelect;

/** A pool's candles of resolution `res` with from ≤ bucket < to, oldest first. */
export function poolCandleRows(db: Database, pool: { token0Id: number; token1Id: number }, res: number, from: number, to: number): Promise<PoolCandle[]> {
  const t = poolCandles;
  return db
    .select()
    .from(t)
    .where(and(eq(t.token0Id, pool.token0Id), eq(t.token1Id, pool.token1Id), eq(t.res, res), gte(t.bucket, from), lt(t.bucket, to)))
    .orderBy(asc(t.bucket));
}

/** A token's USD candles of resolution `res` with from ≤ bucket < to, oldest first. */
export function tokenCandleRows(db: Database, tokenId: number, res: number, from: number, to: number): Promise<TokenCandle[]> {
  const t = tokenCandles;
  return db
    .select()
    .from(t)
    .where(and(eq(t.tokenId, tokenId), eq(t.res, res), gte(t.bucket, from), lt(t.bucket, to)))
    .orderBy(asc(t.bucket));
}

/** The pool's reserves after its last change before `timestamp` (an index seek), with both sides non-zero. */
export async function reservesBefore(db: Database, pool: { token0Id: number; token1Id: number }, timestamp: number): Promise<{ reserve0: string; reserve1: string } | undefined> {
  const r = poolReserves;
  const [row] = await db
    .select({ reserve0: r.reserve0, reserve1: r.reserve1 })
    .from(r)
    .where(and(eq(r.token0Id, pool.token0Id), eq(r.token1Id, pool.token1Id), lt(r.timestamp, timestamp), sql`${r.reserve0} > 0 and ${r.reserve1} > 0`))
    .orderBy(desc(r.timestamp), desc(r.blockNumber))
    .limit(1);
  return row;
}

/** A price in force, and when it expires: the time of the token's next point, when that point is an expiry (null price). */
export interface CurrentPrice {
  priceUsd: string;
  /** Unix seconds of the block whose null point ends this price; null while nothing ends it. */
  expiresAt: number | null;
}

/**
 * The token's next point after `block` when it is an expiry: its block's time. One seek on
 * token_prices' key (the next point, priced or not), one on blocks'.
 */
const expiryAfter = (tokenId: number, block: SQL) => sql`(
  select case when n.price_usd is null then (select b.timestamp from blocks b where b.number = n.block_number) end
  from (select tp.block_number, tp.price_usd from token_prices tp where tp.token_id = ${tokenId}::bigint and tp.block_number > ${block} order by tp.block_number limit 1) n)`;

/**
 * The token's USD price of the newest block before `timestamp` and when it expires (three index
 * seeks); undefined when it had none then (none yet, or expired).
 */
export async function priceBefore(db: Database, tokenId: number, timestamp: number): Promise<CurrentPrice | undefined> {
  const [block] = await db.select({ number: blocks.number }).from(blocks).where(lt(blocks.timestamp, timestamp)).orderBy(desc(blocks.timestamp), desc(blocks.number)).limit(1);
  if (!block) return undefined;
  const [row] = rowsOf<{ price_usd: string | null; expires_at: string | number | null }>(
    await db.execute(sql`
      select p.price_usd::text as price_usd, ${expiryAfter(tokenId, sql`p.block_number`)} as expires_at
      from (select tp.block_number, tp.price_usd from token_prices tp where tp.token_id = ${tokenId}::bigint and tp.block_number <= ${block.number}::bigint
            order by tp.block_number desc limit 1) p`),
  );
  if (!row || row.price_usd === null) return undefined;
  return { priceUsd: row.price_usd, expiresAt: row.expires_at === null ? null : Number(row.expires_at) };
}

/** 10^n as a numeric literal. */
const tenTo = (n: number) => sql.raw(`1${"0".repeat(n)}::numeric`);
/** A fixed-point USD value (an integer scaled by 10^18, or a numeric) as the API writes it: at most 18 decimals, truncated, no trailing zeros. */
const usdText = (v: SQL) => sql`trim_scale(trunc((${v})::numeric, 18))::text`;

/** One candle of a pool, folded from its stored rows, its prices already written as the API answers them. */
export interface PoolCandleFold {
  /** Index of the candle from the window's start. */
  i: number;
  /** null when no row of the candle has a price (volumes only, or none). */
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volumeA: string;
  volumeB: string;
  volumeUsd: string;
  swaps: number;
}

/**
 * A pool's candles of `seconds` (a whole number of stored buckets of resolution `res`) from
 * `first` to `end`, folded in SQL: one row per candle that has stored rows. Prices are of whole
 * A in whole B (spotPrice, exact: numeric integer division truncates as bigint division does).
 * Open and close are the prices after the candle's first and last priced block (with one
 * stored row per candle, that row's; with several, the reserves of the least and greatest block,
 * priced once); since the price
 * is non-decreasing in r1/r0 when A is token0 (non-increasing when A is token1), the candle's
 * high is the largest price of the rows' high (low) reserves and its low the smallest of their
 * low (high) reserves — exactly what comparing the reserves gives.
 */
export async function poolCandleFolds(
  db: Database,
  pool: { token0Id: number; token1Id: number },
  w: { res: number; first: number; seconds: number; end: number },
  pair: { aIs0: boolean; decimalsA: number; decimalsB: number },
): Promise<PoolCandleFold[]> {
  const [a, b] = pair.aIs0 ? ["0", "1"] : ["1", "0"];
  // spotPrice(reserveA, decA, reserveB, decB) = reserveB·10^decA·10^18 / (reserveA·10^decB), 0 for an empty A side.
  const priceOf = (ra: SQL, rb: SQL) => sql`case when ${ra} = 0 then 0::numeric else div(${rb} * ${tenTo(pair.decimalsA + USD_SCALE)}, ${ra} * ${tenTo(pair.decimalsB)}) end`;
  const price = (kind: string) => priceOf(sql.raw(`${kind}_reserve${a}`), sql.raw(`${kind}_reserve${b}`));
  const [hi, lo] = pair.aIs0 ? ["high", "low"] : ["low", "high"];
  const scaled = (v: SQL) => usdText(sql`(${v}) * 0.000000000000000001`);
  const where = sql`token0_id = ${pool.token0Id}::bigint and token1_id = ${pool.token1Id}::bigint and res = ${w.res}::integer and bucket >= ${w.first}::bigint and bucket < ${w.end}::bigint`;
  type Row = { i: number | string; open: string | null; high: string | null; low: string | null; close: string | null; va: string; vb: string; vu: string; swaps: number | string };
  const priced = sql`open_block is not null and close_block is not null`;
  const rows = rowsOf<Row>(
    w.seconds === w.res
      ? // One stored row per candle: its prices as they are.
        await db.execute(sql`
          select (bucket - ${w.first}::bigint) / ${w.seconds}::bigint as i,
            case when ${priced} then ${scaled(price("open"))} end as open, case when ${priced} then ${scaled(price(hi))} end as high,
            case when ${priced} then ${scaled(price(lo))} end as low, case when ${priced} then ${scaled(price("close"))} end as close,
            ${sql.raw(`volume${a}`)}::text as va, ${sql.raw(`volume${b}`)}::text as vb, ${usdText(sql`volume_usd`)} as vu, swaps
          from pool_candles where ${where} order by bucket`)
      : // Several: the open and close reserves are those of the least and greatest block (an
        // array compares element by element, and a block is in one row only), priced once.
        await db.execute(sql`
          select i, ${scaled(priceOf(sql.raw(`o[${Number(a) + 2}]`), sql.raw(`o[${Number(b) + 2}]`)))} as open, ${scaled(sql`hi`)} as high, ${scaled(sql`lo`)} as low,
            ${scaled(priceOf(sql.raw(`c[${Number(a) + 2}]`), sql.raw(`c[${Number(b) + 2}]`)))} as close, va, vb, vu, swaps
          from (
            select (bucket - ${w.first}::bigint) / ${w.seconds}::bigint as i,
              min(array[open_block::numeric, open_reserve0, open_reserve1]) filter (where ${priced}) as o,
              max(${price(hi)}) filter (where ${priced}) as hi, min(${price(lo)}) filter (where ${priced}) as lo,
              max(array[close_block::numeric, close_reserve0, close_reserve1]) filter (where ${priced}) as c,
              sum(${sql.raw(`volume${a}`)})::text as va, sum(${sql.raw(`volume${b}`)})::text as vb, ${usdText(sql`sum(volume_usd)`)} as vu, sum(swaps)::integer as swaps
            from pool_candles where ${where} group by 1) g
          order by i`),
  );
  return rows.map((r) => ({ i: Number(r.i), open: r.open, high: r.high, low: r.low, close: r.close, volumeA: r.va, volumeB: r.vb, volumeUsd: r.vu, swaps: Number(r.swaps) }));
}

/** One USD candle of a token, folded from its stored rows, written as the API answers it. */
export interface UsdCandleFold {
  i: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** When the close stops being the price: the time of the expiry that follows it, if one does (looked up only where the next interval has no candle). */
  expiresAt: number | null;
}

/**
 * A token's USD candles of `seconds` from `first` to `end`, folded in SQL as poolCandleFolds
 * (values truncated to 18 decimals), each with the time its close expires, if it does: one more
 * seek (the token's next point after the close) per candle that is followed by an interval
 * without points — a close followed by a candle is never carried, so a token priced in every
 * interval costs none.
 */
export async function tokenCandleFolds(db: Database, tokenId: number, w: { res: number; first: number; seconds: number; end: number }): Promise<UsdCandleFold[]> {
  const rows = rowsOf<{ i: number | string; open: string; high: string; low: string; close: string; expires_at: number | string | null }>(
    await db.execute(sql`
      select f.i, f.open, f.high, f.low, f.close,
        case when f.next_i is distinct from f.i + 1 then ${expiryAfter(tokenId, sql`f.close_block`)} end as expires_at
      from (
        select g.*, lead(g.i) over (order by g.i) as next_i from (
          select (bucket - ${w.first}::bigint) / ${w.seconds}::bigint as i,
            ${usdText(sql`(array_agg(open order by open_block))[1]`)} as open, ${usdText(sql`max(high)`)} as high,
            ${usdText(sql`min(low)`)} as low, ${usdText(sql`(array_agg(close order by close_block desc))[1]`)} as close, max(close_block) as close_block
          from token_candles
          where token_id = ${tokenId}::bigint and res = ${w.res}::integer and bucket >= ${w.first}::bigint and bucket < ${w.end}::bigint
          group by 1) g) f
      order by f.i`),
  );
  return rows.map((r) => ({ i: Number(r.i), open: r.open, high: r.high, low: r.low, close: r.close, expiresAt: r.expires_at === null ? null : Number(r.expires_at) }));
}
