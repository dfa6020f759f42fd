/** Stores for the benchmarks: Postgres (a database of its own per call) when a URL is set, else PGlite. */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDb, type DbHandle } from "../db/index.js";

/** A fresh store per measurement: Postgres in a database of its own, or PGlite in memory. */
export async function freshStore(): Promise<{ handle: DbHandle; label: string; drop(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    const handle = await createDb({ dataDir: "memory://" });
    await handle.migrate();
    return { handle, label: "PGlite (memory)", drop: () => handle.close() };
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
    async drop() {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
