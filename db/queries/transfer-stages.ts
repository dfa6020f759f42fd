/**
 * The bulk path of a backfill (issue 40, docs/performance.md "The bulk path in the backfill"):
 * a partition of transfers that holds nothing yet, and of which a run loads many blocks, is
 * loaded as a table without indexes (a stage, `transfers_s<N>`). Row by row, each transfer costs
 * five B-tree descents (the primary key twice under ON CONFLICT, the list indexes) and two
 * writers top out at ~74k rows/s on 2 cores; into a table without indexes they append, and the
 * five indexes are then built once, each a sort. When completed chunks cover the blocks the run
 * asked for, whichever worker completes the last one builds them, and the stage is attached as
 * the partition `transfers_p<N>` (a range check first: the attach scans nothing and adopts the
 * indexes).
 *
 * What keeps it exact:
 * - No row is visible before the attach, so no block of a stage counts as held (event_ranges)
 *   before it either: the attach records the completed chunks' blocks in the same transaction.
 * - A stage has no key, so a chunk run twice (a retry after a failed batch, a job taken over
 *   from a stalled worker) appends its rows twice. The unique index then fails to build, and the
 *   duplicates are removed (a sort of the stage, once; the same block and event give the same
 *   row) before it is built again.
 * - A chunk that loaded into a stage attached meanwhile (its completion came after the attach)
 *   has its rows in the partition (the table was renamed) and records its own coverage when it
 *   completes; a batch of it still loading then fails (the stage's name is gone) and the chunk's
 *   retry goes row by row into the partition. A stage whose partition was made row by row
 *   meanwhile (a run of the per-row path over the same range) is merged into it with ON
 *   CONFLICT instead of attached.
 * - The attach is one transaction with the chunk's completion: a crash rolls it back whole, and
 *   the next chunk's completion or run (finishStages) does it again.
 */
import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../database.js";
import { markChunkDone } from "./chain.js";
import { recordEventRanges, type BlockRange } from "./coverage.js";
import { PARTITION_BLOCKS } from "./partitions.js";
import { copyRows, postgresClient } from "../copy.js";
import { TRANSFER_COLUMN_NAMES, TRANSFER_COLUMNS, transferCopyRow, unnestTransfers, type NewTransfer } from "./transfer-writes.js";

/** Blocks of one partition a run must ask for before its transfers go through a stage (`tokenpool backfill --bulk-min-blocks`). */
export const BULK_MIN_BLOCKS = 100_000;

export const partitionStartOf = (block: number): number => block - (block % PARTITION_BLOCKS);
export const stageTable = (start: number): string => `transfers_s${start / PARTITION_BLOCKS}`;
const partitionTable = (start: number): string => `transfers_p${start / PARTITION_BLOCKS}`;

interface StageRow {
  start: number;
  from: number;
  to: number;
  state: string;
  createdAt: string;
}

type Num = string | number;

/** Serializes planStages across runs (a transaction-scoped advisory lock). */
const PLAN_LOCK_KEY = 7_262_029;

/**
 * Opens a stage for each partition of transfers of which `chunks` (a run's chunks to do, each
 * within one partition) ask for at least `minBlocks` blocks, that does not exist and of which the
 * store holds no block's events: its table, and its row with the blocks this run asks for (a run
 * planning an open stage again sets them: the blocks an abandoned run asked for are not waited
 * for). Returns the partitions staged, oldest first. `minBlocks` 0: none.
 */
export async function planStages(db: Database, chunks: { from: number; to: number }[], minBlocks = BULK_MIN_BLOCKS): Promise<number[]> {
  if (minBlocks <= 0) return [];
  const asked = new Map<number, { from: number; to: number; blocks: number }>();
  for (const c of chunks) {
    const start = partitionStartOf(c.from);
    if (partitionStartOf(c.to) !== start) continue;
    const a = asked.get(start);
    if (a) Object.assign(a, { from: Math.min(a.from, c.from), to: Math.max(a.to, c.to), blocks: a.blocks + c.to - c.from + 1 });
    else asked.set(start, { from: c.from, to: c.to, blocks: c.to - c.from + 1 });
  }
  const staged: number[] = [];
  for (const [start, a] of [...asked].sort((x, y) => x[0] - y[0])) {
    if (a.blocks < minBlocks) continue;
    const [held] = rowsOf<{ part: string | null; events: boolean }>(
      await db.execute(sql`select to_regclass(${partitionTable(start)}) as part,
        exists (select 1 from event_ranges where to_block >= ${start}::bigint and from_block < ${start + PARTITION_BLOCKS}::bigint) as events`),
    );
    if (held?.part != null || held?.events) continue;
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      // Planners one at a time (not a lock on the table: a finisher updates its row): a stage's table
      // is made afresh only when no stage of it is loading, never dropped under a run that planned
      // it a moment before.
      await t.execute(sql`select pg_advisory_xact_lock(${PLAN_LOCK_KEY})`);
      const [open] = rowsOf<{ n: Num }>(await t.execute(sql`select 1 as n from transfer_stages where partition_start = ${start} and state = 'loading'`));
      // A table without a loading stage is a leftover (the indexed data reset under it: a devnet
      // started again): its rows belong to no stage, and would be attached with the next one's.
      if (!open) await t.execute(sql.raw(`drop table if exists ${stageTable(start)}`));
      await t.execute(sql.raw(`create table if not exists ${stageTable(start)} (like transfers including defaults)`));
      // A stage found attached whose partition is gone (retention dropped it) starts again.
      await t.execute(sql`
        insert into transfer_stages (partition_start, from_block, to_block) values (${start}, ${a.from}, ${a.to})
        on conflict (partition_start) do update set from_block = excluded.from_block, to_block = excluded.to_block, state = 'loading', attached_at = null,
          blocks_done = case when transfer_stages.state = 'loading' then transfer_stages.blocks_done else 0 end,
          created_at = case when transfer_stages.state = 'loading' then transfer_stages.created_at else now() end`);
    });
    staged.push(start);
  }
  return staged;
}

/** The stage a chunk's transfers go to: the loading stage of its partition, if any (undefined: the per-row path). */
export async function stageFor(db: Database, range: { from: number; to: number }): Promise<string | undefined> {
  const start = partitionStartOf(range.from);
  if (partitionStartOf(range.to) !== start) return undefined;
  const [row] = rowsOf<{ n: Num }>(await db.execute(sql`select 1 as n from transfer_stages where partition_start = ${start} and state = 'loading'`));
  return row ? stageTable(start) : undefined;
}

/**
 * Appends transfer rows to a stage: no partition to make, no key to check (duplicates go at the
 * attach). On Postgres one COPY (db/copy.ts: ≈ 1.45× an insert from unnest into a table without
 * indexes); on PGlite, which has no COPY from a client's stream, inserts of 2,000 rows.
 */
export async function insertStagedTransfers(db: Database, stage: string, rows: NewTransfer[], ids: Map<string, number>): Promise<void> {
  if (rows.length === 0) return;
  const client = postgresClient(db);
  if (client) return copyRows(client, stage, TRANSFER_COLUMN_NAMES, rows.map((r) => transferCopyRow(r, ids)));
  for (let i = 0; i < rows.length; i += 2_000) await db.execute(sql`insert into ${sql.raw(stage)} ${TRANSFER_COLUMNS} ${unnestTransfers(rows.slice(i, i + 2_000), ids)}`);
}

/** How a stage ended: attached as the partition, or merged into one made meanwhile; seconds of its steps. */
export interface StageFinish {
  partitionStart: number;
  how: "attached" | "merged";
  rows: number;
  duplicates: number;
  indexSeconds: number;
  attachSeconds: number;
  /** What the index builds sorted in. */
  maintenanceWorkMem: string;
}

/**
 * A chunk is complete: marked done, and when it loaded a stage (`staged`), in one transaction with
 * the stage's row locked: if the stage was attached meanwhile, the chunk's blocks are recorded as
 * held; if completed chunks now cover the stage's blocks, the stage is finished (its indexes
 * built, attached, its chunks' blocks recorded). Completions of one stage wait for each other.
 */
export async function completeChunk(
  db: Database,
  chunk: { fromBlock: number; toBlock: number; swaps: number },
  staged: boolean,
  /** The index builds' sort memory (a size such as 1GB), when not the store's maintenance_work_mem (the bench). */
  sortMemory?: string,
): Promise<StageFinish | undefined> {
  if (!staged) {
    await markChunkDone(db, chunk);
    return undefined;
  }
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await markChunkDone(t, chunk);
    const row = await lockStage(t, partitionStartOf(chunk.fromBlock));
    // Attached meanwhile: the chunk's rows went into the partition (the table renamed under it).
    // No stage at all (the indexed data reset under it): its rows went nowhere that is read, and
    // nothing is recorded.
    if (row?.state === "attached") await recordEventRanges(t, [{ fromBlock: chunk.fromBlock, toBlock: chunk.toBlock }]);
    if (row?.state !== "loading") return undefined;
    // Counted first: reading every completed chunk of the partition at each completion would be
    // quadratic in its chunks (10,000 of them at --chunk 100).
    const [counted] = rowsOf<{ n: Num }>(
      await t.execute(sql`update transfer_stages set blocks_done = blocks_done + ${chunk.toBlock - chunk.fromBlock + 1} where partition_start = ${row.start} returning blocks_done as n`),
    );
    if (Number(counted!.n) < row.to - row.from + 1) return undefined;
    return (await covered(t, row)) ? finish(t, row, sortMemory) : undefined;
  });
}

/** Finishes every loading stage that completed chunks cover (one whose last completion crashed): at a run's start and end. */
export async function finishStages(db: Database): Promise<StageFinish[]> {
  const starts = rowsOf<{ start: Num }>(await db.execute(sql`select partition_start as start from transfer_stages where state = 'loading' order by 1`));
  const done: StageFinish[] = [];
  for (const { start } of starts) {
    const f = await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      const row = await lockStage(t, Number(start));
      return row?.state === "loading" && (await covered(t, row)) ? finish(t, row) : undefined;
    });
    if (f) done.push(f);
  }
  return done;
}

/**
 * Retention (pruneTransfers): the stages of partitions wholly before `before` are dropped, their
 * table and row, as the partitions are: attached later, they would bring back given-up rows.
 */
export async function dropStagesBefore(db: Database, before: number): Promise<number> {
  const gone = rowsOf<{ start: Num }>(
    await db.execute(sql`delete from transfer_stages where state = 'loading' and partition_start + ${PARTITION_BLOCKS}::bigint <= ${before}::bigint returning partition_start as start`),
  );
  for (const { start } of gone) await db.execute(sql.raw(`drop table if exists ${stageTable(Number(start))}`));
  return gone.length;
}

/** Stages still loading: their partition and blocks, for status. */
export async function loadingStages(db: Database): Promise<{ partitionStart: number; fromBlock: number; toBlock: number }[]> {
  const rows = rowsOf<{ start: Num; from: Num; to: Num }>(
    await db.execute(sql`select partition_start as start, from_block as "from", to_block as "to" from transfer_stages where state = 'loading' order by 1`),
  );
  return rows.map((r) => ({ partitionStart: Number(r.start), fromBlock: Number(r.from), toBlock: Number(r.to) }));
}

async function lockStage(t: Database, start: number): Promise<StageRow | undefined> {
  const [r] = rowsOf<{ start: Num; from: Num; to: Num; state: string; created: string }>(
    await t.execute(sql`select partition_start as start, from_block as "from", to_block as "to", state, created_at::text as created
      from transfer_stages where partition_start = ${start} for update`),
  );
  return r && { start: Number(r.start), from: Number(r.from), to: Number(r.to), state: r.state, createdAt: r.created };
}

/** Completed chunks of the stage's partition, done since it was opened, merged into runs of blocks. */
async function stageChunks(t: Database, row: StageRow, from: number, to: number): Promise<BlockRange[]> {
  const rows = rowsOf<{ from: Num; to: Num }>(
    await t.execute(sql`select from_block as "from", to_block as "to" from backfill_chunks
      where from_block >= ${from}::bigint and to_block <= ${to}::bigint and completed_at >= ${row.createdAt}::timestamptz order by from_block`),
  );
  const runs: BlockRange[] = [];
  for (const r of rows) {
    const [a, b] = [Number(r.from), Number(r.to)];
    const last = runs[runs.length - 1];
    if (last && a <= last.toBlock + 1) last.toBlock = Math.max(last.toBlock, b);
    else runs.push({ fromBlock: a, toBlock: b });
  }
  return runs;
}

/** Whether completed chunks cover every block the stage was asked for. */
async function covered(t: Database, row: StageRow): Promise<boolean> {
  const runs = await stageChunks(t, row, row.from, row.to);
  return runs.length === 1 && runs[0]!.fromBlock <= row.from && runs[0]!.toBlock >= row.to;
}

/** unique_violation anywhere in `err`'s causes (drizzle wraps the driver's error). */
function duplicateKey(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && typeof e === "object" && i < 5; e = e.cause as typeof e, i++) if (e.code === "23505") return true;
  return false;
}

async function finish(t: Database, row: StageRow, sortMemory?: string): Promise<StageFinish> {
  const stage = stageTable(row.start);
  const part = partitionTable(row.start);
  // An index build of ~10M rows takes tens of seconds: no statement timeout of the role cuts it,
  // and no short lock_timeout throws them away at the attach (which waits for a writer's
  // transaction that made a partition, a DETACH, an ANALYZE); past 10 minutes it is retried.
  await t.execute(sql`set local statement_timeout = 0`);
  await t.execute(sql`set local lock_timeout = '10min'`);
  if (sortMemory !== undefined) {
    if (!/^\d+(kB|MB|GB)$/.test(sortMemory)) throw new Error(`sort memory: a size such as 64MB or 1GB, not "${sortMemory}"`);
    await t.execute(sql.raw(`set local maintenance_work_mem = '${sortMemory}'`));
  }
  // Nothing more is appended to it from here on (a job taken over, a chunk outside the blocks asked
  // for): the savepoint of the index builds below, rolled back on a duplicate, would release the
  // builds' lock, and rows appended then (a duplicate again) would fail the second build.
  await t.execute(sql.raw(`lock table ${stage} in share mode`));
  const [counted] = rowsOf<{ n: Num }>(await t.execute(sql.raw(`select count(*) as n from ${stage}`)));
  const rows = Number(counted!.n);
  const partitionExists = async () => rowsOf<{ part: string | null }>(await t.execute(sql`select to_regclass(${part}) as part`))[0]?.part != null;
  // Made row by row meanwhile: its rows and the stage's are merged under its key.
  // By name, the stage's columns that the table still has: the stage was made LIKE the table when
  // it was opened, and a migration since may have changed the table but not the stage.
  const columns = rowsOf<{ name: string }>(
    await t.execute(sql`select s.attname as name from pg_attribute s join pg_attribute p on p.attname = s.attname and p.attrelid = 'transfers'::regclass and not p.attisdropped
      where s.attrelid = ${stage}::regclass and s.attnum > 0 and not s.attisdropped order by s.attnum`),
  ).map((r) => `"${r.name}"`).join(", ");
  const merge = async () => {
    await t.execute(sql`select ensure_block_partitions('transfers'::regclass, ${`{${row.start}}`}::bigint[])`);
    await t.execute(sql.raw(`insert into transfers (${columns}) select ${columns} from ${stage} on conflict (block_number, event_index) do nothing`));
    await t.execute(sql.raw(`drop table ${stage}`));
  };
  // A table changed since the stage was opened (a migration of transfers while it loaded) cannot
  // take it as a partition: its rows are merged instead, by name, slower but whatever changed.
  const [alike] = rowsOf<{ same: boolean }>(
    await t.execute(sql`select (select array_agg((attname, atttypid, atttypmod, attnotnull)::text order by attname) from pg_attribute where attrelid = 'transfers'::regclass and attnum > 0 and not attisdropped)
      = (select array_agg((attname, atttypid, atttypmod, attnotnull)::text order by attname) from pg_attribute where attrelid = ${stage}::regclass and attnum > 0 and not attisdropped) as same`),
  );
  let how: StageFinish["how"];
  let duplicates = 0;
  let indexSeconds = 0;
  let attachSeconds = 0;
  if (!alike?.same || (await partitionExists())) {
    const started = performance.now();
    await merge();
    attachSeconds = (performance.now() - started) / 1_000;
    how = "merged";
  } else {
    let started = performance.now();
    const defs = rowsOf<{ name: string; def: string; primary: boolean }>(
      await t.execute(sql`select c.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indisprimary as primary
        from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'transfers'::regclass order by c.relname`),
    );
    // The primary key's first: a stage loaded twice fails there, before the other four are built.
    const { builds, after } = indexStatements([...defs.filter((d) => d.primary), ...defs.filter((d) => !d.primary)], stage);
    try {
      await t.transaction(async (sp) => {
        for (const s of builds) await sp.execute(sql.raw(s));
      });
    } catch (err) {
      if (!duplicateKey(err)) throw err;
      // A chunk loaded twice: keep one of each (block, event); the rows are the same.
      await t.execute(sql.raw(`delete from ${stage} s using (select ctid as id from (select ctid, row_number() over (partition by block_number, event_index order by ctid) as n from ${stage}) x where x.n > 1) d where s.ctid = d.id`));
      duplicates = rows - Number(rowsOf<{ n: Num }>(await t.execute(sql.raw(`select count(*) as n from ${stage}`)))[0]!.n);
      for (const s of builds) await t.execute(sql.raw(s));
    }
    for (const s of after) await t.execute(sql.raw(s));
    indexSeconds = (performance.now() - started) / 1_000;
    started = performance.now();
    // The lock the attach takes, taken first: a writer that made the partition while the indexes
    // were built (its transaction held this lock) has committed it now, and the stage is merged
    // into it instead (an attach would fail on the overlap, and the chunk be run again).
    await t.execute(sql`lock table only transfers in share update exclusive mode`);
    if (await partitionExists()) {
      await merge();
      how = "merged";
    } else {
      const [lo, hi] = [row.start, row.start + PARTITION_BLOCKS];
      await t.execute(sql.raw(`alter table ${stage} add constraint ${stage}_range check (block_number >= ${lo} and block_number < ${hi})`));
      await t.execute(sql.raw(`alter table transfers attach partition ${stage} for values from (${lo}) to (${hi})`));
      // The partition's bound says it from now on; the partitions made by ensure_block_partitions have no CHECK either.
      await t.execute(sql.raw(`alter table ${stage} drop constraint ${stage}_range`));
      await t.execute(sql.raw(`alter table ${stage} rename to ${part}`));
      how = "attached";
    }
    attachSeconds = (performance.now() - started) / 1_000;
  }
  await t.execute(sql`update transfer_stages set state = 'attached', attached_at = now() where partition_start = ${row.start}`);
  // Last: it takes the event ranges' lock (recordEventRanges).
  await recordEventRanges(t, await stageChunks(t, row, row.start, row.start + PARTITION_BLOCKS - 1));
  const [{ memory } = { memory: "" }] = rowsOf<{ memory: string }>(await t.execute(sql`select current_setting('maintenance_work_mem') as memory`));
  return { partitionStart: row.start, how, rows: rows - duplicates, duplicates, indexSeconds, attachSeconds, maintenanceWorkMem: memory };
}

/**
 * The partitioned table's index definitions (`defs`, from pg_index), on `table`: each built under
 * a name of its own (`builds`), then the primary key's index made the table's primary key
 * (`after`: an attach adopts a unique index for the parent's key only from a constraint).
 */
export function indexStatements(defs: { name: string; def: string; primary: boolean }[], table: string): { builds: string[]; after: string[]; names: string[] } {
  const builds: string[] = [];
  const after: string[] = [];
  const names: string[] = [];
  defs.forEach(({ def, primary }, i) => {
    const on = /^CREATE (UNIQUE )?INDEX \S+ ON (?:ONLY )?\S+ USING btree (\(.*?\))(?: WHERE (.*))?$/.exec(def);
    if (!on || / INCLUDE /.test(on[2]!)) throw new Error(`transfer stage: an index definition the bulk path cannot rebuild: ${def}`);
    const name = `${table}_i${i}`;
    builds.push(`CREATE ${on[1] ?? ""}INDEX ${name} ON ${table} USING btree ${on[2]}${on[3] ? ` WHERE ${on[3]}` : ""}`);
    if (primary) after.push(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY USING INDEX ${name}`);
    names.push(primary ? `${table}_pkey` : name);
  });
  return { builds, after, names };
}
