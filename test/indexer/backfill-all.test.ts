/**
 * `tokenpool backfill --all` on the devnet under chopsticks, from block 1 (issue 40's "done
 * when"): the whole chain on one worker and on three (BullMQ when TEST_REDIS_URL is set), into
 * separate stores, gives identical tables, equal to chain storage at sampled blocks; a run
 * SIGKILLed mid-chunk, in process or as BullMQ jobs, resumes with the same command; status
 * shows the run.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, latestBackfill, schema, type Database } from "../../db/index.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { seedMarket } from "../../indexer/devnet/scenario.js";
import { loadConfig } from "../../shared/config.js";
import { chainBlocks, chainSwaps, chainTransfers, storeBlocks, storeSwaps, storeTransfers } from "../support/chain-history.js";
import { chainSnapshot } from "../support/chain.js";
import { dbTargets, selectRows, services } from "../support/db.js";

const genesis = loadConfig().devnetGenesis;
const LONG = 300_000;
const postgresTarget = dbTargets.find((t) => t.name === "postgres" && !t.skip);
const mode = services.redisUrl ? "BullMQ" : "in process (TEST_REDIS_URL is not set)";

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process (this one hosts the devnet); `kill` ends it with SIGKILL when it resolves true. */
function cli(args: string[], env: NodeJS.ProcessEnv, kill?: () => Promise<boolean>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/tokenpool.mjs", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    let closed = false;
    child.on("close", (status, signal) => {
      closed = true;
      resolve({ status, signal, stdout, stderr });
    });
    const watch = async () => {
      while (!closed && !(await kill!())) await new Promise((r) => setTimeout(r, 20));
      if (!closed) child.kill("SIGKILL");
    };
    if (kill) watch().catch(reject);
  });
}

/** A store of its own: a Postgres database when TEST_DATABASE_URL is set, else a PGlite folder. */
async function newStore(): Promise<{ env: NodeJS.ProcessEnv; open(): Promise<{ db: Database; close(): Promise<void> }>; drop(): Promise<void> }> {
  if (postgresTarget) {
    const handle = await postgresTarget.open();
    return { env: { DATABASE_URL: handle.url!, DATA_DIR: "" }, open: async () => ({ db: handle.db, close: async () => {} }), drop: () => handle.drop() };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "tokenpool-backfill-all-"));
  return { env: { DATABASE_URL: "", DATA_DIR: dataDir }, open: () => createDb({ dataDir }), drop: async () => {} };
}

/** Every table's rows in column order, less the run's own bookkeeping (when it ran, how fast). */
async function everyTable(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  const tables = await selectRows<{ t: string }>(db, sql`select table_name as t from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`);
  for (const { t } of tables) {
    // How the runs went, not what they wrote: a run's record, and the stages of one that loaded in bulk.
    if (t === "backfill_runs" || t === "transfer_stages") continue;
    const cols = await selectRows<{ c: string }>(db, sql`select column_name as c from information_schema.columns where table_schema = current_schema() and table_name = ${t} and data_type <> 'timestamp with time zone' order by ordinal_position`);
    // Account ids are given out in the order addresses first arrive, which the chunks' order
    // decides: compared as the addresses they stand for (db/schema/transfers.ts).
    const named = (c: string) => (c === "from_id" || c === "to_id" ? `(select address from account_ids where id = "${c}") as "${c}"` : `"${c}"`);
    const list = t === "account_ids" ? `"address"` : cols.map(({ c }) => named(c)).join(", ");
    out[t] = await selectRows(db, sql.raw(`select ${list} from "${t}" order by ${t === "account_ids" ? "1" : cols.map((_, i) => i + 1).join(", ")}`));
  }
  return out;
}

describe("tokenpool backfill --all on the devnet, from block 1", () => {
  let devnet: Devnet;
  let api: ApiPromise;
  let head: number;
  const stores: Array<{ drop(): Promise<void> }> = [];

  beforeAll(async () => {
    devnet = await startDevnet({ genesis, port: 0 });
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    head = (await seedMarket(api, { holders: 8 })).block;
  }, LONG);

  afterAll(async () => {
    for (const s of stores) await s.drop();
    await api?.disconnect();
    await devnet?.close();
  }, LONG);

  const env = (store: { env: NodeJS.ProcessEnv }, redis: boolean): NodeJS.ProcessEnv => ({
    ...process.env,
    ...store.env,
    WS_URL: devnet.wsUrl,
    REDIS_URL: redis && services.redisUrl ? services.redisUrl : "",
    REDIS_PREFIX: `tokenpool-test-${randomUUID()}`,
    LOG_LEVEL: "warn",
    INDEXER_BATCH_BLOCKS: "2",
    ORACLE_MIN_LIQUIDITY_USD: "1",
  });

  /** The store holds what the chain has: every block, swap and transfer, and every pool's reserves at sampled blocks. */
  async function expectEqualsChain(db: Database) {
    const range = { from: 1, to: head };
    expect(await storeBlocks(db)).toEqual(await chainBlocks(api, range));
    const swaps = await storeSwaps(db, range);
    expect(swaps.length).toBeGreaterThan(3);
    expect(swaps).toEqual(await chainSwaps(api, range));
    expect(await storeTransfers(db, range)).toEqual(await chainTransfers(api, range));
    const r = schema.poolReserves;
    for (const n of [Math.floor(head / 2), head - 3, head]) {
      const chain = (await chainSnapshot(api, (await api.rpc.chain.getBlockHash(n)).toHex())).pools;
      expect(Object.keys(chain).length, `pools at block ${n}`).toBeGreaterThan(0);
      const store: typeof chain = {};
      for (const key of Object.keys(chain)) {
        const [t0, t1] = key.split("/").map(Number) as [number, number];
        const [row] = await db.select().from(r).where(and(eq(r.token0Id, t0), eq(r.token1Id, t1), lte(r.blockNumber, n))).orderBy(desc(r.blockNumber)).limit(1);
        if (row) store[key] = { reserve0: row.reserve0, reserve1: row.reserve1, lpSupply: row.lpSupply ?? "?", lpTokenId: chain[key]!.lpTokenId };
      }
      expect(store, `pool reserves at block ${n}`).toEqual(chain);
    }
  }

  it(`on 1 worker and on 3 (${mode}), separate stores end identical, equal to chain storage at sampled blocks; the plan and status say what ran`, async () => {
    const one = await newStore();
    const three = await newStore();
    stores.push(one, three);
    const a = await cli(["backfill", "--all", "--chunk", "2", "--workers", "1"], env(one, true));
    expect(a.status, a.stderr).toBe(0);
    const chunks = Math.ceil(head / 2);
    expect(chunks).toBeGreaterThanOrEqual(4);
    expect(a.stderr).toContain(
      `backfill plan: blocks 1-${head} (to the finalized head: the store has no follower checkpoint), 1 runtime (statemine 1000000 from block 1) found in 2 version reads; ${chunks} chunks of up to 2 blocks, newest first, 0 already done, ${chunks} to run\n`,
    );
    expect(a.stdout).toMatch(new RegExp(`^backfill done: blocks 1-${head}, ${head} indexed in [\\d.]+ s \\([\\d.]+ blocks/s, ${services.redisUrl ? "bullmq" : "in-process"}\\), \\d+ swaps; history from block 1, no gaps\\n$`));
    // The three workers load the transfers in bulk (db/queries/transfer-stages.ts): a stage of
    // partition 0, attached by whichever completes its last chunk; the tables end the same.
    const b = await cli(["backfill", "--from", "1", "--chunk", "2", "--workers", "3", "--bulk-min-blocks", "1"], env(three, true));
    expect(b.status, b.stderr).toBe(0);
    expect(b.stderr).toContain(`${chunks} to run; transfers of 1 partition loaded in bulk (from block 0: held once attached)\n`);
    expect(b.stdout).toMatch(/; history from block 1, no gaps\n$/);

    const [sa, sb] = [await one.open(), await three.open()];
    try {
      const tables = await everyTable(sa.db);
      expect(tables.swaps!.length).toBeGreaterThan(3);
      expect(tables.transfers!.length).toBeGreaterThan(3);
      expect(await selectRows(sb.db, sql`select partition_start::int as p, state from transfer_stages`)).toEqual([{ p: 0, state: "attached" }]);
      expect(tables.blocks!.length).toBe(head);
      expect(await everyTable(sb.db)).toEqual(tables);
      await expectEqualsChain(sa.db);
      expect(await latestBackfill(sa.db)).toMatchObject({ from: 1, to: head, runtimes: 1, chunksDone: chunks, chunksTotal: chunks, blocksDone: head, blocksTotal: head, state: "done", historyFrom: 1, gaps: 0, gapBlocks: 0 });
    } finally {
      await sa.close();
      await sb.close();
    }
    const status = await cli(["status"], env(one, false));
    expect(status.stdout).toMatch(new RegExp(`\\nbackfill: done, blocks 1–${head} \\(1 runtime\\), ${head}/${head} blocks, ${chunks}/${chunks} chunks, [\\d.]+ blocks/s; history from block 1, no gaps\\n`));
  }, LONG);

  /**
   * BACKFILL_JOB_LOCK_SECONDS of the BullMQ runs that kill a worker: its job is taken over within
   * about two of these (BullMQ's default, 30, made the resumed run wait 30–60 s for it).
   */
  const LOCK_SECONDS = 5;

  for (const queue of [false, true]) {
    const how = queue ? `as BullMQ jobs (the killed job is taken over once its lock expires: BACKFILL_JOB_LOCK_SECONDS=${LOCK_SECONDS})` : "in process";
    const skip = !postgresTarget ? "TEST_DATABASE_URL is not set" : queue && !services.redisUrl ? "TEST_REDIS_URL is not set" : undefined;
    it.skipIf(skip !== undefined)(`SIGKILLed mid-chunk ${how}, the same command resumes: done chunks skipped, the rest run, the store equal to the chain${skip ? ` (skipped: ${skip})` : ""}`, async () => {
      const store = await newStore();
      stores.push(store);
      const { db } = await store.open();
      const count = async (table: string) => Number((await selectRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from "${table}"`)))[0]!.n);
      const inDoneChunks = async () => Number((await selectRows<{ n: number }>(db, sql`select coalesce(sum(to_block - from_block + 1), 0)::int as n from backfill_chunks`))[0]!.n);
      // In bulk: the killed chunk's first batch is in the stage, and the resumed run loads it again (kept once at the attach).
      const args = ["backfill", "--all", "--chunk", "5", "--workers", "1", "--bulk-min-blocks", "1"];
      // The killed run's too: its worker set the lock's length when it took the job.
      const same = { ...env(store, queue), BACKFILL_JOB_LOCK_SECONDS: String(LOCK_SECONDS) };
      // Killed once a chunk is done and the next has committed a block of its own (a batch is one block).
      const killed = await cli(args, { ...same, INDEXER_BATCH_BLOCKS: "1" }, async () => (await count("backfill_chunks")) >= 1 && (await count("blocks")) > (await inDoneChunks()));
      expect(killed.signal).toBe("SIGKILL");
      const blocksThen = await count("blocks");
      expect(blocksThen).toBeGreaterThan(await inDoneChunks());
      expect(blocksThen).toBeLessThan(head);
      expect((await latestBackfill(db))?.state).toBe("running");

      const resumed = await cli(args, same);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/chunks were already done; history from block 1, no gaps\n$/);
      const seconds = Number(/ indexed in ([\d.]+) s /.exec(resumed.stdout)?.[1]);
      process.stdout.write(`[backfill-all] resumed run ${how}: ${seconds} s from its plan to its end\n`);
      // Under BullMQ's default lock the resumed run waited 30 s or more for the killed job (two
      // stalled-job checks 30 s apart); under a 5 s lock it is taken over within about 10 s.
      if (queue) expect(seconds, "the killed job was taken over within about two short locks, not BullMQ's 30 s and more").toBeLessThan(30);
      await expectEqualsChain(db);
      expect(await count("backfill_chunks")).toBe(Math.ceil(head / 5));
      expect(await selectRows(db, sql`select state from transfer_stages`)).toEqual([{ state: "attached" }]);
    }, LONG);
  }
});
