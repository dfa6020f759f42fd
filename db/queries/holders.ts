import { and, asc, desc, eq, gt, gte, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../database.js";
import { deleteRecorded, recordBalances } from "./balance-history.js";
import { ensurePartitions } from "./partitions.js";
import { holderCounts, holders, lpHolders } from "../schema/index.js";
import { pgArray } from "./bulk.js";

export type Holder = typeof holders.$inferSelect;
export type NewHolder = typeof holders.$inferInsert;

/**
 * Writes absolute balances read at `blockNumber`, with their parts (the native token's free,
 * reserved, frozen and transferable; an asset account's status; null where a row has none). A
 * zero balance deletes the row, so the table holds exactly the accounts with something.
 */
export async function upsertHolders(db: Database, rows: NewHolder[], opts: { history?: boolean } = {}): Promise<void> {
  // Balance history too (db/schema/history.ts), zeros included, in the same statements; a batch
  // writes its own, block by block (history: false).
  const history = opts.history !== false;
  const positive = rows.filter((r) => BigInt(r.balance) > 0n);
  const zero = rows.filter((r) => BigInt(r.balance) === 0n);
  if (positive.length > 0) {
    if (history) await ensurePartitions(db, "balance_history", positive.map((r) => r.blockNumber));
    // Array parameters and unnest, not a VALUES list: one small statement for any number
    // of rows, which both Postgres and PGlite parse and plan in constant time (the ingestion
    // hot path; drizzle's multi-row VALUES builder is several times slower here).
    // New rows (xmax = 0: inserted, not updated) add to the token's holder count in the same
    // statement, so the count can never drift from the rows.
    await db.execute(sql`
      with input as (
        select * from unnest(${pgArray(positive.map((r) => r.tokenId))}::bigint[], ${pgArray(positive.map((r) => r.account))}::text[],
                             ${pgArray(positive.map((r) => r.balance))}::numeric[], ${pgArray(positive.map((r) => r.blockNumber))}::bigint[],
                             ${pgArray(positive.map((r) => r.free))}::numeric[], ${pgArray(positive.map((r) => r.reserved))}::numeric[],
                             ${pgArray(positive.map((r) => r.frozen))}::numeric[], ${pgArray(positive.map((r) => r.transferable))}::numeric[],
                             ${pgArray(positive.map((r) => r.status))}::text[])
          as u(token_id, account, balance, block_number, free, reserved, frozen, transferable, status)
      ),${history ? sql` hist as (
        insert into balance_history (lp, token_id, account, block_number, balance)
        select false, token_id, account, block_number, balance from input
        on conflict (lp, token_id, account, block_number) do update set balance = excluded.balance
      ),` : sql``}
      up as (
        insert into holders (token_id, account, balance, block_number, free, reserved, frozen, transferable, status)
        select * from input
        on conflict (token_id, account) do update set balance = excluded.balance, block_number = excluded.block_number, free = excluded.free,
          reserved = excluded.reserved, frozen = excluded.frozen, transferable = excluded.transferable, status = excluded.status
        where excluded.block_number >= holders.block_number
        returning token_id, (xmax = 0) as inserted
      )
      insert into holder_counts (token_id, holders)
      select token_id, count(*) from up where inserted group by token_id
      on conflict (token_id) do update set holders = holder_counts.holders + excluded.holders`);
  }
  if (zero.length > 0) {
    if (history) await recordBalances(db, zero.map((r) => ({ lp: false, tokenId: r.tokenId, account: r.account, blockNumber: r.blockNumber, balance: "0" })));
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

// "desc nulls last" exactly as holders_rank_idx is built (drizzle's .desc() index): a plain
// `desc` means NULLS FIRST, which the planner cannot serve from that index, and every page
// became a sort of all the token's holders.
const rankOrder = [sql`${holders.balance} desc nulls last`, asc(holders.account)] as const;
/** rankOrder backwards: holders_rank_idx read from its other end. */
const reverseRankOrder = [sql`${holders.balance} asc nulls first`, desc(holders.account)] as const;

/**
 * Holders in rank order (balance desc, then address), `offset` rows in. The row at the offset
 * is found first on the index alone (balance and account are in holders_rank_idx, so deep
 * offsets are an index-only walk, no heap reads), then the page is read from there by keyset.
 * With the token's exact holder count, an anchor past the middle is found from the far end.
 */
export async function holdersByOffset(db: Database, tokenId: number, offset: number, limit: number, total?: number): Promise<Holder[]> {
  if (offset === 0) return db.select().from(holders).where(eq(holders.tokenId, tokenId)).orderBy(...rankOrder).limit(limit);
  if (total !== undefined && offset >= total) return [];
  // Past the middle, the same anchor row is nearer the other end: walk the index backwards
  // (balance asc, account desc) total - 1 - offset rows instead of offset rows forwards. `total`
  // must be the token's exact row count (holder_counts, kept in the statements that write holders).
  const reverse = total !== undefined && offset > total - 1 - offset;
  const [anchor] = await db
    .select({ balance: holders.balance, account: holders.account })
    .from(holders)
    .where(eq(holders.tokenId, tokenId))
    .orderBy(...(reverse ? reverseRankOrder : rankOrder))
    .limit(1)
    .offset(reverse ? total - 1 - offset : offset);
  return anchor ? fromPosition(db, tokenId, anchor, limit, true) : [];
}

/** Holders ranked after (balance, account): keyset paging on holders_rank_idx, flat at any depth. */
export function holdersAfter(db: Database, tokenId: number, after: { balance: string; account: string }, limit: number): Promise<Holder[]> {
  return fromPosition(db, tokenId, after, limit, false);
}

/**
 * Holders from a (balance, account) position on: `balance <= b` is a range condition on the
 * index, so the scan starts at the position instead of filtering every richer holder first.
 */
function fromPosition(db: Database, tokenId: number, at: { balance: string; account: string }, limit: number, inclusive: boolean): Promise<Holder[]> {
  const b = sql`${at.balance}::numeric`;
  const sameBalance = inclusive ? gte(holders.account, at.account) : gt(holders.account, at.account);
  return db
    .select()
    .from(holders)
    .where(and(eq(holders.tokenId, tokenId), lte(holders.balance, b as never), or(lt(holders.balance, b as never), sameBalance)))
    .orderBy(...rankOrder)
    .limit(limit);
}

export async function allHolderCounts(db: Database): Promise<Map<number, number>> {
  const rows = await db.select().from(holderCounts);
  return new Map(rows.filter((r) => r.holders > 0).map((r) => [r.tokenId, r.holders]));
}

/** At most this many tokens or LP positions of one account are read (an answer says when there were more). */
export const ACCOUNT_ROWS = 1_000;

/** The token balances of one account, by token id; `limit` rows at most. */
export function accountHoldings(db: Database, account: string, limit = ACCOUNT_ROWS + 1): Promise<Holder[]> {
  return db.select().from(holders).where(eq(holders.account, account)).orderBy(asc(holders.tokenId)).limit(limit);
}

export type LpHolder = typeof lpHolders.$inferSelect;
export type NewLpHolder = typeof lpHolders.$inferInsert;

/** LP token balances read at their block; a zero deletes the row. Never moves a row back in blocks. */
export async function upsertLpHolders(db: Database, rows: NewLpHolder[], opts: { history?: boolean } = {}): Promise<void> {
  if (opts.history !== false) await recordBalances(db, rows.map((r) => ({ lp: true, tokenId: r.lpTokenId, account: r.account, blockNumber: r.blockNumber, balance: r.balance })));
  const positive = rows.filter((r) => BigInt(r.balance) > 0n);
  const zero = rows.filter((r) => BigInt(r.balance) === 0n);
  if (positive.length > 0) {
    await db
      .insert(lpHolders)
      .values(positive)
      .onConflictDoUpdate({
        target: [lpHolders.lpTokenId, lpHolders.account],
        set: { balance: sql`excluded.balance`, blockNumber: sql`excluded.block_number` },
        setWhere: sql`excluded.block_number >= ${lpHolders.blockNumber}`,
      });
  }
  for (const r of zero) {
    await db.delete(lpHolders).where(and(eq(lpHolders.lpTokenId, r.lpTokenId), eq(lpHolders.account, r.account), lte(lpHolders.blockNumber, r.blockNumber)));
  }
}

/** The LP positions of one account; `limit` rows at most. */
export function accountLpPositions(db: Database, account: string, limit = ACCOUNT_ROWS + 1): Promise<LpHolder[]> {
  return db.select().from(lpHolders).where(eq(lpHolders.account, account)).orderBy(asc(lpHolders.lpTokenId)).limit(limit);
}

/** Removes LP positions last read before `block` (a full snapshot at `block` replaces them). */
export async function deleteLpHoldersBefore(db: Database, block: number): Promise<void> {
  await deleteRecorded(db, true, block, sql`delete from lp_holders where block_number < ${block} returning lp_token_id as token_id, account`);
}
