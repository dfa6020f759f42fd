import { and, asc, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Database } from "../client.js";
import { holderCounts, holders } from "../schema/index.js";

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
    // Four array parameters and unnest, not a VALUES list: one small statement for any number
    // of rows, which both Postgres and PGlite parse and plan in constant time (the ingestion
    // hot path; drizzle's multi-row VALUES builder is several times slower here).
    // New rows (xmax = 0: inserted, not updated) add to the token's holder count in the same
    // statement, so the count can never drift from the rows.
    await db.execute(sql`
      with up as (
        insert into holders (token_id, account, balance, block_number)
        select * from unnest(${pgArray(positive.map((r) => r.tokenId))}::bigint[], ${pgArray(positive.map((r) => r.account))}::text[],
                             ${pgArray(positive.map((r) => r.balance))}::numeric[], ${pgArray(positive.map((r) => r.blockNumber))}::bigint[])
        on conflict (token_id, account) do update set balance = excluded.balance, block_number = excluded.block_number
        where excluded.block_number >= holders.block_number
        returning token_id, (xmax = 0) as inserted
      )
      insert into holder_counts (token_id, holders)
      select token_id, count(*) from up where inserted group by token_id
      on conflict (token_id) do update set holders = holder_counts.holders + excluded.holders`);
  }
  if (zero.length > 0) {
    await db.execute(sql`
      with del as (
        delete from holders h using unnest(${pgArray(zero.map((r) => r.tokenId))}::bigint[], ${pgArray(zero.map((r) => r.account))}::text[],
                                           ${pgArray(zero.map((r) => r.blockNumber))}::bigint[]) as z(token_id, account, block_number)
        where h.token_id = z.token_id and h.account = z.account and h.block_number <= z.block_number
        returning h.token_id
      )
      update holder_counts c set holders = c.holders - d.n from (select token_id, count(*) as n from del group by token_id) d
      where c.token_id = d.token_id`);
  }
}

/**
 * A Postgres array literal as one text parameter ('{"a","b"}'): every driver passes a string
 * the same way, where JS arrays are serialized differently by postgres.js and PGlite.
 */
function pgArray(values: (string | number)[]): string {
  return `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}

export async function countHolders(db: Database, tokenId: number): Promise<number> {
  const [row] = await db.select({ n: holderCounts.holders }).from(holderCounts).where(eq(holderCounts.tokenId, tokenId));
  return row?.n ?? 0;
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

/** Holder count of every token that has holders. */
export async function allHolderCounts(db: Database): Promise<Map<number, number>> {
  const rows = await db.select().from(holderCounts);
  return new Map(rows.filter((r) => r.holders > 0).map((r) => [r.tokenId, r.holders]));
}
