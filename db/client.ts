/**
 * One client factory for both stores: PGlite (Postgres in WASM) in DATA_DIR when no
 * DATABASE_URL is set, PostgreSQL through postgres.js when it is. Both speak the same SQL and
 * share one drizzle schema and one set of migrations.
 */
import { spawn } from "node:child_process";
import { access, mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { lockDataDir } from "./dir-lock.js";
import { takeWriterLock, type WriterLock } from "./writer-lock.js";
import * as schema from "./schema/index.js";
import type { Database } from "./database.js";

export { rowsOf, type Database, type Schema } from "./database.js";

export interface DbHandle {
  readonly kind: "pglite" | "postgres";
  readonly db: Database;
  /** Apply the committed SQL migrations (idempotent; serialized across processes on Postgres). */
  migrate(): Promise<void>;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Tries to become the one writer: a Postgres advisory lock held on a connection of its own
   * for as long as this process lives (a crash releases it). PGlite always succeeds: only one
   * process can open a DATA_DIR. Resolves to the lock, or undefined when another process holds it.
   */
  tryWriterLock(): Promise<WriterLock | undefined>;
  /**
   * LISTEN on `channel` (of the primary: NOTIFY is not replicated); resolves to the unlisten.
   * Notifications sent inside a transaction arrive when it commits.
   */
  listen(channel: string, onPayload: (payload: string) => void, onRelisten?: () => void): Promise<() => Promise<void>>;
  /**
   * The store as /health reads it: on Postgres a pool of its own (one connection, opened on first
   * use), so that reads holding every connection of the main pool never queue a health check;
   * on PGlite the store itself (one connection for everything). `reset` drops that connection
   * (a check that timed out leaves it to a frozen server): the next check opens a new one.
   */
  readonly health: { db: Database; ping(): Promise<void>; reset(): void };
  /**
   * The store as long jobs (holder snapshots) use it: on Postgres a pool of its own (two
   * connections, opened on first use) whose statements are bounded by JOB_STATEMENT_TIMEOUT_MS,
   * not by the API's statement_timeout and the silence watch that goes with it. On the API's pool
   * a job's statement silent for longer than statement_timeout + STALL_GRACE_MS (7 s) had its
   * connection closed under it (issue 38, re-attack finding 5: a 1M-holder ranking killed and
   * retried until the database grew 11 GB). PGlite: `db` (one connection, no timeouts).
   */
  readonly jobs: Database;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; unset = PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data folder (DATA_DIR/pglite), or "memory://" for a throw-away store. */
  dataDir?: string;
  /** Pool size for postgres.js. */
  maxConnections?: number;
  /**
   * Postgres statement_timeout of the pool's connections (ms; unset or 0 = none). Migrations run
   * without it. Set, it also bounds how long the server may stay silent: a connection waiting
   * longer than this plus STALL_GRACE_MS for any byte of an answer is closed (see watchSockets).
   */
  statementTimeoutMs?: number | undefined;
  /** Postgres lock_timeout of the pool's connections (ms; unset = none): a command that must not wait behind long transactions (prune-history). */
  lockTimeoutMs?: number | undefined;
  /** PGlite's shared_buffers in MiB (default PGLITE_SHARED_BUFFERS_MB). */
  pgliteSharedBuffersMb?: number;
  /** The silence allowed past a statement timeout before a connection is taken for dead (default STALL_GRACE_MS; tests make it small). */
  stallGraceMs?: number;
  /**
   * PGlite, "memory://" only: the cluster to start from, a dump of another store (PGlite's
   * dumpDataDir). The suites start each throw-away store from one migrated dump: ≈ 1 s, against
   * ≈ 4 s for a new cluster (initdb inside WASM) and its migrations.
   */
  pgliteFrom?: Blob;
}

/**
 * PGlite's buffer pool. Postgres' default, 128 MB, is touched whole at start inside the WASM
 * memory: an embedded store opened with it is 323 MB resident against 182 MB with 16 MB (PGlite
 * 0.5.16, measured). Its data files are real files, which the OS caches anyway.
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));
const drizzleOptions = { schema, casing: "snake_case" } as const;
// Any constant works; it only has to be the same in every TokenPool process.
const MIGRATION_LOCK_KEY = 7_262_021;

export async function createDb(options: DbOptions): Promise<DbHandle> {
  return options.databaseUrl ? createPostgres(options.databaseUrl, options.maxConnections ?? DEFAULT_POOL_SIZE, options.statementTimeoutMs, options.stallGraceMs ?? STALL_GRACE_MS, options.lockTimeoutMs) : createPglite(options.dataDir ?? "memory://", options.pgliteSharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB, options.pgliteFrom);
}

/** postgres.js connections per pool unless DbOptions.maxConnections says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * Past statement_timeout the server answers (with an error, at worst) unless it or the route to
 * it is gone; this much more covers scheduling and a busy event loop before a silent connection
 * is taken for dead.
 */
export const STALL_GRACE_MS = 2_000;

/**
 * The statement_timeout of the jobs' pool (DbHandle.jobs): a job's statement is bounded by its
 * batch or by its snapshot's size (a 20M-row ranking is minutes); this bounds a hung one.
 */
export const JOB_STATEMENT_TIMEOUT_MS = 15 * 60_000;

/**
 * TCP keepalive of every connection (seconds idle before the first probe; postgres.js' default is
 * 60): an idle pooled connection to a host that vanished without a RST is found out sooner.
 */
const KEEP_ALIVE_SECONDS = 10;

/**
 * Seconds before a pool connection tries the server again after failing to reach it, by failures
 * in a row. postgres.js counts failures across the whole pool and waits up to 20 s (3^n / 100): a
 * 2 s PostgreSQL restart had the indexer's and the API's queries wait 18–19 s for a reconnect
 * (measured with 6 workers on a pool of 10). Here the wait doubles from 50 ms up to 2 s, jittered:
 * 5–10 attempts a second from a pool of 10 against a server that is down (refused connections
 * cost the server little; many replicas against one still in recovery is where a higher cap pays).
 */
export const reconnectBackoff = (failures: number): number => Math.min(0.05 * 2 ** failures, 2) * (0.5 + Math.random() / 2);

/** The sockets of one postgres.js client; see watchSockets. */
interface WatchedSockets {
  /** postgres.js' `socket` option: opens the connection's socket and watches it. */
  open(options: { host: string[]; port: number[]; path?: string | false }): net.Socket;
  /** Destroys every socket (a pool whose server stopped answering). */
  destroyAll(): void;
  stop(): void;
}

/**
 * The database hangs (a frozen host, a route that drops packets without a RST): the server's
 * statement_timeout cannot help, since the server is the one not answering, and TCP gives up
 * only after many minutes. postgres.js has no client-side query timeout and never closes a
 * connection that merely waits, so its queries (and every one pipelined behind them) hang, and
 * the pool with them. These sockets are watched instead: one that has written a request and has
 * heard nothing back for `stallMs` is destroyed, which fails its queries (503 in the API) and
 * makes postgres.js open a new connection for the next ones — a frozen connection never returns
 * to the pool. A connection that sent nothing (idle in the pool, LISTEN) is never touched.
 *
 * Only plaintext connections are watched this way (over TLS, postgres.js reads and writes through
 * a TLS socket wrapped around this one, whose traffic it does not see); TLS connections still have
 * keepalive, connect_timeout and the API's request deadline.
 */
function watchSockets(stallMs: number | undefined): WatchedSockets {
  const sockets = new Map<net.Socket, { waitingSince: number }>();
  let next = 0;
  const sweep = () => {
    const now = performance.now();
    for (const [socket, state] of sockets) {
      if (socket.destroyed) sockets.delete(socket);
      else if (stallMs !== undefined && state.waitingSince > 0 && now - state.waitingSince > stallMs) {
        sockets.delete(socket);
        socket.destroy(Object.assign(new Error(`the database sent nothing for ${Math.round(now - state.waitingSince)} ms after a request; connection closed`), { code: "ETIMEDOUT" }));
      }
    }
  };
  const timer = setInterval(sweep, Math.min(1_000, Math.max(100, Math.floor((stallMs ?? 1_000) / 4))));
  timer.unref();
  return {
    open(o) {
      let socket: net.Socket;
      if (o.path) socket = net.connect(o.path);
      else {
        // postgres.js leaves the choice of host to the factory: take the listed hosts in turn.
        const i = next++ % o.host.length;
        socket = net.connect(o.port[i] ?? o.port[0]!, o.host[i]!);
        Object.assign(socket, { host: o.host[i], port: o.port[i] ?? o.port[0] }); // named in postgres.js' errors and its TLS servername
      }
      // As libpq and node-postgres do: postgres.js writes a COPY's data and its end (CopyDone) as
      // two writes, and with Nagle's algorithm the second waited for the server's delayed ACK,
      // ≈ 40 ms a COPY (the bulk path's load: 31 s against 23 s for 10M rows, four writers).
      socket.setNoDelay(true);
      const state = { waitingSince: 0 };
      sockets.set(socket, state);
      // Any byte from the server means it is alive; a request written while none was awaited starts the clock.
      socket.on("data", () => (state.waitingSince = 0));
      const write = socket.write;
      socket.write = function (this: net.Socket, ...args: unknown[]) {
        if (state.waitingSince === 0) state.waitingSince = performance.now();
        return (write as (...a: unknown[]) => boolean).apply(this, args);
      } as typeof socket.write;
      return socket;
    },
    destroyAll() {
      for (const socket of sockets.keys()) socket.destroy();
      sockets.clear();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

async function createPglite(dataDir: string, sharedBuffersMb: number, from: Blob | undefined): Promise<DbHandle> {
  if (from && !dataDir.startsWith("memory://")) throw new Error("a PGlite dump can only start a memory:// store");
  let dir = dataDir;
  let unlock = async () => {};
  if (!dir.startsWith("memory://")) {
    dir = path.resolve(dir, "pglite");
    await mkdir(dir, { recursive: true });
    unlock = await lockDataDir(`${dir}.lock`, dir);
    try {
      await initdbApart(dir);
    } catch (err) {
      await unlock();
      throw err;
    }
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { ...(from ? { loadDataDir: from } : {}), startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`] });
  } catch (err) {
    await unlock();
    throw err;
  }
  const db = drizzlePglite({ client, ...drizzleOptions }) as unknown as Database;
  return {
    kind: "pglite",
    db,
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await client.query("select 1");
    },
    tryWriterLock: async () => ({ fence: async () => {}, alive: async () => true, release: async () => {} }),
    listen: (channel, onPayload) => client.listen(channel, onPayload).then((unlisten) => () => unlisten()),
    health: { db, ping: async () => void (await client.query("select 1")), reset: () => {} },
    jobs: db,
    close: async () => {
      try {
        await client.close();
      } finally {
        await unlock();
      }
    },
  };
}

/**
 * A new data directory is created (initdb) by a short-lived child process, then opened here.
 * PGlite runs initdb in a second WASM instance inside the process that creates the directory, and
 * that process keeps ≈ 430 MB more (RSS 886 MB against 358 MB for opening an existing directory,
 * measured with PGlite 0.5.16): the embedded default would carry it for its whole life. The child
 * holds the directory lock's protection through its parent (the lock is taken before).
 */
async function initdbApart(dir: string): Promise<void> {
  try {
    await access(path.join(dir, "PG_VERSION"));
    return; // created before
  } catch {
    // not created yet
  }
  const pglite = import.meta.resolve("@electric-sql/pglite");
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(process.argv[1]); await db.close();`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, dir], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2_000)));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`creating the PGlite data directory ${dir} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

function createPostgres(url: string, max: number, statementTimeoutMs: number | undefined, stallGraceMs: number, lockTimeoutMs: number | undefined): DbHandle {
  // numeric and bigint arrive as strings by default; keep it that way for numeric (exactness).
  const connection = { ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}), ...(lockTimeoutMs ? { lock_timeout: lockTimeoutMs } : {}) };
  // Only connections with a statement_timeout have a bound on the server's silence (the
  // indexer's long writes have none).
  const stallMs = statementTimeoutMs ? statementTimeoutMs + stallGraceMs : undefined;
  const sockets = watchSockets(stallMs);
  const options = { onnotice: () => {}, connect_timeout: 10, keep_alive: KEEP_ALIVE_SECONDS, backoff: reconnectBackoff, connection };
  // `socket` is a documented postgres.js option its type declarations leave out.
  const client = postgres(url, { ...options, max, ...({ socket: sockets.open } as object) });
  const db = drizzlePostgres({ client, ...drizzleOptions }) as unknown as Database;
  const healthSockets = watchSockets(stallMs);
  const healthClient = postgres(url, { ...options, max: 1, ...({ socket: healthSockets.open } as object) });
  const healthDb = drizzlePostgres({ client: healthClient, ...drizzleOptions }) as unknown as Database;
  // Jobs: their own timeout, and a silence watch measured against it rather than the API's.
  const jobSockets = watchSockets(JOB_STATEMENT_TIMEOUT_MS + stallGraceMs);
  const jobClient = postgres(url, { ...options, connection: { statement_timeout: JOB_STATEMENT_TIMEOUT_MS }, max: 2, ...({ socket: jobSockets.open } as object) });
  const jobsDb = drizzlePostgres({ client: jobClient, ...drizzleOptions }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    migrate: async () => {
      const conn = await client.reserve();
      try {
        await conn`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
        // A migration may rewrite a large table: on a connection of its own, without the timeouts.
        const unbounded = statementTimeoutMs || lockTimeoutMs ? postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 }) : client;
        try {
          await migratePostgres(drizzlePostgres({ client: unbounded, ...drizzleOptions }), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          if (unbounded !== client) await unbounded.end();
        }
      } finally {
        await conn`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
        conn.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    tryWriterLock: () => takeWriterLock(url, options, db),
    listen: async (channel, onPayload, onRelisten) => {
      // postgres.js keeps one dedicated connection for LISTEN and re-listens after reconnecting;
      // its onlisten runs at the first LISTEN and at each of those (notifications in between are lost).
      let first = true;
      const { unlisten } = await client.listen(channel, onPayload, () => {
        if (first) first = false;
        else onRelisten?.();
      });
      return unlisten;
    },
    health: {
      db: healthDb,
      ping: async () => {
        await healthDb.execute(sql`select 1`);
      },
      reset: () => healthSockets.destroyAll(),
    },
    jobs: jobsDb,
    close: async () => {
      sockets.stop();
      healthSockets.stop();
      jobSockets.stop();
      await Promise.all([client.end({ timeout: 5 }), healthClient.end({ timeout: 0 }), jobClient.end({ timeout: 5 })]);
    },
  };
}
