/**
 * The writer lock on Postgres: one holder at a time, and a holder whose lock connection died
 * can no longer commit (the fence), even before it notices.
 */
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, getCheckpoint, WriterLockLost, type DbHandle, type WriterLock } from "../../db/index.js";
import { Batch } from "../../indexer/writer.js";
import { dbTargets, services } from "../support/db.js";
import { until } from "../support/wait.js";

const pg = dbTargets.find((t) => t.name === "postgres")!;

describe.skipIf(pg.skip)(`writer lock (postgres)${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, () => {
  let a: DbHandle & { drop(): Promise<void>; url?: string };
  let b: DbHandle;
  let admin: postgres.Sql;
  beforeAll(async () => {
    a = await pg.open();
    b = await createDb({ databaseUrl: a.url!, maxConnections: 2 });
    admin = postgres(services.databaseUrl!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await b?.close();
    await admin?.end();
    await a?.drop();
  });

  it("has one holder; when its connection dies the fence stops its commits and another process takes over", async () => {
    const first = (await a.tryWriterLock()) as WriterLock;
    expect(first).toBeDefined();
    expect(await b.tryWriterLock()).toBeUndefined();

    const batch = () => {
      const x = new Batch();
      x.blocks.push({ number: 7, hash: "0x07", timestamp: 1_795_000_000 });
      return x;
    };
    await batch().commit(a.db, { blockNumber: 7, blockHash: "0x07", chainFinalized: 7 }, first.fence);
    expect((await getCheckpoint(a.db))?.blockNumber).toBe(7);

    // The lock's connection drops (network cut, server restart): Postgres releases the lock.
    const [lock] = await admin<{ pid: number }[]>`
      select pid from pg_locks where locktype = 'advisory' and objid = 7262022 and granted and database = (select oid from pg_database where datname = ${new URL(a.url!).pathname.slice(1)})`;
    await admin`select pg_terminate_backend(${lock!.pid})`;
    // pg_terminate_backend only signals the backend; it is gone (and the lock free) a moment later.
    const gone = async () =>
      (await admin`select 1 from pg_stat_activity where pid = ${lock!.pid} union all select 1 from pg_locks where pid = ${lock!.pid}`).length === 0;
    await until("the lock's backend to exit", gone, 10_000);
    expect(await first.alive()).toBe(false);

    const next = defined(await b.tryWriterLock());
    const late = batch();
    late.blocks[0] = { number: 8, hash: "0x08", timestamp: 1_795_000_012 };
    await expect(late.commit(a.db, { blockNumber: 8, blockHash: "0x08", chainFinalized: 8 }, first.fence)).rejects.toThrow(WriterLockLost);
    expect((await getCheckpoint(a.db))?.blockNumber).toBe(7);

    await late.commit(b.db, { blockNumber: 8, blockHash: "0x08", chainFinalized: 8 }, next.fence);
    expect((await getCheckpoint(b.db))?.blockNumber).toBe(8);
    await next.release();
    await first.release();
  });

  it("is taken while the pool's connections are busy and then cut by the server (a restart): never stranded behind them", async () => {
    // b's pool has two connections: both held by long statements, then terminated by the server
    // — what a PostgreSQL restart does to an indexer's pool. A lock taken through the pool
    // (postgres.js reserve(), queued behind them) failed with their error here, and in the
    // fault campaign never settled at all (porsager/postgres#1195). It needs none of them.
    const marker = `writer-lock-busy-${Date.now()}`;
    const busy = [0, 1].map(() => b.db.execute(sql.raw(`select pg_sleep(30) /* ${marker} */`)).catch(() => "cut"));
    await until("both of the pool's connections to be busy", async () => (await admin`select pid from pg_stat_activity where query like ${`%${marker}%`} and pid <> pg_backend_pid()`).length === 2, 10_000);
    const attempt = b.tryWriterLock();
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where query like ${`%${marker}%`} and pid <> pg_backend_pid()`;
    expect(await Promise.all(busy)).toEqual(["cut", "cut"]);
    const settled = await Promise.race([attempt, new Promise((resolve) => setTimeout(() => resolve("still waiting after 15 s"), 15_000))]);
    expect(settled).not.toBe("still waiting after 15 s");
    const lock = settled as WriterLock;
    expect(lock).toBeDefined();
    const holders = () => admin`select pid from pg_locks where locktype = 'advisory' and objid = 7262022 and granted and database = (select oid from pg_database where datname = ${new URL(a.url!).pathname.slice(1)})`;
    expect(await holders()).toHaveLength(1);
    await lock.release();
    await until("the lock's session to end", async () => (await holders()).length === 0, 10_000);
    // Released: the lock's session is gone, and another process takes it.
    const again = defined(await a.tryWriterLock());
    await again.release();
  }, 40_000);
});

function defined<T>(value: T | undefined): T {
  expect(value).toBeDefined();
  return value!;
}
