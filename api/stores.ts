/**
 * The API's stores: the database (migrated), its read replica (checked to follow the primary) and
 * the rate-limit counters (Redis, or memory), opened and closed together.
 */
import { appliedMigrations, createDb, type Database, type DbHandle } from "../db/index.js";
import type { Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import { MemoryRateLimitStore } from "./rate-limit/memory-store.js";
import { RedisRateLimitStore } from "./rate-limit/redis-store.js";
import type { RateLimitStore } from "./rate-limit/store.js";

export interface Stores {
  handle: DbHandle;
  /** Whether `handle` is the API's own (closed with it), not a shared one. */
  own: boolean;
  replica: DbHandle | undefined;
  store: RateLimitStore;
}

/**
 * The store (migrated), its read replica and the rate-limit counters. A shared Postgres store
 * (`npm start`: the indexer's) is not the API's pool: reads get one of their own, with the API's
 * statement_timeout, so neither can drain the other's connections. PGlite has one connection in
 * all, and is shared.
 */
export async function openStores(config: Config, shared: DbHandle | undefined): Promise<Stores> {
  const own = !shared || (shared.kind === "postgres" && config.databaseUrl !== undefined);
  const handle = own ? await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb, statementTimeoutMs: config.apiStatementTimeoutMs, maxConnections: config.apiDbConnections }) : shared!;
  await handle.migrate();
  // A replica follows the primary's schema: it is never migrated from here.
  const replica = config.databaseReadUrl ? await createDb({ databaseUrl: config.databaseReadUrl, statementTimeoutMs: config.apiStatementTimeoutMs, maxConnections: config.apiDbConnections }) : undefined;
  if (replica) {
    try {
      await replicaFollows(handle.db, replica.db);
    } catch (err) {
      await replica.close().catch(() => {});
      if (own) await handle.close().catch(() => {});
      throw err;
    }
  }
  let store: RateLimitStore;
  if (config.redisUrl) {
    const redis = new RedisRateLimitStore(config.redisUrl, config.redisPrefix);
    await redis.ready();
    store = redis;
  } else {
    store = new MemoryRateLimitStore();
  }
  return { handle, own, replica, store };
}

export async function closeStores({ handle, own, replica, store }: Stores): Promise<void> {
  await store.close().catch(() => {});
  await replica?.close().catch(() => {});
  if (own) await handle.close().catch(() => {});
}

/**
 * A read replica is checked at start, not found out per request: it must answer and carry the
 * primary's schema (it is never migrated from here). One that lags a migration just applied to
 * the primary is waited for up to 10 s. Otherwise the start fails, saying which.
 */
async function replicaFollows(primary: Database, replica: Database): Promise<void> {
  const want = await appliedMigrations(primary);
  const deadline = Date.now() + 10_000;
  for (;;) {
    let have: number;
    try {
      have = await appliedMigrations(replica);
    } catch (err) {
      throw new ConfigError(`DATABASE_READ_URL does not answer (${(err as Error).message.slice(0, 120)}); it must be a replica of DATABASE_URL`);
    }
    if (have >= want) return;
    if (Date.now() > deadline) {
      throw new ConfigError(`DATABASE_READ_URL has ${have} of the primary's ${want} migrations: it must be a streaming replica of DATABASE_URL (it is never migrated itself)`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
