/**
 * Balance history (db/schema/history.ts): written beside every write to holders and lp_holders
 * — the indexer's rows as read, block by block, and a row of 0 for each account a delete
 * removes — and read back as of a block.
 */
import { and, desc, eq, lte, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { tokenHistory, type tokens } from "../schema/index.js";
import { pgArray } from "./bulk.js";
import { FOLLOWER_CHECKPOINT } from "./checkpoints.js";
import { ensurePartitions, PARTITION_BLOCKS } from "./partitions.js";
import { idArray } from "./prices.js";
import { excludedSet } from "./upsert.js";

export type HistoryKind = "holders" | "lp";

export interface BalanceRow {
  lp: boolean;
  tokenId: number;
  account: string;
  blockNumber: number;
  balance: string;
}

/** Balances read at their blocks; a block read again writes the same key (replays change nothing). */
export async function recordBalances(db: Database, given: BalanceRow[]): Promise<void> {
  if (given.length === 0) return;
  // One row per key in a statement (ON CONFLICT cannot update a row twice): the last one given.
  const byKey = new Map(given.map((r) => [`${r.lp}|${r.tokenId}|${r.account}|${r.blockNumber}`, r]));
  const rows = byKey.size === given.length ? given : [...byKey.values()];
  await ensurePartitions(db, "balance_history", rows.map((r) => r.blockNumber));
  await db.execute(sql`
    insert into balance_history (lp, token_id, account, block_number, balance)
    select * from unnest(${pgArray(rows.map((r) => (r.lp ? "t" : "f")))}::boolean[], ${pgArray(rows.map((r) => r.tokenId))}::bigint[],
                         ${pgArray(rows.map((r) => r.account))}::text[], ${pgArray(rows.map((r) => r.blockNumber))}::bigint[],
                         ${pgArray(rows.map((r) => r.balance))}::numeric[])
    on conflict (lp, token_id, account, block_number) do update set balance = excluded.balance`);
}

/**
 * Runs `deleteReturning` — a DELETE from holders (`lp` false) or lp_holders (`lp` true) that
 * returns `token_id, account` — and records each removed account's balance as 0 at `block`.
 */
export async function deleteRecorded(db: Database, lp: boolean, block: number, deleteReturning: SQL): Promise<void> {
  await ensurePartitions(db, "balance_history", [block]);
  await db.execute(sql`
    with gone as (${deleteReturning})
    insert into balance_history (lp, token_id, account, block_number, balance)
    select ${lp}, token_id, account, ${block}, 0 from gone
    on conflict (lp, token_id, account, block_number) do update set balance = 0`);
}

/**
 * A full snapshot of `kind` was written at `block`. History is complete from there on; and it
 * stays complete from its earlier floor when the snapshot is at the follower's checkpoint (a
 * runtime upgrade's: every block before it was followed), so the floor moves only across a gap
 * (a first snapshot, a re-bootstrap ahead of the checkpoint). Call before the checkpoint moves.
 */
export async function snapshotTaken(db: Database, kind: HistoryKind, block: number): Promise<void> {
  await db.execute(sql`
    insert into history_floors (kind, block_number)
    select ${kind}, ${block}::bigint
    where not exists (select 1 from history_floors where kind = ${kind})
       or not exists (select 1 from checkpoints where name = ${FOLLOWER_CHECKPOINT} and block_number = ${block}::bigint)
    on conflict (kind) do update set block_number = excluded.block_number`);
}

/** The first block balances of `kind` can be answered at; undefined before the first snapshot. */
export async function historyFloor(db: Database, kind: HistoryKind): Promise<number | undefined> {
  const rows = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from history_floors where kind = ${kind}`));
  return rows[0] === undefined ? undefined : Number(rows[0].block_number);
}

/** What an answer as of a block is checked against (asOfBounds). */
export interface AsOfBounds {
  head: { number: number; timestamp: number } | undefined;
  /** The floor of the kinds asked (the latest of them); undefined when any has none yet. */
  floor: number | undefined;
  /** The block named (by number, or the last at or before a time); undefined when none or not asked. */
  asked: { number: number; timestamp: number } | undefined;
  /** The earliest block of the indexer tasks named (a re-read, a verification owed from an upgrade) in progress. */
  task: { block: number } | undefined;
}

/**
 * In one statement (one round trip, where reading them apart took five): the newest block, the
 * history floors of `kinds`, the block `at` names or the last at or before `atTime`, and the
 * earliest block of the indexer tasks `tasks` on record.
 */
export async function asOfBounds(db: Database, kinds: HistoryKind[], q: { at?: number | undefined; atTime?: number | undefined }, tasks: string[]): Promise<AsOfBounds> {
  const asked =
    q.at !== undefined
      ? sql`select number, timestamp from blocks where number = ${q.at}::bigint`
      : q.atTime !== undefined
        ? sql`select number, timestamp from blocks where timestamp <= ${q.atTime}::bigint order by timestamp desc, number desc limit 1`
        : sql`select null::bigint as number, null::bigint as timestamp where false`;
  const [row] = rowsOf<{ head_number: string | number | null; head_timestamp: string | number | null; floors: string | number; floor: string | number | null; asked_number: string | number | null; asked_timestamp: string | number | null; task: string | null }>(
    await db.execute(sql`
      select h.number as head_number, h.timestamp as head_timestamp, a.number as asked_number, a.timestamp as asked_timestamp,
        (select count(*) from history_floors where kind = any(${pgArray(kinds)}::text[])) as floors,
        (select max(block_number) from history_floors where kind = any(${pgArray(kinds)}::text[])) as floor,
        (select min((state->>'block')::bigint)::text from indexer_tasks where name = any(${pgArray(tasks)}::text[])) as task
      from (select 1) one
      left join lateral (select number, timestamp from blocks order by number desc limit 1) h on true
      left join lateral (${asked}) a on true`),
  );
  const num = (v: string | number | null | undefined) => (v === null || v === undefined ? undefined : Number(v));
  const pair = (n: string | number | null | undefined, t: string | number | null | undefined) => (n === null || n === undefined ? undefined : { number: Number(n), timestamp: Number(t) });
  return {
    head: pair(row?.head_number, row?.head_timestamp),
    floor: Number(row?.floors ?? 0) === new Set(kinds).size ? num(row?.floor) : undefined,
    asked: pair(row?.asked_number, row?.asked_timestamp),
    task: row?.task === null || row?.task === undefined ? undefined : { block: Number(row.task) },
  };
}

/**
 * The balance of (token, account) as of `block`: the newest row at or before it, with the block
 * it was read at; undefined when history has no row (the account held none since the floor).
 */
export async function balanceAt(db: Database, lp: boolean, tokenId: number, account: string, block: number): Promise<{ balance: string; blockNumber: number } | undefined> {
  const rows = rowsOf<{ balance: string; block_number: string | number }>(
    await db.execute(sql`
      select balance::text as balance, block_number from balance_history
      where lp = ${lp} and token_id = ${tokenId} and account = ${account} and block_number <= ${block}
      order by block_number desc limit 1`),
  );
  const r = rows[0];
  return r === undefined ? undefined : { balance: r.balance, blockNumber: Number(r.block_number) };
}

/** Every non-zero balance of a token as of `block`, by account (tests; holder snapshots). */
export async function balancesAt(db: Database, lp: boolean, block: number): Promise<Array<{ tokenId: number; account: string; balance: string }>> {
  const rows = rowsOf<{ token_id: string | number; account: string; balance: string }>(
    await db.execute(sql`
      select token_id, account, balance::text as balance from (
        select distinct on (token_id, account) token_id, account, balance from balance_history
        where lp = ${lp} and block_number <= ${block}
        order by token_id, account, block_number desc
      ) latest where balance > 0`),
  );
  return rows.map((r) => ({ tokenId: Number(r.token_id), account: r.account, balance: r.balance }));
}

/**
 * What one account held as of `block`: its non-zero balances of `lp` tokens (LP positions when
 * true), by token id, `limit` at most. History is keyed token first, so this walks the token ids
 * it holds rows for (one index step each, a loose index scan) and probes each for the account's
 * newest row at or before `block` — a few thousand index steps on a real chain, with no second
 * index on every balance written.
 */
export async function holdingsAt(db: Database, lp: boolean, account: string, block: number, limit: number): Promise<Array<{ tokenId: number; balance: string; blockNumber: number }>> {
  // The walk reads only the partitions at or below `block`'s (each step is one index step per
  // partition it reads). Bounded by the end of `block`'s partition, not by `block` itself: that
  // prunes the same partitions, and in `block`'s own the bound holds for every row, where
  // `<= block` would make each step filter through the rows above `block` (most of a partition
  // for a block early in it). A token whose rows there all come after `block` is walked, and the
  // probe below finds it no row.
  const below = block - (block % PARTITION_BLOCKS) + PARTITION_BLOCKS;
  const rows = rowsOf<{ token_id: string | number; balance: string; block_number: string | number }>(
    await db.execute(sql`
      with recursive ids(id) as (
        select min(token_id) from balance_history where lp = ${lp} and block_number < ${below}::bigint
        union all
        select (select min(token_id) from balance_history where lp = ${lp} and token_id > ids.id and block_number < ${below}::bigint) from ids where ids.id is not null
      )
      select ids.id as token_id, h.balance::text as balance, h.block_number
      from ids cross join lateral (
        select balance, block_number from balance_history
        where lp = ${lp} and token_id = ids.id and account = ${account} and block_number <= ${block}::bigint
        order by block_number desc limit 1
      ) h
      where ids.id is not null and h.balance > 0
      order by ids.id
      limit ${limit}`),
  );
  return rows.map((r) => ({ tokenId: Number(r.token_id), balance: r.balance, blockNumber: Number(r.block_number) }));
}

type TokenRow = typeof tokens.$inferInsert;

/** Text as Postgres can store it: a chain's token name may hold NUL, which text refuses. */
export const storable = (text: string | undefined) => text?.replaceAll("\u0000", "");

/** Token rows read at their blocks (token_history); one row per (id, block) a statement. */
export async function recordTokens(db: Database, given: TokenRow[]): Promise<void> {
  if (given.length === 0) return;
  const rows = [...new Map(given.map((r) => [`${r.id}|${r.blockNumber}`, r])).values()];
  await ensurePartitions(db, "token_history", rows.map((r) => r.blockNumber));
  await db
    .insert(tokenHistory)
    .values(rows.map((r) => ({ ...r, name: storable(r.name), symbol: storable(r.symbol), destroyed: false })))
    .onConflictDoUpdate({
      target: [tokenHistory.id, tokenHistory.blockNumber],
      set: excludedSet(tokenHistory, [tokenHistory.id, tokenHistory.blockNumber]),
    });
}

/** Tokens found gone at `block`: as of it and after (until a new row), they do not exist. */
export async function recordDestroyed(db: Database, ids: number[], block: number): Promise<void> {
  if (ids.length === 0) return;
  await ensurePartitions(db, "token_history", [block]);
  await db
    .insert(tokenHistory)
    .values(ids.map((id) => ({ id, blockNumber: block, destroyed: true })))
    .onConflictDoUpdate({ target: [tokenHistory.id, tokenHistory.blockNumber], set: { destroyed: true } });
}

/** Token `id` as of `block`: its newest row at or before it; undefined when none, or destroyed there. */
export async function tokenAt(db: Database, id: number, block: number) {
  const [row] = await db
    .select()
    .from(tokenHistory)
    .where(and(eq(tokenHistory.id, id), lte(tokenHistory.blockNumber, block)))
    .orderBy(desc(tokenHistory.blockNumber))
    .limit(1);
  return row === undefined || row.destroyed ? undefined : row;
}

/** Tokens `ids` as of `block` (each one's newest row at or before it; destroyed ones left out). */
export async function tokensAtIds(db: Database, ids: number[], block: number) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectDistinctOn([tokenHistory.id])
    .from(tokenHistory)
    .where(and(sql`${tokenHistory.id} = any(${idArray(ids)}::bigint[])`, lte(tokenHistory.blockNumber, block)))
    .orderBy(tokenHistory.id, desc(tokenHistory.blockNumber));
  return rows.filter((r) => !r.destroyed);
}

/** Every token as of `block` (newest row at or before it, destroyed ones left out), by id. */
export async function tokensAt(db: Database, block: number) {
  const rows = await db
    .selectDistinctOn([tokenHistory.id])
    .from(tokenHistory)
    .where(lte(tokenHistory.blockNumber, block))
    .orderBy(tokenHistory.id, desc(tokenHistory.blockNumber));
  return rows.filter((r) => !r.destroyed);
}

/**
 * Retention: history before block `from` is given up, exactly. For every balance and token, the
 * newest row at or before `from` is kept (it is the state at `from`) and every older one goes;
 * a kept row that says 0, or destroyed, goes too (no row means just that). The floors move up
 * to `from`, so earlier blocks are refused from then on. `from` must lie between the current
 * floor and the follower's checkpoint. Returns the rows deleted.
 */
export async function pruneHistory(db: Database, from: number): Promise<{ balances: number; tokens: number }> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const [cp] = rowsOf<{ block_number: string | number }>(await t.execute(sql`select block_number from checkpoints where name = ${FOLLOWER_CHECKPOINT}`));
    if (!cp || from > Number(cp.block_number)) throw new Error(`block ${from} is after the store's checkpoint (${cp ? cp.block_number : "none"}): history up to the newest block is kept`);
    const balances = rowsOf<{ n: string | number }>(
      await t.execute(sql`
        with gone as (
          delete from balance_history h
          where h.block_number < ${from}::bigint
            and (h.balance = 0 or exists (
              select 1 from balance_history n
              where n.lp = h.lp and n.token_id = h.token_id and n.account = h.account and n.block_number > h.block_number and n.block_number <= ${from}::bigint))
          returning 1
        ) select count(*) as n from gone`),
    );
    const tokens = rowsOf<{ n: string | number }>(
      await t.execute(sql`
        with gone as (
          delete from token_history h
          where h.block_number < ${from}::bigint
            and (h.destroyed or exists (select 1 from token_history n where n.id = h.id and n.block_number > h.block_number and n.block_number <= ${from}::bigint))
          returning 1
        ) select count(*) as n from gone`),
    );
    await t.execute(sql`update history_floors set block_number = ${from}::bigint where kind in ('holders', 'lp') and block_number < ${from}::bigint`);
    return { balances: Number(balances[0]!.n), tokens: Number(tokens[0]!.n) };
  });
}
