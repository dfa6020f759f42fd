import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../database.js";
import { foreignLocations, holderCounts, tokenLatestPrices, tokens } from "../schema/index.js";
import { idArray } from "./prices.js";
import { deleteRecorded, recordDestroyed, recordTokens, storable } from "./balance-history.js";
import { excludedSet, notOlder } from "./upsert.js";

export type Token = typeof tokens.$inferSelect;
export type NewToken = typeof tokens.$inferInsert;

/**
 * Postgres text cannot hold U+0000, and asset metadata is any bytes its owner chose: a NUL in a
 * name or symbol is dropped rather than failing the batch (and stalling the indexer on it).
 */

export async function upsertTokens(db: Database, rows: NewToken[], opts: { history?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  // Token history too (db/schema/history.ts); a batch writes its own, block by block.
  if (opts.history !== false) await recordTokens(db, rows);
  await db
    .insert(tokens)
    .values(rows.map((r) => ({ ...r, name: storable(r.name), symbol: storable(r.symbol) })))
    .onConflictDoUpdate({ target: tokens.id, set: excludedSet(tokens, [tokens.id]), setWhere: notOlder(tokens.blockNumber) });
}

/**
 * Assets destroyed at `block` disappear, with their holders and counts (their price history
 * stays for old swaps); history records them gone there, and each holder's balance as 0.
 */
export async function deleteTokens(db: Database, ids: number[], block: number): Promise<void> {
  if (ids.length === 0) return;
  await recordDestroyed(db, ids, block);
  await deleteRecorded(db, false, block, sql`delete from holders where token_id = any(${idArray(ids)}::bigint[]) returning token_id, account`);
  await db.delete(holderCounts).where(inArray(holderCounts.tokenId, ids));
  await db.delete(tokens).where(inArray(tokens.id, ids));
}

export async function getToken(db: Database, id: number): Promise<Token | undefined> {
  const [row] = await db.select().from(tokens).where(eq(tokens.id, id)).limit(1);
  return row;
}

/**
 * A token now with its current USD price (null: none, or expired) and its owner's balance ("0"
 * without an owner or a holding): what /assets/metadata answers, in one statement, so an answer
 * the response cache does not hold costs one round trip and one snapshot rather than three.
 */
export async function tokenWithValue(db: Database, id: number): Promise<{ token: Token; priceUsd: string | null; ownerBalance: string } | undefined> {
  const [row] = await db
    .select({
      token: tokens,
      priceUsd: tokenLatestPrices.priceUsd,
      ownerBalance: sql<string>`coalesce((select h.balance::text from holders h where h.token_id = ${tokens.id} and h.account = ${tokens.owner}), '0')`,
    })
    .from(tokens)
    .leftJoin(tokenLatestPrices, eq(tokenLatestPrices.tokenId, tokens.id))
    .where(eq(tokens.id, id))
    .limit(1)
    // Prepared (db/prepared.ts): the current metadata is the hot read of /assets/metadata/{id}.
    .prepare("token_with_value")
    .execute();
  return row;
}

export async function getTokens(db: Database, ids: number[]): Promise<Token[]> {
  if (ids.length === 0) return [];
  return db.select().from(tokens).where(sql`${tokens.id} = any(${idArray(ids)}::bigint[])`);
}

/**
 * Tokens whose symbol equals `symbol`, ignoring case (several assets may share one), lowest ids
 * first; at most `limit` of them (anyone can create assets under any symbol).
 */
export async function findTokensBySymbol(db: Database, symbol: string, limit = 1_000): Promise<Token[]> {
  return db
    .select()
    .from(tokens)
    .where(sql`lower(${tokens.symbol}) = lower(${symbol})`)
    .orderBy(asc(tokens.id))
    .limit(limit);
}

/** Every symbol as the pair routes compare them (Postgres' lower()), how many tokens have it, and the lowest id (api/canonical.ts). */
export async function symbolCounts(db: Database): Promise<{ symbol: string; tokens: number; id: number }[]> {
  const lowered = sql<string>`lower(${tokens.symbol})`;
  return db
    .select({ symbol: lowered, tokens: sql<number>`count(*)::int`, id: sql<number>`min(${tokens.id})`.mapWith(Number) })
    .from(tokens)
    .where(sql`${tokens.symbol} <> ''`)
    .groupBy(lowered);
}

/** What the indexer keeps in memory of every token: its decimals and symbol. */
export async function tokenSymbols(db: Database) {
  return db.select({ id: tokens.id, decimals: tokens.decimals, symbol: tokens.symbol }).from(tokens);
}

export type ForeignLocation = typeof foreignLocations.$inferSelect;

export async function upsertForeignLocations(db: Database, rows: ForeignLocation[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(foreignLocations)
    .values(rows)
    .onConflictDoUpdate({ target: foreignLocations.tokenId, set: excludedSet(foreignLocations, [foreignLocations.tokenId]), setWhere: notOlder(foreignLocations.blockNumber) });
}

export async function allForeignLocations(db: Database): Promise<ForeignLocation[]> {
  return db.select().from(foreignLocations);
}

export async function allTokens(db: Database): Promise<Token[]> {
  return db.select().from(tokens).orderBy(tokens.id);
}
