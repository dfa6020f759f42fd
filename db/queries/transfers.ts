import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import type { transfers } from "../schema/index.js";
import { TRANSFER_KINDS, type TransferKind } from "../schema/transfers.js";
import { accountIdQuery, accountIds, addressesOf } from "./account-ids.js";
import { blockRangeOfTimes } from "./chain.js";
import { inListOrder } from "./list-order.js";
import { pgArray } from "./bulk.js";
import { dropPartitionsBefore, ensurePartitions, listSlices } from "./partitions.js";

/** A transfer row as the indexer has it: accounts by address (their ids are the store's: account_ids). */
export type NewTransfer = Omit<typeof transfers.$inferInsert, "fromId" | "toId"> & { fromAccount?: string | null; toAccount?: string | null };

/** The addresses `rows` name, for accountIds ahead of the transaction that inserts them (indexer/writer.ts). */
export const transferAddresses = (rows: NewTransfer[]): (string | null | undefined)[] => rows.flatMap((r) => [r.fromAccount, r.toAccount]);

/**
 * Appends transfer rows in one statement (array parameters and unnest: the ingestion hot path).
 * Keyed by (block, event): a block written again writes nothing twice. `ids`: the accounts' ids
 * when resolved already (accountIds on the pool, before the transaction, as the writer does);
 * looked up here if not — inside `db`'s transaction when it is one, where a writer making many
 * such calls per transaction, beside another, could deadlock on their new addresses (each call's
 * are sorted, not the transaction's): such a writer resolves them first.
 */
export async function insertTransfers(db: Database, rows: NewTransfer[], ids?: Map<string, number>): Promise<void> {
  if (rows.length === 0) return;
  await ensurePartitions(db, "transfers", rows.map((r) => r.blockNumber));
  const known = ids !== undefined && rows.every((r) => (r.fromAccount == null || ids.has(r.fromAccount)) && (r.toAccount == null || ids.has(r.toAccount)));
  const idOf = known ? ids : await accountIds(db, transferAddresses(rows));
  const col = <K extends keyof NewTransfer>(k: K) => pgArray(rows.map((r) => r[k] ?? null));
  const idCol = (k: "fromAccount" | "toAccount") =>
    pgArray(
      rows.map((r) => {
        const a = r[k];
        if (a == null) return null;
        const id = idOf.get(a);
        // Never a row that names no one: an address without an id is an error, not a null account.
        if (id === undefined) throw new Error(`transfers: no account id for ${a}`);
        return id;
      }),
    );
  await db.execute(sql`
    insert into transfers (block_number, event_index, extrinsic_index, timestamp, token_id, lp_token_id, from_id, to_id, amount, kind, event, value_usd, tip)
    select * from unnest(${col("blockNumber")}::bigint[], ${col("eventIndex")}::integer[], ${col("extrinsicIndex")}::integer[], ${col("timestamp")}::bigint[],
                         ${col("tokenId")}::bigint[], ${col("lpTokenId")}::bigint[], ${idCol("fromAccount")}::integer[], ${idCol("toAccount")}::integer[],
                         ${col("amount")}::numeric[], ${col("kind")}::text[], ${col("event")}::text[], ${col("valueUsd")}::numeric[], ${col("tip")}::numeric[])
    on conflict (block_number, event_index) do nothing`);
}

export type Transfer = Omit<typeof transfers.$inferSelect, "fromId" | "toId"> & { fromAccount: string | null; toAccount: string | null };

/** A position in a transfer list, newest first: rows strictly older than it come next. */
export interface TransferPosition {
  blockNumber: number;
  eventIndex: number;
}

export interface TransferFilter {
  kind?: TransferKind | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
  /**
   * Checked on each row inside the block range the API derives from them (blockRangeOfTimes),
   * which holds exactly the rows of those times when every transfer's block is in `blocks`, as
   * the writer keeps it: these reject rows only in a store missing some of its blocks.
   */
  fromTime?: number | undefined;
  toTime?: number | undefined;
  before?: TransferPosition | undefined;
}

/** A token's rows (tokenId) or an LP token's (lpTokenId): the one filter an account's list walks for. */
export type TransferAsset = { tokenId: number; lpTokenId?: undefined } | { lpTokenId: number; tokenId?: undefined };

/**
 * Transfers of an account a page filtered by token examines at most: that filter is not in the
 * account's index, so its matches are looked for among the account's newest rows from the
 * cursor, this many of them, and a page that finds fewer than asked for says where it stopped
 * (docs/api.md, "Transfers"). The worst filter a list has: 5.3 ms uncached p50 on 2M transfers
 * when none of the 2,000 match (docs/performance.md).
 */
export const TRANSFER_SCAN_ROWS = 2_000;

/**
 * Block, time and cursor conditions on the negated keys the list indexes order by (db/schema/
 * transfers.ts), and the same bounds on block_number itself: those prune, at plan time, the
 * partitions outside them (a slice's, bySlice below), so a statement reads only its slice's.
 */
function range(f: TransferFilter): SQL {
  const c = [sql`true`];
  if (f.fromBlock !== undefined) c.push(sql`-block_number <= -${f.fromBlock}::bigint and block_number >= ${f.fromBlock}::bigint`);
  if (f.toBlock !== undefined) c.push(sql`-block_number >= -${f.toBlock}::bigint and block_number <= ${f.toBlock}::bigint`);
  if (f.before) c.push(sql`block_number <= ${f.before.blockNumber}::bigint`);
  if (f.fromTime !== undefined) c.push(sql`timestamp >= ${f.fromTime}::bigint`);
  if (f.toTime !== undefined) c.push(sql`timestamp <= ${f.toTime}::bigint`);
  if (f.before) c.push(sql`(-block_number, -event_index) > (-${f.before.blockNumber}::bigint, -${f.before.eventIndex}::integer)`);
  return sql.join(c, sql` and `);
}

/**
 * `f` with its time bounds made block bounds too (no transfer index holds times; blocks' does:
 * blockRangeOfTimes), intersected with fromBlock/toBlock; undefined when no block can match, so
 * that nothing need be read.
 */
export async function timesAsBlocks<F extends TransferFilter>(db: Database, f: F): Promise<F | undefined> {
  if (f.fromTime === undefined && f.toTime === undefined) return f;
  const r = await blockRangeOfTimes(db, f.fromTime, f.toTime);
  const fromBlock = Math.max(f.fromBlock ?? 0, r.fromBlock ?? 0);
  const toBlock = Math.min(f.toBlock ?? Number.MAX_SAFE_INTEGER, r.toBlock ?? Number.MAX_SAFE_INTEGER);
  return fromBlock > toBlock ? undefined : { ...f, fromBlock, toBlock };
}

const COLUMNS = sql.raw(
  "-block_number as nb, -event_index as ne, block_number as \"blockNumber\", event_index as \"eventIndex\", extrinsic_index as \"extrinsicIndex\", timestamp, token_id as \"tokenId\", lp_token_id as \"lpTokenId\", from_id as \"fromId\", to_id as \"toId\", amount::text as amount, kind, event, value_usd::text as \"valueUsd\", tip::text as tip",
);

/**
 * One index range per kind (only `f.kind`'s when given) of the rows `key` selects, each in the
 * list's order and at most `limit` long. Under an ORDER BY nb, ne LIMIT, Postgres merges them
 * (Merge Append): a page reads about `limit` rows plus one seek per kind, whatever the kind
 * filter matches. Each range has its own ORDER BY and LIMIT: a subquery with a WHERE is not
 * pulled into the merge, and without them it is planned as a whole-range read and sorted.
 */
function byKind(key: SQL, f: TransferFilter, limit: number): SQL {
  const kinds = f.kind === undefined ? TRANSFER_KINDS : [f.kind];
  const where = range(f);
  return sql.join(
    kinds.map((kind) => sql`(select ${COLUMNS} from transfers where ${key} and kind = ${kind} and ${where} order by nb, ne limit ${limit})`),
    sql` union all `,
  );
}

/** A row as read, its accounts still ids. */
type ReadTransfer = Omit<Transfer, "fromAccount" | "toAccount"> & { fromId: number | null; toId: number | null };

const toTransfer = (r: Record<string, unknown>): ReadTransfer => ({
  blockNumber: Number(r.blockNumber),
  eventIndex: Number(r.eventIndex),
  extrinsicIndex: r.extrinsicIndex === null ? null : Number(r.extrinsicIndex),
  timestamp: Number(r.timestamp),
  tokenId: r.tokenId === null ? null : Number(r.tokenId),
  lpTokenId: r.lpTokenId === null ? null : Number(r.lpTokenId),
  fromId: r.fromId === null ? null : Number(r.fromId),
  toId: r.toId === null ? null : Number(r.toId),
  amount: r.amount as string,
  kind: r.kind as Transfer["kind"],
  event: r.event as string,
  valueUsd: r.valueUsd as string | null,
  tip: r.tip as string | null,
});

/**
 * Reads a transfer list newest first, a block slice at a time (listSlices: the newest partition
 * first), `read` given `f` bounded to the slice; stops when `read` says the page is done. Rows of
 * a slice are all newer than the next slice's, so the slices' pages in turn are the list's page.
 * `read` is told too whether the list is sparse there: at the density of the rows `seen` so far
 * in the slices before, the slice would hold at most SWEEP_ROWS (never for the first slice). A
 * slice a bound cuts a partition of is never called sparse: its sweep could be planned reading
 * the cut partition by its primary key and sorting every row of the key in the others (seen at
 * 20M rows, a cursor 20 blocks into a partition: 1.2 s; docs/performance.md).
 */
async function bySlice(tx: Database, f: TransferFilter, seen: () => number, read: (f: TransferFilter, sparse: boolean) => Promise<boolean>): Promise<void> {
  const to = f.before === undefined ? f.toBlock : Math.min(f.toBlock ?? f.before.blockNumber, f.before.blockNumber);
  let blocks = 0;
  for (const s of await listSlices(tx, "transfers", f.fromBlock, to)) {
    if (await read({ ...f, fromBlock: s.from, toBlock: s.to }, s.whole && blocks > 0 && seen() * s.blocks <= SWEEP_ROWS * blocks)) return;
    blocks += s.blocks;
  }
}

/**
 * Rows of a key a slice's sweep (below) reads at most on each side before it gives way to the
 * per-kind merge: a sweep that finds more has read this many rows for nothing.
 */
export const SWEEP_ROWS = 100;

/**
 * The newest `limit` rows of the keys' (each a side of an account, or a token) in an unfiltered
 * slice, when no key has more than SWEEP_ROWS rows there; undefined when one has. Each key is one
 * index range per partition (its rows of every kind in the index's order, kind first: SWEEP_ROWS
 * + 1 at most), against one per kind and partition for the merge (byKind): on a list sparse
 * below its newest partition, where the walk looks through many partitions for few rows, the
 * index descents and the planning of a slice drop eightfold. Every row of the slice is read
 * (exact), sorted, and the page taken.
 */
async function sweepSlice(tx: Database, keys: SQL[], f: TransferFilter, limit: number): Promise<Array<Record<string, unknown>> | undefined> {
  const name = (i: number) => sql.raw(`s${i}`);
  const ranges = keys.map((key, i) => sql`${name(i)} as (select ${COLUMNS} from transfers where ${key} and ${range(f)} order by kind, nb, ne limit ${SWEEP_ROWS + 1})`);
  const over = sql.join(keys.map((_, i) => sql`(select count(*) from ${name(i)}) > ${SWEEP_ROWS}`), sql` or `);
  const rows = sql.join(keys.map((_, i) => sql`select * from ${name(i)}`), sql` union all `);
  const found = rowsOf<Record<string, unknown> & { over: boolean }>(
    await tx.execute(sql`
      with ${sql.join(ranges, sql`, `)}
      select *, ${over} as over from (select distinct on (nb, ne) * from (${rows}) u order by nb, ne limit ${limit}) p`),
  );
  return found.length > 0 && found[0]!.over ? undefined : found;
}

/** A token's (or an LP token's) transfers, newest first, `limit` rows at most: index ranges only. */
export async function tokenTransfers(db: Database, asset: TransferAsset, f: TransferFilter, limit: number): Promise<Transfer[]> {
  const key = asset.tokenId !== undefined ? sql`token_id = ${asset.tokenId}::bigint` : sql`lp_token_id = ${asset.lpTokenId}::bigint`;
  const found: ReadTransfer[] = [];
  return inListOrder(db, async (tx) => {
    await bySlice(tx, f, () => found.length, async (s, sparse) => {
      const left = limit - found.length;
      const swept = sparse && s.kind === undefined ? await sweepSlice(tx, [key], s, left) : undefined;
      found.push(...(swept ?? rowsOf<Record<string, unknown>>(await tx.execute(sql`select * from (${byKind(key, s, left)}) t order by nb, ne limit ${left}`))).map(toTransfer));
      return found.length >= limit;
    });
    return named(tx, found);
  });
}

/**
 * Whether the store knows LP token `id` at all: a pool's, or one its balances or transfers name
 * (an LP token outlives its pool in history). Index seeks only: pools' unique LP key, then
 * balance_history's key (lp, token_id, …).
 */
export async function lpTokenKnown(db: Database, id: number): Promise<boolean> {
  const [r] = rowsOf<{ known: boolean }>(
    await db.execute(sql`select exists (select 1 from pools where lp_token_id = ${id}::bigint) or exists (select 1 from balance_history where lp and token_id = ${id}::bigint) as known`),
  );
  return r?.known === true;
}

/** `rows` with their accounts' addresses (one lookup for the page). */
async function named(db: Database, rows: ReadTransfer[]): Promise<Transfer[]> {
  const address = await addressesOf(db, rows.flatMap((r) => [r.fromId, r.toId]));
  // An id with no address (account_ids edited or restored under a running writer: docs/operators.md)
  // fails the read rather than answering a transfer from or to no one.
  const name = (id: number | null) => {
    if (id === null) return null;
    const a = address.get(id);
    if (a === undefined) throw new Error(`transfers: account id ${id} names no address (account_ids is missing rows)`);
    return a;
  };
  return rows.map(({ fromId, toId, ...r }) => ({ ...r, fromAccount: name(fromId), toAccount: name(toId) }));
}

/**
 * The merged ranges of an account's sent and received rows (transfers_from_idx,
 * transfers_to_idx), each row once (a transfer to oneself is on both sides), newest first.
 */
function accountRows(account: number, direction: "in" | "out" | undefined, f: TransferFilter, limit: number): SQL {
  const ranges = accountSides(account, direction).map((side) => byKind(side, f, limit));
  return sql`select distinct on (nb, ne) * from (${sql.join(ranges, sql` union all `)}) t order by nb, ne limit ${limit}`;
}

/** The keys of an account's sides a list reads: sent (transfers_from_idx), received (transfers_to_idx), or both. */
function accountSides(account: number, direction: "in" | "out" | undefined): SQL[] {
  const sides = direction === "out" ? ["from_id"] : direction === "in" ? ["to_id"] : ["from_id", "to_id"];
  return sides.map((side) => sql`${sql.raw(side)} = ${account}::integer`);
}

export interface AccountTransfers {
  /** The page's rows, newest first, `limit` at most. */
  rows: Transfer[];
  /**
   * With an asset or counterparty filter, when the scan examined TRANSFER_SCAN_ROWS rows before
   * finding `limit` matches: the last row it examined (the next page starts below it).
   */
  stoppedAt?: TransferPosition;
}

/** The filters an account's list looks for among its rows (not in its index): a token or LP token, and the other side. */
export interface AccountScanFilter {
  asset?: TransferAsset | undefined;
  /** Only rows between the account and this address (either direction; itself: its self-transfers). */
  counterparty?: string | undefined;
}

/**
 * An account's transfers, newest first, `limit` rows at most. Direction, kind, blocks and cursor
 * are index ranges; a token or LP token filter (`asset`) and a counterparty are looked for among
 * at most `scanRows` of the account's rows from the cursor (TRANSFER_SCAN_ROWS): the account's
 * side indexes are read in order and each row's other id compared, so a counterparty the account
 * never dealt with costs what a token it never moved does, never a walk of the counterparty's
 * rows. `stoppedAt` says when that bound ended the page.
 */
export async function accountTransfers(db: Database, account: string, direction: "in" | "out" | undefined, f: TransferFilter & AccountScanFilter, limit: number, scanRows = TRANSFER_SCAN_ROWS): Promise<AccountTransfers> {
  const { asset, counterparty } = f;
  const found: ReadTransfer[] = [];
  if (asset === undefined && counterparty === undefined) {
    return inListOrder<AccountTransfers, number | string>(db, async (tx, known) => {
      if (known === null) return { rows: [] };
      const id = Number(known);
      await bySlice(tx, f, () => found.length, async (s, sparse) => {
        const left = limit - found.length;
        const swept = sparse && s.kind === undefined ? await sweepSlice(tx, accountSides(id, direction), s, left) : undefined;
        found.push(...(swept ?? rowsOf<Record<string, unknown>>(await tx.execute(accountRows(id, direction, s, left)))).map(toTransfer));
        return found.length >= limit;
      });
      return { rows: await named(tx, found) };
    }, accountIdQuery(account));
  }
  let scanned = 0;
  let stoppedAt: TransferPosition | undefined;
  const rows = await inListOrder<Transfer[], number | string>(db, async (tx, known) => {
    if (known === null) return [];
    const id = Number(known);
    // A counterparty with no id is in no row: nothing to read.
    const [cp] = counterparty === undefined ? [] : rowsOf<{ id: number | string | null }>(await tx.execute(sql`select ${accountIdQuery(counterparty)} as id`));
    const other = cp?.id == null ? undefined : Number(cp.id);
    if (counterparty !== undefined && other === undefined) return [];
    const match = scanMatch(id, asset, other);
    await bySlice(tx, f, () => scanned, async (s) => {
      // The matches among the slice's scanned rows, and (scanned not null) the last row scanned with the count.
      const rows = rowsOf<Record<string, unknown> & { scanned: number | string | null }>(
        await tx.execute(sql`
          with scan as (${accountRows(id, direction, s, scanRows - scanned)})
          (select *, null::integer as scanned from scan where ${match} order by nb, ne limit ${limit - found.length})
          union all
          (select *, (select count(*)::integer from scan) as scanned from scan order by nb desc, ne desc limit 1)`),
      );
      const tail = rows.find((r) => r.scanned !== null);
      found.push(...rows.filter((r) => r.scanned === null).map(toTransfer));
      scanned += tail === undefined ? 0 : Number(tail.scanned);
      if (found.length >= limit) return true;
      if (scanned < scanRows) return false;
      stoppedAt = { blockNumber: Number(tail!.blockNumber), eventIndex: Number(tail!.eventIndex) };
      return true;
    });
    return named(tx, found);
  }, accountIdQuery(account));
  return stoppedAt ? { rows, stoppedAt } : { rows };
}

/** The condition a scanned row of account `id` (a row of accountRows) must meet. */
function scanMatch(id: number, asset: TransferAsset | undefined, other: number | undefined): SQL {
  const c = [sql`true`];
  if (asset !== undefined) c.push(asset.tokenId !== undefined ? sql`"tokenId" = ${asset.tokenId}::bigint` : sql`"lpTokenId" = ${asset.lpTokenId}::bigint`);
  if (other !== undefined) c.push(sql`(("fromId" = ${id}::integer and "toId" = ${other}::integer) or ("toId" = ${id}::integer and "fromId" = ${other}::integer))`);
  return sql.join(c, sql` and `);
}

/**
 * Retention: transfers before block `before` are given up (`tokenpool prune-history --transfers`).
 * The "transfers" floor moves first, in its own transaction, so every list says where it is
 * complete from while rows go; then every partition wholly before it is dropped (db/queries/
 * partitions.ts), and only the rows of the partition `before` falls in are deleted, in batches
 * of `batch`, each its own transaction (no long lock on a table the indexer appends to).
 * `before` must be at most the follower's checkpoint. Running it again deletes nothing.
 */
export async function pruneTransfers(db: Database, before: number, batch = 50_000): Promise<{ partitions: number; dropped: number; deleted: number }> {
  const [cp] = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from checkpoints where name = 'follower'`));
  if (!cp || before > Number(cp.block_number)) throw new Error(`block ${before} is after the store's checkpoint (${cp ? cp.block_number : "none"}): transfers up to the newest block are kept`);
  await db.execute(sql`
    insert into history_floors (kind, block_number) values ('transfers', ${before}::bigint)
    on conflict (kind) do update set block_number = greatest(history_floors.block_number, excluded.block_number)`);
  const { partitions, rows: dropped } = await dropPartitionsBefore(db, "transfers", before);
  // The hashes of those blocks' extrinsics go with them (block_extrinsics: only transfers read them).
  await dropPartitionsBefore(db, "block_extrinsics", before);
  await db.execute(sql`delete from block_extrinsics where block_number < ${before}::bigint`);
  let deleted = 0;
  for (;;) {
    const [r] = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        with gone as (
          delete from transfers where block_number < ${before}::bigint and (block_number, event_index) in (
            select block_number, event_index from transfers where block_number < ${before}::bigint limit ${batch})
          returning 1
        ) select count(*) as n from gone`),
    );
    deleted += Number(r!.n);
    if (Number(r!.n) < batch) return { partitions, dropped, deleted };
  }
}

/** The first block transfer lists are complete from, when transfers were pruned; undefined when never. */
export async function transfersFloor(db: Database): Promise<number | undefined> {
  const [r] = rowsOf<{ block_number: string | number }>(await db.execute(sql`select block_number from history_floors where kind = 'transfers'`));
  return r === undefined ? undefined : Number(r.block_number);
}
