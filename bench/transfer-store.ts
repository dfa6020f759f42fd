/**
 * The transfer bench's store: the disk it needs before a fill (refused when the data directory
 * cannot hold it) and the PostgreSQL settings its ingestion rows are named by (bench/ledger.ts).
 */
import { statfsSync } from "node:fs";
import { freemem, tmpdir } from "node:os";
import { sql } from "drizzle-orm";
import { rowsOf, type DbHandle } from "../db/index.js";
import { log, ROWS_PER_BLOCK, SCALE } from "./settings.js";

/**
 * Transfers' bytes a million rows once filled (table and its five indexes, integer account ids):
 * 292 MB measured at 20M rows on 2026-11-28, the list indexes built after the fill as it builds
 * them. The ingestion runs' own figure is no guide to the fill: their 900,000 rows are inserted
 * one by one into indexes that split as they grow (674 MB a million at 300,000 rows).
 */
export const FILLED_BYTES_PER_MILLION = 292 * 1024 * 1024;

/**
 * The PostgreSQL settings that decide a bulk write's pace, and whether they are those
 * docs/operators.md gives for a backfill ("PostgreSQL for a backfill": shared_buffers ≥ 1 GB,
 * max_wal_size ≥ 8 GB, wal_compression on) or the store as installed. Rows written into the
 * middle of big indexes dirty pages all over them: with the defaults (128 MB of buffers, a
 * checkpoint every 1 GB of WAL) most of those pages are written out again and again, each first
 * change after a checkpoint with a full copy of its page in the WAL.
 */
export async function storeSettings(handle: DbHandle): Promise<{ name: string; text: string; settings: Record<string, string> }> {
  if (handle.kind !== "postgres") return { name: "PGlite", text: "PGlite", settings: {} };
  const got = await pgSettings(handle, ["shared_buffers", "max_wal_size", "checkpoint_timeout", "wal_compression", "synchronous_commit"]);
  const settings = Object.fromEntries(Object.entries(got).map(([k, v]) => [k, v.setting]));
  const bytes = (name: string) => got[name]!.bytes;
  const text = `shared_buffers ${size(bytes("shared_buffers"))}, max_wal_size ${size(bytes("max_wal_size"))}, wal_compression ${settings.wal_compression}, checkpoint_timeout ${settings.checkpoint_timeout} s`;
  return { name: setForBackfill(bytes("shared_buffers"), bytes("max_wal_size"), settings.wal_compression!) ? "PostgreSQL set for a backfill" : "PostgreSQL as installed", text, settings };
}

/** Whether a store has the settings docs/operators.md gives for a backfill (at least 1 GB of buffers and 8 GB of WAL, compressed). */
export const setForBackfill = (sharedBuffers: number, maxWalSize: number, walCompression: string): boolean =>
  sharedBuffers >= 1024 ** 3 && maxWalSize >= 8 * 1024 ** 3 && walCompression !== "off";

/** A byte count as a setting reads: 128 MB as such, not "0.13 GB". */
export const size = (b: number): string => (b < 1024 ** 3 ? `${Math.round(b / 1024 ** 2)} MB` : `${Number((b / 1024 ** 3).toPrecision(2))} GB`);

/** A pg_settings value in bytes: `setting` counts `unit`s (shared_buffers in 8kB pages, max_wal_size in MB). */
export const settingBytes = (setting: string, unit: string | null): number => Number(setting) * ({ "8kB": 8192, kB: 1024, MB: 1024 ** 2 }[unit ?? ""] ?? 1);

/** Named PostgreSQL settings, each as read and in bytes. */
async function pgSettings(handle: DbHandle, names: string[]): Promise<Record<string, { setting: string; bytes: number }>> {
  const got = rowsOf<{ name: string; setting: string; unit: string | null }>(await handle.db.execute(sql`select name, setting, unit from pg_settings where name = any(${`{${names.join(",")}}`}::text[])`));
  return Object.fromEntries(got.map((r) => [r.name, { setting: r.setting, bytes: settingBytes(r.setting, r.unit) }]));
}

/** The rows the transfer pages are measured on: 20M × BENCH_SCALE; PGlite holds its store in this process: a tenth there. */
export const transferTarget = (handle: DbHandle, scale = SCALE) => Math.round((handle.kind === "postgres" ? 20_000_000 : 2_000_000) * scale);

/**
 * The bytes free where the store keeps its data: Postgres' data directory when it is on this
 * machine (else the temporary directory's disk, said so), PGlite's memory or disk.
 */
async function roomOf(handle: DbHandle): Promise<{ free: number; where: string }> {
  if (handle.kind === "pglite") return process.env.BENCH_PGLITE_DISK ? { free: disk(tmpdir()), where: tmpdir() } : { free: freemem(), where: "memory (PGlite)" };
  const [dir] = rowsOf<{ setting: string }>(await handle.db.execute(sql`select setting from pg_settings where name = 'data_directory'`));
  try {
    return { free: disk(dir!.setting), where: dir!.setting };
  } catch {
    return { free: disk(tmpdir()), where: `${tmpdir()} (the data directory ${dir?.setting ?? "?"} is not on this machine)` };
  }
}

const disk = (dir: string) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/**
 * Refuses a fill the store's disk cannot hold: `rows` more at `perMillion` bytes a million (as
 * measured on a filled store), a fifth more for the indexes built again after it (their sort runs
 * and the new index beside the old, one partition at a time), the WAL PostgreSQL may keep between
 * checkpoints (max_wal_size: 1 GB as installed, 16 GB set for a backfill), and 5 GB left over.
 */
export async function refuseUnlessRoom(handle: DbHandle, rows: number, perMillion: number): Promise<void> {
  const wal = handle.kind === "postgres" ? (await pgSettings(handle, ["max_wal_size"])).max_wal_size!.bytes : 0;
  const { free, where } = await roomOf(handle);
  const room = roomFor(rows, perMillion, ROWS_PER_BLOCK, wal, free);
  const gb = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GB`;
  log(`  transfers: ${(perMillion / 1024 / 1024).toFixed(0)} MB per million rows; ${rows.toLocaleString("en")} more rows need ${gb(room.need)} (${gb(wal)} of it WAL), ${gb(free)} free in ${where}`);
  if (room.need > free) {
    // The scale that fits, rounded down (transferTarget: 20M rows × BENCH_SCALE, a tenth on PGlite).
    const scale = Math.floor((room.fits / transferTarget(handle, 1)) * 10) / 10;
    throw new Error(`the transfer bench needs ${gb(room.need)} for ${rows.toLocaleString("en")} rows at ${(perMillion / 1024 / 1024).toFixed(0)} MB per million and ${gb(wal)} of WAL, and ${where} has ${gb(free)} free: at most ~${room.fits.toLocaleString("en")} rows fit (BENCH_SCALE=${scale.toFixed(1)})`);
  }
}

/**
 * The bytes `rows` transfer rows need at `perMillion` a million: a fifth more for the indexes
 * built again after the fill, the fill's `blocks` rows (≈ 80 bytes each with their key), the
 * WAL, and 5 GB left over; and the most rows `free` bytes hold so.
 */
export function roomFor(rows: number, perMillion: number, rowsPerBlock: number, wal: number, free: number): { need: number; fits: number } {
  const perRow = (1.2 * perMillion) / 1_000_000 + 80 / rowsPerBlock;
  const spare = 5 * 1024 ** 3;
  return { need: rows * perRow + wal + spare, fits: Math.max(0, Math.floor((free - wal - spare) / perRow)) };
}
