/**
 * The one-writer lock on Postgres: an advisory lock held by a session of its own. A second
 * indexer waits as standby; every commit of the holder is fenced by a check, inside its own
 * transaction, that the lock's session is still the one holding it.
 */
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Database } from "./database.js";

export interface WriterLock {
  /**
   * Throws WriterLockLost unless the lock is still held, checked inside the caller's
   * transaction: if the lock's connection dropped (and a standby took over), the commit fails
   * instead of racing the new writer.
   */
  fence(tx: Database): Promise<void>;
  /** False once the lock's connection is gone. */
  alive(): Promise<boolean>;
  release(): Promise<void>;
}

export class WriterLockLost extends Error {
  override name = "WriterLockLost";
}

// Any constant works; it only has to be the same in every TokenPool process.
const WRITER_LOCK_KEY = 7_262_022;
/** How long taking the writer lock may wait for the database before the attempt fails (and is retried). */
export const WRITER_LOCK_DEADLINE_MS = 10_000;

/**
 * Tries to take the lock on a session of its own (`options`: the pool's postgres.js options);
 * `db` (the pool) checks it. Resolves to the lock, or undefined when another session holds it.
 */
export async function takeWriterLock(url: string, options: postgres.Options<Record<string, postgres.PostgresType>>, db: Database): Promise<WriterLock | undefined> {
  // A client of its own (one connection, one session: the lock lives exactly as long as it),
  // not client.reserve(): postgres.js 3.4 strands a queued reserve() for good when the server
  // closes the connection it waits for (porsager/postgres#1195) — a PostgreSQL restart left
  // the indexer in standby for ever — and a reserved connection's next query after its
  // backend died throws outside the promise (#1208). Each step has a deadline; past it the
  // connection is dropped, which also frees a lock taken too late.
  const own = postgres(url, {
    ...options,
    max: 1,
    // Never closed by the client: ending the session frees the lock (postgres.js otherwise
    // recycles a connection after a random 30–60 min, a failover every half hour).
    idle_timeout: 0,
    max_lifetime: 0,
    // No array-types query on connect: this session runs one statement.
    fetch_types: false,
    // The server's keepalive on this session: if this process's host vanishes without a reset,
    // the server ends the session (and frees the lock) within ≈ 25 s, not TCP's default 2 h.
    connection: { ...options.connection, tcp_keepalives_idle: 10, tcp_keepalives_interval: 5, tcp_keepalives_count: 3 },
  });
  const drop = () => own.end({ timeout: 0 }).catch(() => {});
  const bounded = <T>(what: string, query: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void drop();
        reject(new Error(`the database did not answer ${what} within ${WRITER_LOCK_DEADLINE_MS} ms`));
      }, WRITER_LOCK_DEADLINE_MS);
    });
    return Promise.race([query, deadline]).finally(() => clearTimeout(timer));
  };
  let pid: number;
  // With the pid, the server's start: after a restart, a new backend may get the old pid.
  let started: string;
  try {
    const [row] = await bounded("the writer lock", own`select pg_try_advisory_lock(${WRITER_LOCK_KEY}) as ok, pg_backend_pid() as pid, pg_postmaster_start_time()::text as started`);
    if (!row?.ok) {
      await drop();
      return undefined;
    }
    pid = Number(row.pid);
    started = String(row.started);
  } catch (err) {
    await drop();
    throw err;
  }
  // Asked through the pool, never through `own`: a query there after the session died would
  // open a new session, which holds no lock.
  const held = async (on: Database) =>
    (
      (await on.execute(
        // Advisory locks on one bigint key show up as classid 0 / objid key / objsubid 1.
        sql`select 1 from pg_locks where locktype = 'advisory' and classid = 0 and objid = ${WRITER_LOCK_KEY} and objsubid = 1 and granted and pid = ${pid} and pg_postmaster_start_time()::text = ${started}`,
      )) as unknown as unknown[]
    ).length > 0;
  return {
    async fence(tx) {
      if (!(await held(tx))) throw new WriterLockLost(`the writer lock (held by backend ${pid}) is gone`);
    },
    alive: () => held(db).catch(() => false),
    async release() {
      // Ending the session releases the lock (and is all there is to do if it already died).
      await own.end({ timeout: 1 }).catch(() => {});
    },
  };
}
