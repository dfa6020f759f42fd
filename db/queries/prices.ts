import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { tokenLatestPrices, tokenPrices } from "../schema/index.js";

export type NewTokenPrice = typeof tokenPrices.$inferInsert;

/**
 * Integer ids as one array parameter ('{1,2,3}'): one bind value however many ids, where an IN
 * list of a thousand parameters cost more to build and plan than the lookup itself.
 */
export const idArray = (ids: readonly number[]) => `{${ids.map((id) => String(Math.trunc(id))).join(",")}}`;

export interface PricePoint {
  tokenId: number;
  blockNumber: number;
  priceUsd: string;
}

/** Writes price points and moves each token's latest price forward (never back: a backfill's older points leave it). */
export async function insertPrices(db: Database, rows: NewTokenPrice[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(tokenPrices)
    .values(rows)
    .onConflictDoUpdate({ target: [tokenPrices.tokenId, tokenPrices.blockNumber], set: { priceUsd: sql`excluded."price_usd"` } });
  const newest = new Map<number, NewTokenPrice>();
  for (const r of rows) if ((newest.get(r.tokenId)?.blockNumber ?? -1) <= r.blockNumber) newest.set(r.tokenId, r);
  await db
    .insert(tokenLatestPrices)
    .values([...newest.values()])
    .onConflictDoUpdate({
      target: tokenLatestPrices.tokenId,
      set: { blockNumber: sql`excluded."block_number"`, priceUsd: sql`excluded."price_usd"` },
      setWhere: sql`${tokenLatestPrices.blockNumber} <= excluded."block_number"`,
    });
}

/** The newest price of a token (at or before `atBlock` when given). */
export async function latestPrice(db: Database, tokenId: number, atBlock?: number): Promise<PricePoint | undefined> {
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

/** The newest price of each of `tokenIds` (all tokens when omitted): one row per token, never the history. */
export async function latestPrices(db: Database, tokenIds?: number[]): Promise<Map<number, PricePoint>> {
  if (tokenIds && tokenIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(tokenLatestPrices)
    .where(tokenIds ? sql`${tokenLatestPrices.tokenId} = any(${idArray(tokenIds)}::bigint[])` : undefined);
  return new Map(rows.map((r) => [r.tokenId, r]));
}

/** The price in force at one moment: the newest point of a block at or before it. */
export interface PriceAt {
  blockNumber: number;
  priceUsd: string;
}

/**
 * A token's price at the end of each of `buckets` intervals from `from` (the last end capped at
 * `to`): per bucket, the newest block at or before its end (blocks_timestamp_number_idx) and the
 * token's newest price at or before that block (the primary key) — two index seeks per bucket,
 * whatever the number of price points in the range. Block times never decrease, so this is the
 * newest price whose block time is at or before the end. undefined where there was none yet.
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
  return rows.map((r) => (r.block_number === null || r.price_usd === null ? undefined : { blockNumber: Number(r.block_number), priceUsd: r.price_usd }));
}
