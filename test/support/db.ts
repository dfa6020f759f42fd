/**
 * Database targets for the suites: PGlite always, and real Postgres when TEST_DATABASE_URL is
 * set. Every suite gets a database of its own (a fresh PGlite, or a new Postgres database
 * created for this run and dropped after), and every test starts from empty tables.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, inject, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { createDb, INDEXED_TABLES, type Database, type DbHandle } from "../../db/index.js";
import { loadTestServices } from "../../shared/config.js";

export const services = loadTestServices();

export interface DbTarget {
  name: "pglite" | "postgres";
  /** Why this target is skipped, or undefined when it runs. */
  skip: string | undefined;
  /** A fresh migrated database; `url` is set for Postgres (for child processes). */
  open(): Promise<DbHandle & { drop(): Promise<void>; url?: string }>;
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A throw-away PGlite store, migrated: started from the dump the global setup made
 * (test/support/db-templates.ts). `migrate()` still runs, and finds nothing to do.
 */
export async function memoryStore(): Promise<DbHandle> {
  pgliteTemplate ??= readFile(inject("pgliteTemplate")).then(
    (bytes) => new Blob([bytes]),
    (err: unknown) => {
      pgliteTemplate = undefined; // the next store tries again
      throw err;
    },
  );
  const handle = await createDb({ dataDir: "memory://", pgliteFrom: await pgliteTemplate });
  await handle.migrate();
  return handle;
}

const pglite: DbTarget = {
  name: "pglite",
  skip: undefined,
  async open() {
    const handle = await memoryStore();
    return Object.assign(handle, { drop: () => handle.close() });
  },
};

const pg: DbTarget = {
  name: "postgres",
  skip: services.databaseUrl ? undefined : "TEST_DATABASE_URL is not set: Postgres suites skipped",
  async open() {
    const adminUrl = services.databaseUrl as string;
    const name = `tokenpool_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    // A copy of the run's migrated database (test/support/db-templates.ts); migrate() finds nothing to do.
    await admin.unsafe(`create database "${name}" template "${inject("postgresTemplate")}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 4 });
    await handle.migrate();
    return Object.assign(handle, {
      url: url.toString(),
      async drop() {
        await handle.close();
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    });
  },
};

export const dbTargets: DbTarget[] = [pglite, pg];

/** Every table: the indexed data and the accounts (a list kept by hand misses a new table). */
// snapshot_charges: what users asked for (their budgets), kept across a reset of the indexed data.
const TABLES = ["users", "snapshot_charges", ...INDEXED_TABLES];

/** Opens the target's database for the enclosing describe and empties it before each test. */
/** `truncateEach: false` keeps the rows between a suite's tests (for suites whose tests only read what their `beforeAll` wrote). */
export function useDb(target: DbTarget, { truncateEach = true }: { truncateEach?: boolean } = {}): { readonly db: Database; readonly handle: DbHandle } {
  let handle: (DbHandle & { drop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(async () => {
    await handle?.drop();
  });
  beforeEach(async () => {
    if (truncateEach) await handle!.db.execute(sql.raw(`truncate ${TABLES.map((t) => `"${t}"`).join(", ")}`));
  });
  return {
    get db() {
      return handle!.db;
    },
    get handle() {
      return handle!;
    },
  };
}

export interface DbContext {
  readonly db: Database;
  readonly handle: DbHandle;
  readonly target: DbTarget;
}

/**
 * The one store a chain-backed suite runs on: `preferred` when it runs here, else PGlite. Such a
 * suite spends its time on the chain and the follower, not the store, and the suite is CPU-bound
 * on 2 cores: the fake-node upgrade suites split between the two stores (PGlite for the
 * attacks and the backfill, Postgres for upgrade-fake; the devnet upgrade runs on both), and the
 * store layer itself runs on both in test/db, test/indexer/store.test.ts and the API suites.
 */
export function oneStore(preferred: DbTarget["name"]): DbTarget {
  const wanted = dbTargets.find((t) => t.name === preferred)!;
  if (!wanted.skip) return wanted;
  // Never in silence: the run on the store the suite is meant for is a listed skip (under
  // TOKENPOOL_CI=1 a failure: the skips reporter), and PGlite runs it meanwhile.
  describe.skip(`this file on ${preferred}, the store it is meant to run on (skipped: ${wanted.skip}; it ran on PGlite instead)`, () => {
    it("needs the service", () => {});
  });
  return pglite;
}

/**
 * The targets a suite that runs on every store can run on here; read when the file is collected
 * (at its top level or in a describe, not in a hook). Each target that cannot run is a listed
 * skip with its reason, so such a suite never passes on PGlite alone in silence (under
 * TOKENPOOL_CI=1 that skip fails the run).
 */
export function runnableTargets(what: string): DbTarget[] {
  for (const t of dbTargets) {
    if (!t.skip) continue;
    describe.skip(`${what} [${t.name}] (skipped: ${t.skip})`, () => {
      it("needs the service", () => {});
    });
  }
  return dbTargets.filter((t) => !t.skip);
}

/**
 * Runs `fn`'s suite once per database target (or on `only`, see oneStore). A skipped target still
 * shows up in the report, with the reason in the suite's title.
 */
export function describeDb(title: string, fn: (ctx: DbContext) => void, only?: DbTarget, options?: { truncateEach?: boolean }): void {
  for (const target of only ? [only] : dbTargets) {
    if (target.skip) {
      describe.skip(`${title} [${target.name}] (skipped: ${target.skip})`, () => {
        it("needs the service", () => {});
      });
      continue;
    }
    describe(`${title} [${target.name}]`, () => {
      const ctx = useDb(target, options);
      fn({ get db() { return ctx.db; }, get handle() { return ctx.handle; }, target });
    });
  }
}

/** Rows of a raw query on either driver (PGlite answers { rows }, postgres.js an array). */
export async function selectRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/**
 * A migrated PGlite DATA_DIR on disk for a child process (`tokenpool … --data-dir`), made from the
 * dump the global setup made (its files are the cluster's data folder, `<DATA_DIR>/pglite`): no
 * initdb and no migrations in the test (≈ 10 s of CPU for a `tokenpool migrate` on an empty one).
 * `dir` is created if needed and must not hold a store yet.
 */
export async function migratedDataDir(dir: string): Promise<string> {
  await mkdir(path.join(dir, "pglite"), { recursive: true });
  // GNU tar drops the dump's leading "/" (and says so on stderr).
  await promisify(execFile)("tar", ["-xf", inject("pgliteTemplate"), "-C", path.join(dir, "pglite")]);
  return dir;
}

/** A copy of a PGlite DATA_DIR no process has open: a second store with the same content, for reads that may run beside each other (PGlite admits one process per folder). */
export async function copyDataDir(from: string, to: string): Promise<string> {
  await cp(path.join(from, "pglite"), path.join(to, "pglite"), { recursive: true });
  return to;
}
