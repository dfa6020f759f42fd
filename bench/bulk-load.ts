/**
 * A diagnostic of issue 40, without a target: how fast the store takes transfer rows when a
 * partition's indexes are built once instead of row by row. Rows inserted one by one cost five
 * B-tree descents each (the primary key twice under `on conflict`, the list indexes) and on 2
 * cores they are the ceiling (bench/ledger.ts). Here a partition's rows go, by two writers as the
 * indexer writes, into a table without indexes; its five indexes are then built from the rows
 * (a sort each, two at a time on two connections) as the partitioned table defines them, and the
 * table is attached as the partition (a range check first, so the attach scans nothing and
 * adopts the indexes instead of building them again). The rows are then read back through
 * `transfers` and the partition dropped. The rate is rows over the whole: load, indexes, attach.
 */
import { sql } from "drizzle-orm";
import { PARTITION_BLOCKS, rowsOf, TRANSFER_COLUMNS, unnestTransfers, type DbHandle } from "../db/index.js";
import { benchTransfers, writeAsIndexer } from "./transfer-rows.js";

/** Far above every other row of the bench (the fill from block 1,000, the ingestion runs from 1,000,000,000). */
const FIRST_BLOCK = 2_000_000_000;
const TABLE = "transfers_bulk_bench";

export interface BulkLoad {
  rows: number;
  /** Seconds: the two writers' load, the five indexes, the range check and the attach. */
  loadS: number;
  indexS: number;
  attachS: number;
  /** Rows over the whole, and the load alone. */
  rowsPerSecond: number;
  loadRowsPerSecond: number;
  /** What each index build sorted in: BENCH_MAINTENANCE_WORK_MEM, or the store's maintenance_work_mem. */
  maintenanceWorkMem: string;
  countsExact: boolean;
  /** Whether the attach adopted every index built here (none built again). */
  indexesAdopted: boolean;
}

/**
 * The partition's index definitions as the partitioned table has them, on `table`: each built
 * under a name of its own (`builds`, two at a time), then the primary key's index made the
 * table's primary key (`after`: an attach adopts a unique index for the parent's key only from a
 * constraint; ADD PRIMARY KEY would build it under a lock that stops the other build).
 */
export function indexStatements(defs: { name: string; def: string; primary: boolean }[], table: string): { builds: string[]; after: string[] } {
  const builds: string[] = [];
  const after: string[] = [];
  for (const { name, def, primary } of defs) {
    const on = /^CREATE (UNIQUE )?INDEX \S+ ON (?:ONLY )?\S+ USING btree (\(.*?\))(?: WHERE (.*))?$/.exec(def);
    if (!on || / INCLUDE /.test(on[2]!)) throw new Error(`bulk load: an index definition this bench cannot rebuild: ${def}`);
    builds.push(`CREATE ${on[1] ?? ""}INDEX ${name}_bulk ON ${table} USING btree ${on[2]}${on[3] ? ` WHERE ${on[3]}` : ""}`);
    if (primary) after.push(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY USING INDEX ${name}_bulk`);
  }
  return { builds, after };
}

/** The index builds' sort memory, when set (BENCH_MAINTENANCE_WORK_MEM: 64MB, 1GB…); refused unless it is one. */
export function sortMemoryOf(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d+(kB|MB|GB)$/.test(value)) throw new Error(`BENCH_MAINTENANCE_WORK_MEM: a size such as 64MB or 1GB, not "${value}"`);
  return value;
}

/** Loads `rows` rows (at most a partition's: ten a block) as above; every step is timed. */
export async function bulkLoad(handle: DbHandle, rows: number, sortMemory = sortMemoryOf(process.env.BENCH_MAINTENANCE_WORK_MEM)): Promise<BulkLoad> {
  const db = handle.db;
  const n = Math.min(rows, PARTITION_BLOCKS * 10);
  await db.execute(sql.raw(`drop table if exists ${TABLE}`));
  // Its columns, defaults and NOT NULLs as the partitions have them (ensure_block_partitions makes them alike).
  await db.execute(sql.raw(`create table ${TABLE} (like transfers including defaults)`));
  try {
    // Two writers, each its own blocks (ten rows a block), its rows made 10,000 at a time as it goes (10M rows at once would be gigabytes of objects).
    const half = Math.ceil(n / 20) * 10;
    const insert = (tx: never, r: Parameters<typeof unnestTransfers>[0], ids: Map<string, number>) => (tx as typeof db).execute(sql`insert into ${sql.raw(TABLE)} ${TRANSFER_COLUMNS} ${unnestTransfers(r, ids)}`).then(() => {});
    const writer = async (from: number, count: number) => {
      for (let i = 0; i < count; i += 10_000) await writeAsIndexer(handle, benchTransfers(from + i / 10, Math.min(10_000, count - i)), insert);
    };
    let t = performance.now();
    await Promise.all([writer(FIRST_BLOCK, half), writer(FIRST_BLOCK + half / 10, n - half)]);
    const loadS = (performance.now() - t) / 1000;
    const defs = rowsOf<{ name: string; def: string; primary: boolean }>(
      await db.execute(sql`
        select c.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indisprimary as primary
        from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'transfers'::regclass order by c.relname`),
    );
    const { builds, after } = indexStatements(defs, TABLE);
    t = performance.now();
    // Two at a time: a build is a sort on one core (and the machine has two); CREATE INDEX builds share the table.
    // Each in a transaction of its own, with BENCH_MAINTENANCE_WORK_MEM as its sort memory when set (the store's own
    // otherwise), as the build sees it.
    const seen = new Set<string>();
    const build = (statement: string) =>
      db.transaction(async (tx) => {
        if (sortMemory) await tx.execute(sql.raw(`set local maintenance_work_mem = '${sortMemory}'`));
        seen.add(rowsOf<{ v: string }>(await tx.execute(sql`select current_setting('maintenance_work_mem') as v`))[0]!.v);
        await tx.execute(sql.raw(statement));
      });
    for (let i = 0; i < builds.length; i += 2) await Promise.all(builds.slice(i, i + 2).map(build));
    for (const s of after) await db.execute(sql.raw(s));
    const indexS = (performance.now() - t) / 1000;
    t = performance.now();
    await db.execute(sql.raw(`alter table ${TABLE} add constraint ${TABLE}_range check (block_number >= ${FIRST_BLOCK} and block_number < ${FIRST_BLOCK + PARTITION_BLOCKS})`));
    await db.execute(sql.raw(`alter table transfers attach partition ${TABLE} for values from (${FIRST_BLOCK}) to (${FIRST_BLOCK + PARTITION_BLOCKS})`));
    const attachS = (performance.now() - t) / 1000;
    const [counted] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from transfers where block_number >= ${FIRST_BLOCK}`));
    // The partition's indexes are the ones built above: an attach that found one unfit built its own, under another name.
    const built = defs.map((d) => (d.primary ? `${TABLE}_pkey` : `${d.name}_bulk`)).sort();
    // Sorted here, as `built`: the database's collation may order underscores otherwise.
    const onPartition = rowsOf<{ name: string }>(await db.execute(sql`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = ${TABLE}::regclass`)).map((r) => r.name).sort();
    return {
      rows: n,
      loadS,
      indexS,
      attachS,
      rowsPerSecond: Math.round(n / (loadS + indexS + attachS)),
      loadRowsPerSecond: Math.round(n / loadS),
      maintenanceWorkMem: [...seen].join(", "),
      countsExact: Number(counted!.n) === n,
      indexesAdopted: JSON.stringify(onPartition) === JSON.stringify(built),
    };
  } finally {
    await db.execute(sql.raw(`drop table if exists ${TABLE}`));
  }
}
