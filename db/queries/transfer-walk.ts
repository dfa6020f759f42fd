/**
 * The walk of a transfer list through the table's block partitions, newest first: a filter's
 * bounds as index ranges (per kind, merged by Postgres), the slices in turn, a sweep of a sparse
 * slice instead of the per-kind merge, and the rows read with their accounts' addresses. The
 * lists themselves (a token's, an account's) are in transfers.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import type { transfers } from "../schema/index.js";
import { TRANSFER_KINDS, transferKindCode, transferKindOf, type TransferKind } from "../schema/transfers.js";
import { addressesOf } from "./account-ids.js";
import { blockRangeOfTimes } from "./chain.js";
import { listSlices } from "./partitions.js";

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

/**
 * Block, time and cursor conditions on the negated keys the list indexes order by (db/schema/
 * transfers.ts), and the same bounds on block_number itself: those prune, at plan time, the
 * partitions outside them (a slice's, bySlice below), so a statement reads only its slice's.
 */
export function range(f: TransferFilter): SQL {
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
export function byKind(key: SQL, f: TransferFilter, limit: number): SQL {
  const kinds = f.kind === undefined ? TRANSFER_KINDS : [f.kind];
  const where = range(f);
  return sql.join(
    kinds.map((kind) => sql`(select ${COLUMNS} from transfers where ${key} and kind = ${transferKindCode(kind)}::smallint and ${where} order by nb, ne limit ${limit})`),
    sql` union all `,
  );
}

/** A row as read, its accounts still ids. */
export type ReadTransfer = Omit<Transfer, "fromAccount" | "toAccount"> & { fromId: number | null; toId: number | null };

export const toTransfer = (r: Record<string, unknown>): ReadTransfer => ({
  blockNumber: Number(r.blockNumber),
  eventIndex: Number(r.eventIndex),
  extrinsicIndex: r.extrinsicIndex === null ? null : Number(r.extrinsicIndex),
  timestamp: Number(r.timestamp),
  tokenId: r.tokenId === null ? null : Number(r.tokenId),
  lpTokenId: r.lpTokenId === null ? null : Number(r.lpTokenId),
  fromId: r.fromId === null ? null : Number(r.fromId),
  toId: r.toId === null ? null : Number(r.toId),
  amount: r.amount as string,
  kind: transferKindOf(r.kind as number),
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
export async function bySlice(tx: Database, f: TransferFilter, seen: () => number, read: (f: TransferFilter, sparse: boolean) => Promise<boolean>): Promise<void> {
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
export async function sweepSlice(tx: Database, keys: SQL[], f: TransferFilter, limit: number): Promise<Array<Record<string, unknown>> | undefined> {
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

/** `rows` with their accounts' addresses (one lookup for the page). */
export async function named(db: Database, rows: ReadTransfer[]): Promise<Transfer[]> {
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
