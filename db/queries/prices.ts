import { and, asc, desc, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { blocks, tokenPrices } from "../schema/index.js";

export type NewTokenPrice = typeof tokenPrices.$inferInsert;

export interface PricePoint {
  tokenId: number;
  blockNumber: number;
  priceUsd: string;
}

export async function insertPrices(db: Database, rows: NewTokenPrice[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(tokenPrices)
    .values(rows)
    .onConflictDoUpdate({ target: [tokenPrices.tokenId, tokenPrices.blockNumber], set: { priceUsd: sql`excluded."price_usd"` } });
}

/** The newest price of a token (at or before `atBlock` when given). */
export async function latestPrice(db: Database, tokenId: number, atBlock?: number): Promise<PricePoint | undefined> {
  const where = atBlock === undefined ? eq(tokenPrices.tokenId, tokenId) : and(eq(tokenPrices.tokenId, tokenId), lte(tokenPrices.blockNumber, atBlock));
  const [row] = await db.select().from(tokenPrices).where(where).orderBy(desc(tokenPrices.blockNumber)).limit(1);
  return row;
}

/** The newest price of each of `tokenIds` (all tokens when omitted), as a map by token id. */
export async function latestPrices(db: Database, tokenIds?: number[]): Promise<Map<number, PricePoint>> {
  if (tokenIds && tokenIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([tokenPrices.tokenId])
    .from(tokenPrices)
    .where(tokenIds ? inArray(tokenPrices.tokenId, tokenIds) : undefined)
    .orderBy(tokenPrices.tokenId, desc(tokenPrices.blockNumber));
  return new Map(rows.map((r) => [r.tokenId, r]));
}

export interface TimedPrice {
  blockNumber: number;
  timestamp: number;
  priceUsd: string;
}

/**
 * A token's price points with block timestamps in [from, to], plus the last one before `from`
 * (the value at the start of the range), oldest first.
 */
export async function priceHistory(db: Database, tokenId: number, from: number, to: number): Promise<TimedPrice[]> {
  const cols = { blockNumber: tokenPrices.blockNumber, timestamp: blocks.timestamp, priceUsd: tokenPrices.priceUsd };
  const joined = () => db.select(cols).from(tokenPrices).innerJoin(blocks, eq(blocks.number, tokenPrices.blockNumber));
  const [before, inside] = await Promise.all([
    joined()
      .where(and(eq(tokenPrices.tokenId, tokenId), lt(blocks.timestamp, from)))
      .orderBy(desc(tokenPrices.blockNumber))
      .limit(1),
    joined()
      .where(and(eq(tokenPrices.tokenId, tokenId), gte(blocks.timestamp, from), lte(blocks.timestamp, to)))
      .orderBy(asc(tokenPrices.blockNumber)),
  ]);
  return [...before, ...inside];
}
