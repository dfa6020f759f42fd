/**
 * Backfill on the real runtime under chopsticks. A reference follower starts before the market
 * is seeded and sees every block; other stores are bootstrapped at the end, then backfill the
 * same blocks — shuffled, on two workers, twice, in process and as BullMQ jobs, through a
 * connection that drops — and must hold exactly the follower's history rows.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, schema, type Database, type DbHandle } from "../../db/index.js";
import { checkRange, runLocal, splitRange, type BackfillOptions, type BlockRange } from "../../indexer/backfill.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { fundMarketAccounts, seedMarket } from "../../indexer/devnet/scenario.js";
import { enqueueChunks, jobsProgress, openQueue, startWorker } from "../../indexer/jobs.js";
import { oracleSettings, startIndexer } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { createLogger } from "../../shared/logger.js";
import { historyRows } from "../support/chain-history.js";
import { oneStore, memoryStore, services } from "../support/db.js";
import { startRelay } from "../support/proxy.js";
import { until } from "../support/wait.js";

const genesis = loadConfig().devnetGenesis;
const config = loadConfig({ INDEXER_BATCH_BLOCKS: "3", ORACLE_MIN_LIQUIDITY_USD: "1", INDEXER_HISTORY_HOURS: "0" });
const logger = createLogger("silent");
const options: BackfillOptions = { oracle: oracleSettings(config), nativeTokenId: config.nativeTokenId, batchBlocks: 3, logger };
const LONG = 240_000;
const target = oneStore("postgres");


/** Current state, which a backfill must never touch. */
async function currentState(db: Database) {
  const { tokens, holders, pools, checkpoints } = schema;
  return {
    tokens: await db.select().from(tokens).orderBy(asc(tokens.id)),
    holders: await db.select().from(holders).orderBy(asc(holders.tokenId), asc(holders.account)),
    pools: await db.select().from(pools).orderBy(asc(pools.token0Id), asc(pools.token1Id)),
    checkpoints: (await db.select().from(checkpoints)).map(({ updatedAt: _, ...cp }) => cp),
  };
}

/** Runs the CLI without blocking this process, which hosts the devnet the CLI talks to. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/tokenpool.mjs", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe(`backfill on the devnet (${target.name})`, () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let reference: DbHandle;
  /**
   * Blocks the reference follower indexed one by one after its bootstrap, up to the block before
   * the other stores' bootstrap (a bootstrap writes every price and reserve of its own block).
   */
  let range: BlockRange;
  const opened: Array<{ drop(): Promise<void> }> = [];

  /** A store bootstrapped at the end of the range by a follower: no history before it. */
  async function bootstrappedStore() {
    const handle = await target.open();
    opened.push(handle);
    const follower = startIndexer(config, logger, handle, devnet.wsUrl);
    await until("a bootstrap at the head", () => (follower.status.block ?? 0) > range.to);
    await follower.stop();
    return handle;
  }

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    await fundMarketAccounts(api, { holders: 8 });
    reference = await memoryStore();
    const follower = startIndexer(config, logger, reference, devnet.wsUrl);
    await until("the reference follower to bootstrap", () => follower.status.block !== null);
    const first = follower.status.block! + 1;
    const market = await seedMarket(api, { holders: 8 });
    await until(`the reference follower to reach block ${market.block}`, () => (follower.status.block ?? 0) >= market.block);
    await follower.stop();
    range = { from: first, to: market.block - 1 };
  }, LONG);

  afterAll(async () => {
    for (const h of opened) await h.drop();
    await reference?.close();
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  it("chunks in shuffled order on two workers, run twice, give exactly the follower's history and leave current state alone", async () => {
    const expected = await historyRows(reference.db, range);
    expect(expected.swaps.length).toBeGreaterThan(3);
    expect(expected.swaps.some((s) => s.hop === 1)).toBe(true);
    expect(expected.liquidity.some((l) => l.kind === "remove")).toBe(true);

    const store = await bootstrappedStore();
    const before = await currentState(store.db);
    expect(await historyRows(store.db, range)).not.toEqual(expected);

    let committed = 0;
    const chunks = shuffled(splitRange(range, 4));
    const first = await runLocal({ db: store.db, wsUrl: devnet.wsUrl, chunks, workers: 2, options, onBlocks: (n) => (committed += n) });
    expect(committed).toBe(range.to - range.from + 1);
    expect(first.swaps).toBe(expected.swaps.length);
    expect(await historyRows(store.db, range)).toEqual(expected);
    expect(await currentState(store.db)).toEqual(before);

    await runLocal({ db: store.db, wsUrl: devnet.wsUrl, chunks: shuffled(chunks), workers: 2, options, onBlocks: () => {} });
    expect(await historyRows(store.db, range)).toEqual(expected);
    expect(await currentState(store.db)).toEqual(before);
  }, LONG);

  it("a chunk whose connection drops mid-way is retried from its start and ends the same", async () => {
    const expected = await historyRows(reference.db, range);
    const store = await bootstrappedStore();
    const relay = await startRelay({ host: "127.0.0.1", port: devnet.port });
    let cuts = 0;
    let net = 0;
    try {
      await runLocal({
        db: store.db,
        wsUrl: relay.url,
        chunks: [range],
        workers: 1,
        options,
        onBlocks: (n) => {
          net += n;
          if (n > 0 && cuts === 0) {
            cuts++;
            relay.cut();
          }
        },
      });
    } finally {
      await relay.close();
    }
    expect(cuts).toBe(1);
    expect(net).toBe(range.to - range.from + 1);
    expect(await historyRows(store.db, range)).toEqual(expected);
  }, LONG);

  it("refuses ranges it must not write: from 0, to below from, above the finalized head or the follower's checkpoint", async () => {
    const store = await bootstrappedStore();
    const head = (await api.rpc.chain.getHeader()).number.toNumber();
    await expect(checkRange(store.db, api, { from: 0, to: 3 })).rejects.toThrow(/--from must be at least 1/);
    await expect(checkRange(store.db, api, { from: 5, to: 4 })).rejects.toThrow(/must not be below --from/);
    await expect(checkRange(store.db, api, { from: 1, to: head + 5 })).rejects.toThrow(/above the chain's finalized head/);
    await api.rpc("dev_newBlock" as never);
    await expect(checkRange(store.db, api, { from: 1, to: head + 1 })).rejects.toThrow(/above the follower's checkpoint/);
    await expect(checkRange(store.db, api, range)).resolves.toBeUndefined();
  }, LONG);

  it.skipIf(!services.redisUrl)(`as BullMQ jobs enqueued in shuffled order for two workers, twice${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
    const expected = await historyRows(reference.db, range);
    const store = await bootstrappedStore();
    const before = await currentState(store.db);
    const at = { redisUrl: services.redisUrl!, prefix: `tokenpool-test-${randomUUID()}` };
    const workers = [1, 2].map(() => startWorker({ ...at, db: store.db, wsUrl: devnet.wsUrl, options, concurrency: 1, lockSeconds: config.backfillJobLockSeconds }));
    const q = openQueue(at);
    try {
      for (let run = 0; run < 2; run++) {
        const ids = await enqueueChunks(q.queue, shuffled(splitRange(range, 3)));
        await until("every job to complete", async () => (await jobsProgress(q.queue, ids)).completed === ids.length);
        const progress = await jobsProgress(q.queue, ids);
        expect(progress.failed).toEqual([]);
        expect(progress.blocks).toBe(range.to - range.from + 1);
        expect(await historyRows(store.db, range)).toEqual(expected);
        expect(await currentState(store.db)).toEqual(before);
      }
    } finally {
      for (const w of workers) await w.close();
      await q.close();
    }
  }, LONG);

  it("tokenpool backfill shows progress, reports blocks/s, and a second run skips the chunks already done", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "tokenpool-backfill-"));
    const env = { ...process.env, WS_URL: devnet.wsUrl, DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "warn", INDEXER_BATCH_BLOCKS: "3", ORACLE_MIN_LIQUIDITY_USD: "1" };
    const args = ["backfill", "--from", String(range.from), "--to", String(range.to), "--chunk", "5", "--workers", "2"];
    const first = await cli(args, env);
    expect(first.stderr).toMatch(new RegExp(`backfill: ${range.to - range.from + 1}/${range.to - range.from + 1} blocks \\(100%\\), [\\d.]+ blocks/s, ETA`));
    expect(first.stdout).toMatch(new RegExp(`^backfill done: blocks ${range.from}-${range.to}, ${range.to - range.from + 1} indexed in [\\d.]+ s \\([\\d.]+ blocks/s, in-process\\), \\d+ swaps; history from block ${range.from}, no gaps\\n$`));
    expect(first.status).toBe(0);

    const second = await cli(args, env);
    expect(second.stdout).toMatch(/, 0 indexed in .* chunks were already done; history from block \d+, no gaps\n$/);
    expect(second.status).toBe(0);

    const handle = await createDb({ dataDir });
    try {
      expect(await historyRows(handle.db, range)).toEqual(await historyRows(reference.db, range));
    } finally {
      await handle.close();
    }
  }, LONG);
});
