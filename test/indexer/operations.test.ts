/**
 * Real-scale operations on the devnet (issue 15): a bootstrap killed mid-way resumes the same
 * snapshot, or replaces it when the node pruned its block — without ghost rows; a follower
 * whose next block's state is pruned stops with an error saying what to do, or re-bootstraps
 * with INDEXER_REBOOTSTRAP=auto; the pipelined catch-up writes exactly the sequential path's
 * rows with fewer calls per block; a fresh store's history backfill gives the 24 h figures of
 * a store that followed every block. Stopping (SIGTERM, or the writer lock lost) ends a
 * bootstrap after the page in flight, and a writer that lost the lock commits no further page;
 * a running follower keeps a heartbeat, and /health says "stale" when no indexer writes it.
 */
import { ApiPromise, WsProvider } from "@polkadot/api";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { createDb, getCheckpoint, getHeartbeat, getTask, INDEXED_TABLES, type Database, type DbHandle, type WriterLock } from "../../db/index.js";
import { WriterLockLost } from "../../db/writer-lock.js";
import { ChainReader } from "../../indexer/chain/reader.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { fundMarketAccounts, seedMarket, type MarketSummary } from "../../indexer/devnet/scenario.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import { Follower, type FollowerOptions } from "../../indexer/follower.js";
import { Bootstrapper } from "../../indexer/bootstrap.js";
import type { BootstrapTask, HistoryTask } from "../../indexer/tasks.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp } from "../support/app.js";
import { chainSnapshot, dbSnapshot } from "../support/chain.js";
import { startRpcRelay, type RpcRelay } from "../support/rpc-relay.js";
import { until } from "../support/wait.js";
import { captureLog } from "../support/log.js";
import { IndexerMetrics, startMetricsServer } from "../../shared/metrics.js";
import { parseMetrics } from "../support/metrics.js";
import { dbTargets, memoryStore, services } from "../support/db.js";

const genesis = loadConfig().devnetGenesis;
const config = loadConfig({ ORACLE_MIN_LIQUIDITY_USD: "1" });
const logger = createLogger("silent");
const LONG = 240_000;
const base = { oracle: oracleSettings(config), batchBlocks: 4, logger, nativeTokenId: 0 };
const pg = dbTargets.find((t) => t.name === "postgres")!;

/** Every indexed table's rows in a canonical order, without the columns that hold the wall clock. */
async function dump(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of INDEXED_TABLES) {
    if (table === "indexer_tasks" || table === "checkpoints") continue;
    const rows = (await select<Record<string, unknown>>(db, sql.raw(`select * from "${table}"`))).map((r) => {
      const { updated_at, recorded_at, completed_at, ...rest } = r;
      return JSON.stringify(rest, (_, v) => (typeof v === "bigint" ? v.toString() : v));
    });
    out[table] = rows.sort();
  }
  return out;
}

/** Rows of a raw query on either driver (PGlite answers { rows }, postgres.js an array). */
async function select<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

async function holderCountsExact(db: Database): Promise<void> {
  const result = (await db.execute(sql`
    select coalesce(c.token_id, h.token_id) as token_id, c.holders as counted, h.n as actual
    from holder_counts c full join (select token_id, count(*) as n from holders group by token_id) h on h.token_id = c.token_id
    where coalesce(c.holders, 0) <> coalesce(h.n, 0)`)) as unknown as { rows?: unknown[] } | unknown[];
  expect(Array.isArray(result) ? result : result.rows).toEqual([]);
}

describe("operations on the devnet", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  const opened: DbHandle[] = [];
  const relays: RpcRelay[] = [];
  const apis: ApiPromise[] = [];

  const store = async () => {
    const handle = await memoryStore();
    opened.push(handle);
    return handle;
  };
  const connectTo = async (url: string) => {
    const a = await ApiPromise.create({ provider: new WsProvider(url), noInitWarn: true });
    apis.push(a);
    return a;
  };
  const relay = async (latencyMs = 0) => {
    const r = await startRpcRelay(devnet.wsUrl, { latencyMs });
    relays.push(r);
    return r;
  };
  const head = async () => {
    const hash = (await api.rpc.chain.getFinalizedHead()).toHex();
    return { hash, number: (await api.rpc.chain.getHeader(hash)).number.toNumber() };
  };
  const newBlock = async () => {
    await api.rpc("dev_newBlock" as never);
    return head();
  };
  /** Storage entries of the balance maps at a block (what a snapshot reads). */
  const entries = async (hash: string) => {
    const at = await api.at(hash);
    return (await at.query.system.account.keys()).length + (await at.query.assets.account.keys()).length + (await at.query.foreignAssets.account.keys()).length;
  };
  /** A bootstrapper that "crashes" (throws) once the snapshot has committed `after` entries. */
  const crashing = (db: Database, a: ApiPromise, after: number) =>
    Bootstrapper.create(db, new ChainReader(a, 0), {
      ...base,
      bootstrapPageSize: 8,
      onTask: (_name, state) => {
        const t = state as BootstrapTask;
        if (!t.finished && t.accounts >= after) throw new Error("killed mid-bootstrap");
      },
    });

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await connectTo(devnet.wsUrl);
    await fundMarketAccounts(api, { holders: 30 });
  }, LONG);

  afterAll(async () => {
    for (const a of apis) await a.disconnect().catch(() => {});
    for (const r of relays) await r.close();
    for (const h of opened) await h.close();
    await devnet?.close();
  }, LONG);

  it("a bootstrap killed mid-way resumes the same snapshot at its pinned block, reads no entry twice, and ends equal to chain storage", async () => {
    const { db } = await store();
    const pinned = await head();
    await expect((await crashing(db, api, 16)).bootstrap(pinned, pinned.number)).rejects.toThrow("killed mid-bootstrap");
    const aborted = (await getTask<BootstrapTask>(db, "bootstrap"))!;
    expect(aborted).toMatchObject({ number: pinned.number, finished: false, map: 0 });
    expect(aborted.accounts).toBe(16);
    expect(await getCheckpoint(db)).toBeUndefined();
    const health = async () => {
      const t = buildApp(db);
      return (await (await t.app.request("/health", { headers: await authHeader(t, `ops${Math.random()}@example.com`) })).json()) as { indexer: { bootstrap: Record<string, unknown> | null } };
    };
    expect((await health()).indexer.bootstrap).toMatchObject({ block: pinned.number, finished: false, accounts: 16, resumed: 0 });

    const later = await newBlock();
    expect(later.number).toBeGreaterThan(pinned.number);
    const resumed = await Bootstrapper.create(db, new ChainReader(api, 0), { ...base, bootstrapPageSize: 8 });
    await resumed.bootstrap(later, later.number);
    const done = (await getTask<BootstrapTask>(db, "bootstrap"))!;
    expect(done).toMatchObject({ number: pinned.number, hash: pinned.hash, finished: true, resumed: 1 });
    expect(done.accounts).toBe(await entries(pinned.hash));
    expect((await getCheckpoint(db))!.blockNumber).toBe(pinned.number);
    expect(await dbSnapshot(db)).toEqual(await chainSnapshot(api, pinned.hash));
    await holderCountsExact(db);
    expect((await health()).indexer.bootstrap).toMatchObject({ block: pinned.number, finished: true, accounts: done.accounts, resumed: 1 });
  }, LONG);

  it("a snapshot whose block the node pruned is replaced by one at the head, and rows of accounts reaped in between do not stay", async () => {
    const { db } = await store();
    const first = await head();
    await expect((await crashing(db, api, 24)).bootstrap(first, first.number)).rejects.toThrow("killed mid-bootstrap");
    const row = (await select<{ account: string }>(db, sql`select account from holders where token_id = 0 order by account limit 1`))[0]!;
    expect(row.account).toMatch(/^[1-9A-HJ-NP-Za-km-z]{47,48}$/);
    // The account is reaped on chain after the aborted snapshot read it.
    await api.rpc("dev_setStorage" as never, { System: { Account: [[[row.account], null]] } } as never);
    await newBlock();
    // A pruned node keeps recent blocks' state (the head's parent's too): `first` is older.
    const second = await newBlock();
    const pruned = await relay();
    pruned.discarded.add(first.hash);
    const replaced = await Bootstrapper.create(db, new ChainReader(await connectTo(pruned.url), 0), { ...base, bootstrapPageSize: 8 });
    await replaced.bootstrap(second, second.number);
    const done = (await getTask<BootstrapTask>(db, "bootstrap"))!;
    expect(done).toMatchObject({ number: second.number, finished: true, resumed: 0 });
    expect(done.note).toContain(`no longer has the state of block ${first.number}`);
    const snapshot = await dbSnapshot(db);
    expect(snapshot.holders[`0|${row.account}`]).toBeUndefined();
    expect(snapshot).toEqual(await chainSnapshot(api, second.hash));
    await holderCountsExact(db);
  }, LONG);

  it("a follower whose next block's state is pruned stops naming the block and what to do; with INDEXER_REBOOTSTRAP=auto it takes a new snapshot", async () => {
    const handle = await store();
    const options = (wsUrl: string, extra: Partial<FollowerOptions> = {}): FollowerOptions => ({ ...base, wsUrl, retryMs: 50, historyHours: 0, ...extra });
    const first = new Follower(handle.db, options(devnet.wsUrl));
    first.start();
    await until("the follower to bootstrap", () => first.status.block !== null);
    await first.stop();
    const checkpoint = first.status.block!;
    const keys = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const alice = createSubmitter(api, keys.dev.Alice);
    await alice.send(api.tx.balances.transferKeepAlive(keys.dev.Dave.address, 7_000_000_000n), "a transfer after the checkpoint");
    for (let i = 0; i < 3; i++) await newBlock();
    const tip = await head();
    const pruned = await relay();
    // The state of the second block after the checkpoint is gone: the start check passes, the catch-up meets it.
    pruned.discarded.add((await api.rpc.chain.getBlockHash(checkpoint + 2)).toHex());
    const fatal: Error[] = [];
    const refusing = new Follower(handle.db, options(pruned.url, { onFatal: (err) => fatal.push(err) }));
    refusing.start();
    await until("the follower to stop for good", () => refusing.status.fatal !== null);
    await refusing.stop();
    expect(fatal).toHaveLength(1);
    expect(refusing.status.fatal).toContain(`no longer has the state of block ${checkpoint + 2}`);
    expect(refusing.status.fatal).toMatch(/archive node.*INDEXER_REBOOTSTRAP=auto/);
    expect((await getCheckpoint(handle.db))!.blockNumber).toBe(checkpoint);

    const auto = new Follower(handle.db, options(pruned.url, { rebootstrap: "auto" }));
    auto.start();
    await until("the follower to re-bootstrap at the head", () => (auto.status.block ?? 0) >= tip.number);
    await auto.stop();
    expect(auto.status.fatal).toBeNull();
    const task = (await getTask<BootstrapTask>(handle.db, "bootstrap"))!;
    expect(task.number).toBe(tip.number);
    // The note names where the store stood, not the earlier snapshot's block.
    expect(task.note).toContain(`re-bootstrap at block ${tip.number} of a store indexed to block ${checkpoint}`);
    expect(await dbSnapshot(handle.db)).toEqual(await chainSnapshot(api, tip.hash));
    await holderCountsExact(handle.db);
  }, LONG);

  it("the indexer's metrics: block, head, lag, blocks committed, commit time, RPC latency by method, bootstrap progress — scraped and moving", async () => {
    const { db } = await store();
    const metrics = new IndexerMetrics();
    const follower = new Follower(db, { ...base, wsUrl: devnet.wsUrl, historyHours: 0, metrics });
    metrics.attach(() => follower.status);
    const server = await startMetricsServer([metrics.registry], 0, "127.0.0.1");
    const scrape = async () => parseMetrics(await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text());
    try {
      // The RPC histogram is the process's (metrics.ts): other files of this worker add to it too.
      const finalizedCalls = (await scrape()).get('tokenpool_rpc_request_duration_seconds_count{method="chain_getFinalizedHead"}') ?? 0;
      follower.start();
      await until("the follower to bootstrap", () => follower.status.block !== null);
      let m = await scrape();
      expect(m.get("tokenpool_indexer_block")).toBe(follower.status.block);
      expect(m.get("tokenpool_chain_finalized_block")).toBeGreaterThanOrEqual(follower.status.block!);
      expect(m.get('tokenpool_indexer_task_progress{task="bootstrap",measure="finished"}')).toBe(1);
      expect(m.get('tokenpool_rpc_request_duration_seconds_count{method="chain_getFinalizedHead"}')).toBeGreaterThan(finalizedCalls);
      const calls = m.get('tokenpool_rpc_request_duration_seconds_count{method="chain_getBlockHash"}') ?? 0;
      const from = follower.status.block!;
      await newBlock();
      await newBlock();
      await until("the follower to commit two blocks", () => (follower.status.block ?? 0) >= from + 2);
      m = await scrape();
      expect(m.get("tokenpool_indexer_block")).toBe(from + 2);
      expect(m.get("tokenpool_indexer_blocks_total")).toBe(2);
      expect(m.get("tokenpool_indexer_lag_blocks")).toBe(0);
      expect(m.get("tokenpool_indexer_lag_seconds")).toBeGreaterThanOrEqual(0);
      expect(m.get("tokenpool_indexer_batch_commit_duration_seconds_count")).toBeGreaterThanOrEqual(1);
      expect(m.get('tokenpool_rpc_request_duration_seconds_count{method="chain_getBlockHash"}')).toBeGreaterThan(calls);
      // The verification sweep: a full pass of the devnet's store, its length and end.
      await until("a verification pass", () => follower.status.sweep.lastPass !== null);
      m = await scrape();
      expect(m.get("tokenpool_indexer_sweep_passes_total")).toBeGreaterThanOrEqual(1);
      expect(m.get("tokenpool_indexer_sweep_last_pass_seconds")).toBe(follower.status.sweep.lastPass!.seconds);
      expect(m.get("tokenpool_indexer_sweep_last_pass_end_timestamp_seconds")).toBeCloseTo(Date.now() / 1000, -3);
    } finally {
      await follower.stop();
      await server.close();
    }
  }, LONG);

  it("stopped mid-bootstrap (SIGTERM), the follower ends after the page in flight; a restart resumes the same snapshot and ends equal to chain storage", async () => {
    const { db } = await store();
    const pinned = await head();
    const total = await entries(pinned.hash);
    // A node 25 ms away and pages of 4 entries: the whole snapshot takes many seconds.
    const far = await relay(25);
    const first = new Follower(db, { ...base, wsUrl: far.url, historyHours: 0, bootstrapPageSize: 4 });
    first.start();
    await until("a few pages of the snapshot", () => (first.status.progress.bootstrap?.done ?? 0) >= 12);
    const asked = Date.now();
    await first.stop();
    const stopMs = Date.now() - asked;
    const stopped = (await getTask<BootstrapTask>(db, "bootstrap"))!;
    expect(stopped).toMatchObject({ number: pinned.number, finished: false });
    expect(stopped.accounts).toBeLessThan(total);
    // One page (two round trips of 50 ms) and a disconnect, not the rest of the snapshot.
    expect(stopMs).toBeLessThan(2_500);
    expect(await getCheckpoint(db)).toBeUndefined();

    const second = new Follower(db, { ...base, wsUrl: devnet.wsUrl, historyHours: 0, bootstrapPageSize: 4 });
    second.start();
    await until("the restart to finish the snapshot", () => second.status.block !== null);
    await second.stop();
    const done = (await getTask<BootstrapTask>(db, "bootstrap"))!;
    expect(done).toMatchObject({ number: pinned.number, hash: pinned.hash, finished: true, resumed: 1 });
    // No entry read twice, none skipped.
    expect(done.accounts).toBe(total);
    expect((await getCheckpoint(db))!.blockNumber).toBe(pinned.number);
    expect(await dbSnapshot(db)).toEqual(await chainSnapshot(api, pinned.hash));
    await holderCountsExact(db);
  }, LONG);

  it.skipIf(pg.skip)(`a writer whose lock is lost mid-bootstrap commits no further page; the standby resumes the snapshot and ends equal to chain storage${pg.skip ? ` (skipped: ${pg.skip})` : ""}`, async () => {
    const a = await pg.open();
    const b = await createDb({ databaseUrl: a.url!, maxConnections: 2 });
    const admin = postgres(services.databaseUrl!, { max: 1, onnotice: () => {} });
    let writer: Follower | undefined;
    try {
      const pinned = await head();
      const lock = (await a.tryWriterLock()) as WriterLock;
      expect(lock).toBeDefined();
      const far = await relay(25);
      // The writer's fence, counted: every page it tries to commit passes through it.
      let refusals = 0;
      const fence = async (tx: Database) => {
        try {
          await lock.fence(tx);
        } catch (err) {
          if (err instanceof WriterLockLost) refusals += 1;
          throw err;
        }
      };
      writer = new Follower(a.db, { ...base, wsUrl: far.url, historyHours: 0, bootstrapPageSize: 4, retryMs: 50, fence });
      writer.start();
      const stored = async () => (await getTask<BootstrapTask>(a.db, "bootstrap"))?.accounts ?? 0;
      await until("a few pages of the snapshot", async () => (await stored()) >= 12);

      // The lock's connection dies (Postgres frees the lock); the writer is not told, and goes on.
      const [held] = await admin<{ pid: number }[]>`
        select pid from pg_locks where locktype = 'advisory' and objid = 7262022 and granted and database = (select oid from pg_database where datname = ${new URL(a.url!).pathname.slice(1)})`;
      await admin`select pg_terminate_backend(${held!.pid})`;
      await until("the lock's backend to exit", async () => (await admin`select 1 from pg_stat_activity where pid = ${held!.pid} union all select 1 from pg_locks where pid = ${held!.pid}`).length === 0, 10_000);
      // The writer goes on and its next page is refused by the fence (pages are committed one
      // after another: whatever passed the fence before has landed by then)…
      await until("the fence to refuse a page", () => refusals >= 1, 20_000);
      const atLoss = await stored();
      // …and so is every page after it: the writer keeps trying, and the store does not move.
      await until("two more refusals", () => refusals >= 3, 20_000);
      expect(await stored()).toBe(atLoss);
      expect((await getTask<BootstrapTask>(a.db, "bootstrap"))!.finished).toBe(false);
      expect(await getCheckpoint(a.db)).toBeUndefined();

      // The standby takes the lock and continues the same snapshot, alone.
      const next = (await b.tryWriterLock()) as WriterLock;
      expect(next).toBeDefined();
      const standby = new Follower(b.db, { ...base, wsUrl: devnet.wsUrl, historyHours: 0, fence: next.fence });
      standby.start();
      await until("the standby to finish the snapshot", () => standby.status.block !== null);
      await standby.stop();
      await writer.stop();
      const done = (await getTask<BootstrapTask>(b.db, "bootstrap"))!;
      expect(done).toMatchObject({ number: pinned.number, finished: true });
      expect(done.resumed).toBeGreaterThanOrEqual(1);
      expect(done.accounts).toBe(await entries(pinned.hash));
      expect(await dbSnapshot(b.db)).toEqual(await chainSnapshot(api, pinned.hash));
      await holderCountsExact(b.db);
      await next.release();
      await lock.release();
    } finally {
      await writer?.stop();
      await b.close();
      await admin.end();
      await a.drop();
    }
  }, LONG);

  it("a follower keeps a heartbeat while it follows and stops when it cannot reach the node; /health then says stale", async () => {
    const handle = await store();
    const near = await relay();
    const log = captureLog();
    const follower = new Follower(handle.db, { ...base, logger: log.logger, wsUrl: near.url, historyHours: 0, heartbeatMs: 200, retryMs: 50 });
    // Every failed attempt is logged with its count in a row ("connection lost…", then "stuck…").
    const reconnects = () => log.records().filter((r) => typeof r.failures === "number").length;
    const health = async () => (await buildApp(handle.db).get("/health")).json() as Promise<{ status: string; chain: { finalized: number | null }; indexer: { block: number | null; lag: number | null; heartbeatAge?: number } }>;
    try {
      follower.start();
      await until("the follower to follow", () => follower.status.block !== null);
      await until("a heartbeat", async () => (await getHeartbeat(handle.db))?.block === follower.status.block);
      const first = (await getHeartbeat(handle.db))!;
      // Idle at the head it asks the node for the head, and the heartbeat moves on.
      await until("the heartbeat to be rewritten", async () => (await getHeartbeat(handle.db))!.at > first.at, 10_000);
      const tip = await newBlock();
      await until("the new block", () => follower.status.block === tip.number);
      await until("the heartbeat to see it", async () => (await getHeartbeat(handle.db))!.finalized === tip.number, 10_000);
      const live = await health();
      expect(live).toMatchObject({ status: "ok", chain: { finalized: tip.number }, indexer: { block: tip.number, lag: 0 } });
      expect(live.indexer.heartbeatAge).toBeLessThanOrEqual(2);

      // The node goes away: the follower retries, and writes no heartbeat.
      const before = reconnects();
      await near.close();
      await until("the follower to lose the node", () => reconnects() > before, 20_000);
      // Progress marked just before the loss may still be written at the next tick: the
      // heartbeat is read once two reads a few periods apart agree.
      let last = (await getHeartbeat(handle.db))!.at;
      for (let tries = 0; ; tries++) {
        await new Promise((r) => setTimeout(r, 3 * 200));
        const again = (await getHeartbeat(handle.db))!.at;
        if (again.getTime() === last.getTime()) break;
        expect(tries, "the heartbeat is still written 6 s after the node went away").toBeLessThan(10);
        last = again;
      }
      const lost = performance.now();
      // Another failed attempt (each waits for the connection to fail), and at least five
      // heartbeat periods: the follower is alive and retrying, and writes not one heartbeat.
      await until("another attempt", () => reconnects() >= before + 2 && performance.now() - lost >= 5 * 200, 60_000);
      expect((await getHeartbeat(handle.db))!.at).toEqual(last);
    } finally {
      await follower.stop();
    }
    // Stopped, and the chain goes on: /health still answers 200, but says stale with the age.
    await newBlock();
    await handle.db.execute(sql`update indexer_tasks set updated_at = now() - interval '90 seconds' where name = 'heartbeat'`);
    const answer = await health();
    expect(answer).toMatchObject({ status: "stale", indexer: { lag: 0 } });
    expect(answer.indexer.heartbeatAge).toBeGreaterThanOrEqual(90);
  }, LONG);

  describe("catching up and history", () => {
    let market: MarketSummary;
    const followers: { handle: DbHandle; relay: RpcRelay; follower?: Follower }[] = [];
    let blocks = 0;

    beforeAll(async () => {
      // Two stores bootstrapped at the same block, then stopped while the market is made.
      for (let i = 0; i < 2; i++) followers.push({ handle: await store(), relay: await relay() });
      // The verification sweep off: its reads are its own (test/indexer/sweep.test.ts), not the block path's counted here.
      const bootstrapped = followers.map(({ handle }) => new Follower(handle.db, { ...base, wsUrl: devnet.wsUrl, historyHours: 0, sweepReadsPerSecond: 0 }));
      for (const f of bootstrapped) f.start();
      await until("both stores to bootstrap", () => bootstrapped.every((f) => f.status.block !== null));
      for (const f of bootstrapped) await f.stop();
      expect(bootstrapped[0]!.status.block).toBe(bootstrapped[1]!.status.block);
      market = await seedMarket(api, { holders: 30 });
      // Empty blocks after the market's: more blocks, so per-block costs stand out from fixed ones.
      for (let i = 0; i < 6; i++) await newBlock();
      const tip = (await head()).number;
      blocks = tip - bootstrapped[0]!.status.block!;
      expect(blocks).toBeGreaterThanOrEqual(11);
      followers.forEach((f, i) => {
        f.follower = new Follower(f.handle.db, { ...base, wsUrl: f.relay.url, historyHours: 0, prefetchBlocks: i === 0 ? 1 : 16, sweepReadsPerSecond: 0 });
        f.follower.start();
      });
      await until(`both stores to reach block ${tip}`, () => followers.every((f) => (f.follower!.status.block ?? 0) >= tip));
      for (const f of followers) await f.follower!.stop();
    }, LONG);

    it("blocks fetched ahead write exactly the rows of the block-by-block path, with no header or version call per block", async () => {
      const [sequential, pipelined] = followers;
      const a = await dump(sequential!.handle.db);
      expect(a.swaps!.length).toBeGreaterThan(3);
      expect(a.pools!.length).toBeGreaterThan(2);
      expect(await dump(pipelined!.handle.db)).toEqual(a);
      // Each block's runtime comes from its own state, read with its events: no header or
      // runtime-version call per block on either path (a constant few: the connection's, the
      // start's checks, the runtime's metadata once), and a hash, the raw events and the state
      // its events touched per block.
      const calls = (r: RpcRelay) => r.total(["chain_getHeader", "state_getRuntimeVersion", "state_getMetadata"]);
      for (const f of followers) expect(calls(f.relay)).toBeLessThan(blocks);
      for (const f of followers) expect(f.relay.total(["chain_getBlockHash"])).toBeGreaterThanOrEqual(blocks);
      // Ahead, a block whose reads were planned before a block in between moved the market reads
      // again at its turn: some more calls, never a multiple.
      expect(pipelined!.relay.total()).toBeLessThanOrEqual(1.5 * sequential!.relay.total());
    }, LONG);

    it("a fresh store backfills its history in the background: the 24 h figures equal those of a store that followed every block", async () => {
      const full = followers[0]!.handle;
      const fresh = await store();
      const follower = new Follower(fresh.db, { ...base, wsUrl: devnet.wsUrl, historyHours: 24, historyChunkBlocks: 5 });
      follower.start();
      await until("the history to finish", async () => (await getTask<HistoryTask>(fresh.db, "history"))?.finished === true);
      await follower.stop();
      const task = (await getTask<HistoryTask>(fresh.db, "history"))!;
      expect(task.from).toBe(1);
      expect(task.done).toBe(task.to - task.from + 1);
      expect(follower.status.progress.history).toEqual({ done: task.done, total: task.done, finished: true });
      const t = buildApp(fresh.db);
      const health = (await (await t.app.request("/health", { headers: await authHeader(t, "history@example.com") })).json()) as { indexer: Record<string, unknown> };
      expect(health.indexer.history).toEqual({ from: 1, to: task.to, hours: 24, done: task.done, finished: true, error: null });
      expect(health.indexer.bootstrap).toMatchObject({ block: task.to, finished: true });
      const figures = async (db: Database) => {
        const t = buildApp(db);
        const auth = await authHeader(t);
        const get = async (path: string) => (await t.app.request(path, { headers: auth })).json();
        const pairs = market.pools.map((p) => `/pool/stats/0/${p.assetId}`);
        return { all: await get("/pool/stats"), pairs: await Promise.all(pairs.map(get)) };
      };
      const want = await figures(full.db);
      expect(JSON.stringify(want)).toMatch(/"swaps24h":[1-9]/);
      expect(await figures(fresh.db)).toEqual(want);
    }, LONG);

    it("stopped while it backfills its history, the follower gives up the chunk in flight at its next block; a restart does it again", async () => {
      const fresh = await store();
      // One chunk of every block, fetched one after the other from a node 50 ms away: slow.
      const far = await relay(50);
      const options = { ...base, historyHours: 24, historyChunkBlocks: 500, prefetchBlocks: 1 };
      const first = new Follower(fresh.db, { ...options, wsUrl: far.url });
      first.start();
      await until("some history", () => (first.status.progress.history?.done ?? 0) >= 4);
      const asked = Date.now();
      await first.stop();
      const stopMs = Date.now() - asked;
      const progress = first.status.progress.history!;
      expect(progress.done).toBeLessThan(progress.total!);
      expect((await getTask<HistoryTask>(fresh.db, "history"))!.finished).toBe(false);
      expect(await select(fresh.db, sql`select * from backfill_chunks`)).toEqual([]);
      expect(stopMs).toBeLessThan(3_000);

      const second = new Follower(fresh.db, { ...options, wsUrl: devnet.wsUrl });
      second.start();
      await until("the history to finish", async () => (await getTask<HistoryTask>(fresh.db, "history"))?.finished === true);
      await second.stop();
      const task = (await getTask<HistoryTask>(fresh.db, "history"))!;
      expect(task.done).toBe(task.to - task.from + 1);
    }, LONG);
  });
});
