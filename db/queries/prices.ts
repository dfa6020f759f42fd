import { and, desc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { tokenLatestPrices, tokenPrices } from "../schema/index.js";
import { unnestRows } from "./bulk.js";
import { ensurePartitions } from "./partitions.js";

export type NewTokenPrice = typeof tokenPrices.$inferInsert;

/**
 * Integer ids as one array parameter ('{1,2,3}'): one bind value however many ids, where an IN
 * list of a thousand parameters cost more to build and plan than the lookup itself.
 */
export const idArray = (ids: readonly number[]) => `{${ids.map((id) => String(Math.trunc(id))).join(",")}}`;

/** A current price: the newest point of a token, when it is a price. */
export interface PricePoint {
  tokenId: number;
  blockNumber: number;
  priceUsd: string;
}

/** The newest point of a token: from `blockNumber` on, `priceUsd`, or no price at all (null: it expired there). */
export interface PriceRow {
  tokenId: number;
  blockNumber: number;
  priceUsd: string | null;
}

/**
 * Writes price points and moves each token's latest price forward (never back: a backfill's older
 * points leave it). A null price is a point too: from that block the token has no price, and its
 * latest row says so.
 */
export async function insertPrices(db: Database, rows: NewTokenPrice[]): Promise<void> {
  if (rows.length === 0) return;
  await ensurePartitions(db, "token_prices", rows.map((r) => r.blockNumber));
  await db
    .insert(tokenPrices)
    .select(unnestRows(tokenPrices, rows))
    .onConflictDoUpdate({ target: [tokenPrices.tokenId, tokenPrices.blockNumber], set: { priceUsd: sql`excluded."price_usd"` } });
  const newest = new Map<number, NewTokenPrice>();
  for (const r of rows) if ((newest.get(r.tokenId)?.blockNumber ?? -1) <= r.blockNumber) newest.set(r.tokenId, r);
  await db
    .insert(tokenLatestPrices)
    .values([...newest.values()].map((r) => ({ ...r, priceUsd: r.priceUsd ?? null })))
    .onConflictDoUpdate({
      target: tokenLatestPrices.tokenId,
      set: { blockNumber: sql`excluded."block_number"`, priceUsd: sql`excluded."price_usd"` },
      setWhere: sql`${tokenLatestPrices.blockNumber} <= excluded."block_number"`,
    });
}

/**
 * The newest point of a token (at or before `atBlock` when given), a null price included: the
 * oracle tells "expired at block N" from "never had a price" (undefined).
 */
export async function latestPrice(db: Database, tokenId: number, atBlock?: number): Promise<PriceRow | undefined> {
  if (atBlock === undefined) {
    const [row] = await db.select().from(tokenLatestPrices).where(eq(tokenLatestPrices.tokenId, tokenId));
    return row;
  }
  const [row] = await db
    .select()
    .from(tokenPrices)
    .where(and(eq(tokenPrices.tokenId, tokenId), lte(tokenPrices.blockNumber, atBlock)))
    .orderBy(desc(tokenPrices.blockNumber))
    .limit(1);
  return row;
}

/**
 * The current price of each of `tokenIds` (all tokens when omitted): one row per token, never the
 * history. A token whose price expired is left out, as one that never had a price.
 */
export async function latestPrices(db: Database, tokenIds?: number[]): Promise<Map<number, PricePoint>> {
  if (tokenIds && tokenIds.length === 0) return new Map();
  const current = isNotNull(tokenLatestPrices.priceUsd);
  const rows = await db
    .select()
    .from(tokenLatestPrices)
    .where(tokenIds ? and(current, sql`${tokenLatestPrices.tokenId} = any(${idArray(tokenIds)}::bigint[])`) : current);
  return new Map(rows.flatMap((r) => (r.priceUsd === null ? [] : [[r.tokenId, { ...r, priceUsd: r.priceUsd }]])));
}

/** The newest point of each of `tokenIds`, a null price (expired) included, as latestPrice gives one. */
export async function latestPriceRows(db: Database, tokenIds: number[]): Promise<Map<number, PriceRow>> {
  if (tokenIds.length === 0) return new Map();
  const rows = await db.select().from(tokenLatestPrices).where(sql`${tokenLatestPrices.tokenId} = any(${idArray(tokenIds)}::bigint[])`);
  return new Map(rows.map((r) => [r.tokenId, r]));
}

/**
 * The price of each of `tokenIds` as of `block`: its newest point at or before it (one backward
 * index step each). A token whose newest point there is an expiry, or that had none, is left out.
 */
export async function pricesAt(db: Database, tokenIds: number[], block: number): Promise<Map<number, PricePoint>> {
  if (tokenIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select t.id as token_id, p.block_number, p.price_usd::text as price_usd
    from unnest(${idArray(tokenIds)}::bigint[]) as t(id)
    cross join lateral (
      select block_number, price_usd from token_prices
      where token_id = t.id and block_number <= ${block}::bigint
      order by block_number desc limit 1
    ) p
    where p.price_usd is not null`);
  const rows = rowsOf<{ token_id: string | number; block_number: string | number; price_usd: string }>(result);
  return new Map(rows.map((r) => [Number(r.token_id), { tokenId: Number(r.token_id), blockNumber: Number(r.block_number), priceUsd: r.price_usd }]));
}

/** The price in force at one moment: the newest point of a block at or before it (null: expired at that block). */
export interface PriceAt {
  blockNumber: number;
  priceUsd: string | null;
}

/**
 * A token's price at the end of each of `buckets` intervals from `from` (the last end capped at
 * `to`): per bucket, the newest block at or before its end (blocks_timestamp_number_idx) and the
 * token's newest price at or before that block (the primary key) — two index seeks per bucket,
 * whatever the number of price points in the range. Block times never decrease, so this is the
 * newest price whose block time is at or before the end. undefined where there was none yet; a
 * null price where the newest point was an expiry.
 */
export async function priceBuckets(db: Database, tokenId: number, q: { from: number; to: number; interval: number; buckets: number }): Promise<(PriceAt | undefined)[]> {
  const result = await db.execute(sql`
    SELECT g.n AS n, p.block_number::text AS block_number, p.price_usd::text AS price_usd
    FROM generate_series(1, ${q.buckets}::integer) AS g(n)
    LEFT JOIN LATERAL (
      SELECT tp.block_number, tp.price_usd FROM token_prices tp
      WHERE tp.token_id = ${tokenId}::bigint
        AND tp.block_number <= (
          SELECT b.number FROM blocks b
          WHERE b.timestamp <= LEAST(${q.from}::bigint + g.n * ${q.interval}::bigint, ${q.to}::bigint)
          ORDER BY b.timestamp DESC, b.number DESC LIMIT 1)
      ORDER BY tp.block_number DESC LIMIT 1
    ) p ON true
    ORDER BY g.n`);
  // PGlite answers { rows }, postgres.js the rows themselves.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number; block_number: string | null; price_usd: string | null }[];
  return rows.map((r) => (r.block_number === null ? undefined : { blockNumber: Number(r.block_number), priceUsd: r.price_usd }));
}
