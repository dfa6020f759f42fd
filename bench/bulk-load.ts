/**
 * Issue 40's ingestion target as `tokenpool backfill` writes past the per-row ceiling: its bulk
 * path (db/queries/transfer-stages.ts), through the backfill's own functions. Rows inserted one by
 * one cost five B-tree descents each (the primary key twice under `on conflict`, the list
 * indexes) and on 2 cores they are the ceiling (bench/ledger.ts). Here a stage is opened for an
 * empty partition (planStages), two writers append a partition's rows to it as the backfill's
 * batches do (insertStagedTransfers), and the chunk's completion (completeChunk) builds the five
 * indexes, attaches the stage as the partition and records its blocks. The rows are then read
 * back through `transfers` and the partition dropped. The rate is rows over the whole: load,
 * indexes, attach.
 */
import { sql } from "drizzle-orm";
import { completeChunk, insertStagedTransfers, PARTITION_BLOCKS, planStages, rowsOf, stageTable, type DbHandle } from "../db/index.js";
import { benchTransfers, writeAsIndexer } from "./transfer-rows.js";

/** Far above every other row of the bench (the fill from block 1,000, the ingestion runs from 1,000,000,000). */
const FIRST_BLOCK = 2_000_000_000;
const PARTITION = `transfers_p${FIRST_BLOCK / PARTITION_BLOCKS}`;

export interface BulkLoad {
  rows: number;
  /** Seconds: the two writers' load; the five indexes; the range check, attach and coverage. */
  loadS: number;
  indexS: number;
  attachS: number;
  /** Rows over the whole, and the load alone. */
  rowsPerSecond: number;
  loadRowsPerSecond: number;
  /** What each index build sorted in: BENCH_MAINTENANCE_WORK_MEM, or the store's maintenance_work_mem. */
  maintenanceWorkMem: string;
  countsExact: boolean;
  /** Whether the attach adopted every index the completion built (none built again). */
  indexesAdopted: boolean;
}

/** The index builds' sort memory, when set (BENCH_MAINTENANCE_WORK_MEM: 64MB, 1GB…); refused unless it is one. */
export function sortMemoryOf(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d+(kB|MB|GB)$/.test(value)) throw new Error(`BENCH_MAINTENANCE_WORK_MEM: a size such as 64MB or 1GB, not "${value}"`);
  return value;
}

/** Removes what a load left: the partition or stage, its stage row, chunk and coverage. */
async function clear(handle: DbHandle): Promise<void> {
  const db = handle.db;
  await db.execute(sql.raw(`drop table if exists ${PARTITION}, ${stageTable(FIRST_BLOCK)}`));
  await db.execute(sql`delete from transfer_stages where partition_start = ${FIRST_BLOCK}`);
  await db.execute(sql`delete from backfill_chunks where from_block >= ${FIRST_BLOCK}`);
  await db.execute(sql`delete from event_ranges where from_block >= ${FIRST_BLOCK}`);
}

export async function bulkLoad(handle: DbHandle, rows: number, sortMemory = sortMemoryOf(process.env.BENCH_MAINTENANCE_WORK_MEM), writers = 2): Promise<BulkLoad> {
  const db = handle.db;
  const n = Math.min(rows, PARTITION_BLOCKS * 10);
  const chunk = { fromBlock: FIRST_BLOCK, toBlock: FIRST_BLOCK + Math.ceil(n / 10) - 1, swaps: 0 };
  await clear(handle);
  if ((await planStages(db, [{ from: chunk.fromBlock, to: chunk.toBlock }], 1)).length !== 1) throw new Error(`bulk load: no stage opened for blocks ${chunk.fromBlock}+ (its partition exists, or holds blocks)`);
  const stage = stageTable(FIRST_BLOCK);
  try {
    // `writers` writers (backfill workers), each its own blocks (ten rows a block), its rows made 10,000 at a time as it goes (10M rows at once would be gigabytes of objects).
    const share = Math.ceil(n / 10 / writers) * 10;
    const insert = (tx: never, r: Parameters<typeof insertStagedTransfers>[2], ids: Map<string, number>) => insertStagedTransfers(tx, stage, r, ids);
    const writer = async (from: number, count: number) => {
      for (let i = 0; i < count; i += 10_000) await writeAsIndexer(handle, benchTransfers(from + i / 10, Math.min(10_000, count - i)), insert, 10_000);
    };
    let t = performance.now();
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(FIRST_BLOCK + (w * share) / 10, Math.max(0, Math.min(share, n - w * share)))));
    const loadS = (performance.now() - t) / 1000;
    t = performance.now();
    const finished = await completeChunk(db, chunk, true, sortMemory);
    const wholeS = (performance.now() - t) / 1000;
    if (finished?.how !== "attached") throw new Error(`bulk load: the stage was ${finished?.how ?? "not finished"}, not attached`);
    const [counted] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from transfers where block_number >= ${FIRST_BLOCK}`));
    // An attach that found an index unfit builds its own, under a name of the partition's: every one here is the stage's.
    const onPartition = rowsOf<{ name: string }>(await db.execute(sql`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = ${PARTITION}::regclass`)).map((r) => r.name);
    return {
      rows: n,
      loadS,
      indexS: finished.indexSeconds,
      attachS: wholeS - finished.indexSeconds,
      rowsPerSecond: Math.round(n / (loadS + wholeS)),
      loadRowsPerSecond: Math.round(n / loadS),
      maintenanceWorkMem: finished.maintenanceWorkMem,
      countsExact: Number(counted!.n) === n,
      indexesAdopted: onPartition.length === 5 && onPartition.every((name) => name.startsWith(`${stage}_`)),
    };
  } finally {
    await clear(handle);
  }
}
