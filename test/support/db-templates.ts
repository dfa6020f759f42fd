/**
 * The migrated stores the suites start from, made once per run by the global setup: a dump of a
 * migrated PGlite cluster (a file), and a migrated Postgres database that `create database …
 * template` copies. A suite's store then starts in about a second instead of four (PGlite: initdb
 * inside WASM, then 25 migrations; both once per store, some hundred times a run on 2 cores).
 * Each run makes its own: nothing is kept from an earlier run.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { createDb } from "../../db/index.js";

declare module "vitest" {
  interface ProvidedContext {
    /** The file holding the migrated PGlite dump. */
    pgliteTemplate: string;
    /** The migrated Postgres database to copy, or "" without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}

export interface Templates {
  pglite: string;
  postgres: string | undefined;
  drop(): Promise<void>;
}

export async function makeTemplates(dir: string, databaseUrl: string | undefined): Promise<Templates> {
  const store = await createDb({ dataDir: "memory://" });
  await store.migrate();
  const client = (store.db as unknown as { $client: PGlite }).$client;
  const file = path.join(dir, "pglite-migrated.tar");
  await writeFile(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
  await store.close();
  if (!databaseUrl) return { pglite: file, postgres: undefined, drop: async () => {} };

  const name = `tokenpool_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await dropLeftovers(admin);
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const template = await createDb({ databaseUrl: url.toString(), maxConnections: 2 });
  await template.migrate();
  // A template must have no other session when it is copied.
  await template.close();
  return {
    pglite: file,
    postgres: name,
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** A process that is still running (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The databases of runs that were stopped before their teardown (a killed run, a killed
 * worker): named tokenpool_template_<pid>_… and tokenpool_test_<pid>_…, dropped here once their
 * process is gone, so that stopped runs do not fill the server's disk.
 */
async function dropLeftovers(admin: postgres.Sql): Promise<void> {
  const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname ~ '^tokenpool_(template|test)_[0-9]+_'`;
  for (const { datname } of rows) {
    const pid = Number(/^tokenpool_(?:template|test)_(\d+)_/.exec(datname)![1]);
    if (!alive(pid)) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  }
}
