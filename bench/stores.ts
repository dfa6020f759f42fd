/** Stores for the benchmarks: Postgres (a database of its own per call) when a URL is set, else PGlite. */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createDb, type DbHandle } from "../db/index.js";

export interface BenchStore {
  handle: DbHandle;
  label: string;
  /** How a child process opens the same store: DATABASE_URL, or DATA_DIR (PGlite on disk). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh store per measurement: Postgres in a database of its own, or PGlite — in memory, or
 * in a temporary DATA_DIR with `onDisk` (for a child process to open once this one closes it).
 */
export async function freshStore(opts: { onDisk?: boolean } = {}): Promise<BenchStore> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    const dir = opts.onDisk ? await mkdtemp(path.join(tmpdir(), "tokenpool-bench-")) : undefined;
    const handle = await createDb({ dataDir: dir ?? "memory://" });
    await handle.migrate();
    return {
      handle,
      label: dir ? "PGlite (disk)" : "PGlite (memory)",
      env: dir ? { DATA_DIR: dir, DATABASE_URL: "" } : {},
      async drop() {
        await handle.close().catch(() => {});
        if (dir) await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `tokenpool_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const handle = await createDb({ databaseUrl: target.toString(), maxConnections: 4 });
  await handle.migrate();
  return {
    handle,
    label: "PostgreSQL",
    env: { DATABASE_URL: target.toString() },
    async drop() {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
