import { and, asc, count, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { holders } from "../schema/index.js";
import { excludedSet, notOlder } from "./upsert.js";

export type Holder = typeof holders.$inferSelect;
export type NewHolder = typeof holders.$inferInsert;

/**
 * Writes absolute balances read at `blockNumber`. A zero balance deletes the row, so the table
 * holds exactly the accounts with something.
 */
export async function upsertHolders(db: Database, rows: NewHolder[]): Promise<void> {
  const positive = rows.filter((r) => BigInt(r.balance) > 0n);
  const zero = rows.filter((r) => BigInt(r.balance) === 0n);
  if (positive.length > 0) {
    await db
      .insert(holders)
      .values(positive)
      .onConflictDoUpdate({
        target: [holders.tokenId, holders.account],
        set: excludedSet(holders, [holders.tokenId, holders.account]),
        setWhere: notOlder(holders.blockNumber),
      });
  }
  for (const r of zero) {
    await db
      .delete(holders)
      .where(and(eq(holders.tokenId, r.tokenId), eq(holders.account, r.account), sql`${holders.blockNumber} <= ${r.blockNumber}`));
  }
}

export async function countHolders(db: Database, tokenId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(holders).where(eq(holders.tokenId, tokenId));
  return Number(row?.n ?? 0);
}

export async function getBalance(db: Database, tokenId: number, account: string): Promise<bigint> {
  const [row] = await db
    .select({ balance: holders.balance })
    .from(holders)
    .where(and(eq(holders.tokenId, tokenId), eq(holders.account, account)))
    .limit(1);
  return row ? BigInt(row.balance) : 0n;
}

const rankOrder = [desc(holders.balance), asc(holders.account)] as const;

/** Holders in rank order (balance desc, then address), `offset` rows in. */
export async function holdersByOffset(db: Database, tokenId: number, offset: number, limit: number): Promise<Holder[]> {
  return db
    .select()
    .from(holders)
    .where(eq(holders.tokenId, tokenId))
    .orderBy(...rankOrder)
    .limit(limit)
    .offset(offset);
}

/** Holders ranked after (balance, account): keyset paging on holders_rank_idx, flat at any depth. */
export async function holdersAfter(
  db: Database,
  tokenId: number,
  after: { balance: string; account: string },
  limit: number,
): Promise<Holder[]> {
  const b = sql`${after.balance}::numeric`;
  return db
    .select()
    .from(holders)
    .where(
      and(
        eq(holders.tokenId, tokenId),
        or(lt(holders.balance, b as never), and(eq(holders.balance, b as never), gt(holders.account, after.account))),
      ),
    )
    .orderBy(...rankOrder)
    .limit(limit);
}
