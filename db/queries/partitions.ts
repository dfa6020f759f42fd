/**
 * The history tables are partitioned by block range (migration 0023, docs/performance.md "A store
 * at a billion rows"): a partition per PARTITION_BLOCKS blocks, made by whoever inserts first,
 * and retention drops whole partitions.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";

/** The partitioned tables: every key of each holds block_number (a partition's key must). */
export const PARTITIONED_TABLES = ["transfers", "swaps", "balance_history", "token_history", "token_prices", "block_extrinsics"] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/**
 * Blocks a partition holds: the width fixed in ensure_block_partitions (migration 0023).
 * 1,000,000: 19 partitions for Polkadot Asset Hub's 18M blocks, 16 a year at 2-second blocks, so
 * a plan over every partition (a list's first page) merges tens, not thousands; and a partition
 * of transfers at Asset Hub's ~11 rows a block is ~11M rows, whose indexes stay in memory.
 */
export const PARTITION_BLOCKS = 1_000_000;

/**
 * Makes the partitions that `blocks` fall in, where missing, before rows at those blocks are
 * inserted (an insert with no partition for its row fails). One round trip, one entry per
 * partition: the server checks and makes them (ensure_block_partitions: concurrent makers of one
 * partition make it once). Safe inside the writer's transaction: a new partition is attached,
 * which leaves the table's readers and writers running.
 */
export async function ensurePartitions(db: Database, table: PartitionedTable, blocks: Iterable<number>): Promise<void> {
  const starts = new Set<number>();
  for (const b of blocks) starts.add(b - (b % PARTITION_BLOCKS));
  if (starts.size === 0) return;
  await db.execute(sql`select ensure_block_partitions(${table}::regclass, ${`{${[...starts].join(",")}}`}::bigint[])`);
}

/** The partitions of every table for blocks `from` to `to`: before rows of a range are filled in SQL (benches, tests). */
export async function ensurePartitionsBetween(db: Database, from: number, to: number): Promise<void> {
  const blocks: number[] = [];
  for (let b = from - (from % PARTITION_BLOCKS); b <= to; b += PARTITION_BLOCKS) blocks.push(b);
  for (const table of PARTITIONED_TABLES) await ensurePartitions(db, table, blocks);
}

export interface Partition {
  name: string;
  /** The first block it holds. */
  from: number;
  /** The first block after it. */
  to: number;
}

/** The partitions of `table`, oldest first. */
export async function partitionsOf(db: Database, table: PartitionedTable): Promise<Partition[]> {
  const rows = rowsOf<{ name: string; bound: string }>(
    await db.execute(sql`
      select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${table}::regclass`),
  );
  return rows
    .map((r) => {
      const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
      if (!m) throw new Error(`partition ${r.name} of ${table} has bounds ${r.bound}: not a block range`);
      return { name: r.name, from: Number(m[1]), to: Number(m[2]) };
    })
    .sort((a, b) => a.from - b.from);
}

/**
 * How long a store handle's reads reuse the partitions they last read (listSlices). Any list of
 * partitions gives exact pages: the slices are contiguous and open at both ends, so a partition
 * made since (a million blocks later) is read with the newest one in the first slice, and one
 * dropped since is a range with no rows. Only the statements a page takes depend on it. A new
 * partition comes once per 1,000,000 blocks; the catalog read is a round trip of every list (≈ 1 ms
 * of a page's 5–10 at 20M rows, issue 40).
 */
export const PARTITIONS_KEPT_MS = 10_000;

const known = new WeakMap<object, Map<PartitionedTable, { at: number; parts: Promise<Partition[]> }>>();
/** A transaction's store handle (the handle `readsOf` was given), so that its lists share one cache. */
const handles = new WeakMap<object, object>();

/** Marks `tx`, a transaction opened on `db`, as reading `db`'s store: listSlices inside it uses `db`'s partitions. */
export function readsOf(tx: Database, db: Database): void {
  handles.set(tx, handles.get(db) ?? db);
}

/** The partitions of `table`, oldest first, as read at most PARTITIONS_KEPT_MS ago through the same store handle. */
async function knownPartitions(db: Database, table: PartitionedTable): Promise<Partition[]> {
  const handle = handles.get(db) ?? db;
  let tables = known.get(handle);
  if (tables === undefined) known.set(handle, (tables = new Map()));
  const kept = tables.get(table);
  if (kept !== undefined && performance.now() - kept.at < PARTITIONS_KEPT_MS) return kept.parts;
  // Read with `db` itself (the caller's transaction); a failed read is not kept.
  const entry = { at: performance.now(), parts: partitionsOf(db, table) };
  tables.set(table, entry);
  entry.parts.catch(() => tables.get(table) === entry && tables.delete(table));
  return entry.parts;
}

/** Blocks [from, to]; an end undefined is open. */
export interface BlockBounds {
  from: number | undefined;
  to: number | undefined;
}

/** Blocks a newest-first list reads in one statement. */
export interface BlockSlice extends BlockBounds {
  /** How many blocks of its partitions the slice covers (an open end counts the partition's whole width). */
  blocks: number;
  /** No bound cuts any of its partitions. */
  whole: boolean;
}

/**
 * The block ranges a newest-first list of `table` within [from, to] reads, one statement each,
 * newest first: the newest partition alone, then the next 2, 4, 8… Each statement is pruned at
 * plan time to its slice's partitions, so a page that fills in the newest plans and walks one
 * partition's index ranges; one statement over every partition is planned, and its merge started,
 * on all of them (227 ms at 22 partitions; docs/performance.md), and a list that is sparse takes
 * at most log2(partitions) + 1 statements. The slices are contiguous, the first open above
 * `to`'s side and the last below: every row is in exactly one of them, whatever partitions were
 * made or dropped since the catalog was read (that costs only a statement more or less).
 */
export async function listSlices(db: Database, table: PartitionedTable, from?: number, to?: number): Promise<BlockSlice[]> {
  const parts = (await knownPartitions(db, table)).filter((p) => (to === undefined || p.from <= to) && (from === undefined || p.to > from)).reverse();
  const covered = (p: Partition) => Math.min(p.to - 1, to ?? Infinity) - Math.max(p.from, from ?? -Infinity) + 1;
  const slices: BlockSlice[] = [];
  let upper = to;
  for (let i = 0, n = 1; i < parts.length; i += n, n *= 2) {
    const taken = parts.slice(i, i + n);
    const oldest = taken[taken.length - 1]!;
    const blocks = taken.reduce((sum, p) => sum + covered(p), 0);
    slices.push({ from: i + n >= parts.length ? from : oldest.from, to: upper, blocks, whole: blocks === taken.length * PARTITION_BLOCKS });
    upper = oldest.from - 1;
  }
  return slices.length > 0 ? slices : [{ from, to, blocks: PARTITION_BLOCKS, whole: false }];
}

/**
 * How long prune-history's statements may wait for a lock (its handle's lock_timeout): a detach
 * waits for every transaction using the table and for the SHARE UPDATE EXCLUSIVE lock a writer
 * holds until it commits once it has made a partition, and while it waits for that lock, writers
 * making partitions queue behind it. A minute covers the indexer's batches and the API's reads.
 */
export const PRUNE_LOCK_TIMEOUT_MS = 60_000;

/** A detach or drop of retention waited past lock_timeout: nothing is lost, and running it again finishes the work. */
export class PartitionLockTimeoutError extends Error {
  /** Running prune-history again, once the sessions named have ended, completes it. */
  readonly retryable = true;
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "PartitionLockTimeoutError";
  }
}

/** lock_not_available: lock_timeout, anywhere in `err`'s causes (drizzle wraps the driver's error). */
function lockTimedOut(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && typeof e === "object" && i < 5; e = e.cause as typeof e, i++) if (e.code === "55P03") return true;
  return false;
}

/** `statement` of retention on `part`, its lock timeout said as what to do, naming the sessions that held `table`. */
async function retentionStep(db: Database, table: PartitionedTable, part: string, statement: string): Promise<unknown> {
  try {
    return await db.execute(sql.raw(statement));
  } catch (err) {
    if (!lockTimedOut(err)) throw err;
    const [{ waited } = { waited: "lock_timeout" }] = rowsOf<{ waited: string }>(await db.execute(sql`select current_setting('lock_timeout') as waited`));
    const holders = rowsOf<{ pid: number; state: string | null; since: string | null; query: string | null }>(
      await db.execute(sql`
        select a.pid, a.state, a.xact_start::text as since, left(btrim(regexp_replace(a.query, '[[:space:]]+', ' ', 'g')), 60) as query from pg_stat_activity a
        where a.pid <> pg_backend_pid() and a.pid in (select l.pid from pg_locks l where l.database = (select oid from pg_database where datname = current_database()) and l.relation = ${table}::regclass and l.granted)
        order by a.xact_start limit 3`),
    );
    const who = holders.map((h) => `pid ${h.pid} (${h.state ?? "?"}, in a transaction since ${h.since ?? "?"}: ${JSON.stringify(h.query ?? "")})`).join(", ");
    throw new PartitionLockTimeoutError(
      `prune-history waited ${waited} (lock_timeout) to detach or drop ${part} of ${table}${who ? `, behind ${who}` : ""}: nothing was lost. ` +
        `Run tokenpool prune-history again once those transactions end (it first finishes a partition left half-detached); if it recurs, end the long transaction or prune at a quieter time.`,
      { cause: err },
    );
  }
}

/**
 * Drops the partitions of `table` that hold only blocks before `before`; returns how many, and
 * the rows they held (counted: a read of each, far less than deleting its rows). Each is
 * detached CONCURRENTLY first, which waits for the table's running reads
 * instead of stopping new ones (a DROP would hold ACCESS EXCLUSIVE on the whole table until
 * every read of it ends); one left half detached by an interrupted run is finished first. A
 * wait past the connection's lock_timeout (PRUNE_LOCK_TIMEOUT_MS from prune-history) throws
 * PartitionLockTimeoutError: without one it waited as long as the oldest transaction on the table.
 */
export async function dropPartitionsBefore(db: Database, table: PartitionedTable, before: number): Promise<{ partitions: number; rows: number }> {
  const pending = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass and i.inhdetachpending`),
  );
  for (const p of pending) await retentionStep(db, table, p.name, `alter table "${table}" detach partition "${p.name}" finalize`);
  const gone = (await partitionsOf(db, table)).filter((p) => p.to <= before);
  let rows = 0;
  for (const p of gone) {
    const [count] = rowsOf<{ n: string | number }>(await retentionStep(db, table, p.name, `select count(*) as n from "${p.name}"`));
    await retentionStep(db, table, p.name, `alter table "${table}" detach partition "${p.name}" concurrently`);
    await retentionStep(db, table, p.name, `drop table "${p.name}"`);
    rows += Number(count!.n);
  }
  for (const p of pending) await retentionStep(db, table, p.name, `drop table if exists "${p.name}"`);
  // A run killed between its detach and its drop left the partition a table of its own: no
  // longer the parent's (a later run would not see it), and its name stops its range being made again.
  const left = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c
      where c.relnamespace = (select relnamespace from pg_class where oid = ${table}::regclass) and c.relkind = 'r'
        and c.relname ~ ${`^${table}_p[0-9]+$`} and not exists (select 1 from pg_inherits i where i.inhrelid = c.oid)`),
  ).filter((t) => (Number(t.name.slice(table.length + 2)) + 1) * PARTITION_BLOCKS <= before);
  for (const t of left) await retentionStep(db, table, t.name, `drop table "${t.name}"`);
  return { partitions: gone.length + left.length, rows };
}
