/**
 * `npm run bench:sweep`: how long one full verification pass (indexer/sweep.ts) takes over a
 * store of BENCH_ACCOUNTS native accounts (default 1,500,000, Polkadot Asset Hub's count after
 * the staking migration) and BENCH_ASSET_ACCOUNTS asset accounts (default 200,000), against an
 * RPC double (bench/rpc-double.ts: the devnet's runtime and methods, generated storage) that adds
 * BENCH_LATENCY ms each way to every message (default 25: a 50 ms round trip). That pass is the
 * bound docs/chains.md states for a change the chain does not announce.
 *
 * The store is bootstrapped from a second double without latency (same generated storage), then
 * 300 rows are made wrong (100 deleted, 100 balances changed, 100 ghosts added); the pass must
 * find exactly those. Each budget of BENCH_SWEEP_BUDGETS (entries read per second; default the
 * indexer's default) is one pass. Prints seconds, entries/s, differences found and peak RSS.
 */
import { randomBytes } from "node:crypto";
import { encodeAddress } from "@polkadot/util-crypto";
import { sql } from "drizzle-orm";
import { connect } from "../indexer/chain/connect.js";
import { ChainReader } from "../indexer/chain/reader.js";
import { Bootstrapper } from "../indexer/bootstrap.js";
import { SWEEP_READS_PER_SECOND } from "../shared/config.js";
import { oracleSettings } from "../indexer/service.js";
import { RepairQueue } from "../indexer/repair.js";
import { Sweeper, type SweepState } from "../indexer/sweep.js";
import { deleteTask, getCheckpoint, type Database } from "../db/index.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { startDouble as startDoubleProcess } from "./double.js";
import { freshStore } from "./stores.js";

const ACCOUNTS = process.env.BENCH_ACCOUNTS ?? "1500000";
const ASSET_ACCOUNTS = process.env.BENCH_ASSET_ACCOUNTS ?? "200000";
const LATENCY = Number(process.env.BENCH_LATENCY ?? 25);
const BUDGETS = (process.env.BENCH_SWEEP_BUDGETS ?? String(SWEEP_READS_PER_SECOND)).split(",").map(Number);
const DRIFT = 100;

const startDouble = (latencyMs: number) => startDoubleProcess({ accounts: ACCOUNTS, assetAccounts: ASSET_ACCOUNTS, latencyMs, heapMb: 12288 });

const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
const silent = createLogger("silent");

/** 300 rows made wrong: deleted, changed, and ghosts (accounts the chain does not have). */
async function injectDrift(db: Database, ss58: number): Promise<void> {
  await db.execute(sql`delete from holders where (token_id, account) in (select token_id, account from holders where token_id = 0 order by account limit ${DRIFT})`);
  await db.execute(sql`update holders set balance = balance + 1 where (token_id, account) in (select token_id, account from holders where token_id = 0 order by account desc limit ${DRIFT})`);
  const ghosts = Array.from({ length: DRIFT }, () => encodeAddress(randomBytes(32), ss58));
  await db.execute(sql`insert into holders (token_id, account, balance, block_number) select 0, a, 1, 0 from unnest(${`{${ghosts.join(",")}}`}::text[]) a`);
}

async function pass(db: Database, url: string, readsPerSecond: number): Promise<Record<string, unknown>> {
  const api = await connect(url);
  const reader = new ChainReader(api, config.nativeTokenId);
  await reader.allTokenIds((await reader.blockByHash((await getCheckpoint(db))!.blockHash)).at);
  await deleteTask(db, "sweep");
  const queue = new RepairQueue();
  const found: Record<string, number> = {};
  const abort = new AbortController();
  let last: SweepState | undefined;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 500);
  // A stand-in follower: repairs are counted and settled at once (the store keeps its drift, so
  // every budget's pass finds the same).
  queue.onPost = () => queue.take()?.settle();
  const t0 = performance.now();
  const sweeper = new Sweeper({
    db,
    reader,
    queue,
    logger: silent,
    signal: abort.signal,
    readsPerSecond,
    onProgress: (state, drift) => {
      for (const d of drift) found[`${d.table}.${d.kind}`] = (found[`${d.table}.${d.kind}`] ?? 0) + 1;
      if (state.lastPass) (last = state), abort.abort();
    },
  });
  await sweeper.run().catch((err: Error) => {
    if (!abort.signal.aborted) throw err;
  });
  clearInterval(sampler);
  await api.disconnect();
  const seconds = (performance.now() - t0) / 1000;
  const entries = last!.lastPass!.checked;
  return { budget: readsPerSecond, latencyMs: LATENCY * 2, entries, seconds: Math.round(seconds), "entries/s": Math.round(entries / seconds), found: JSON.stringify(found), "peak RSS MB": Math.round(peak / 2 ** 20) };
}

async function main(): Promise<void> {
  const local = await startDouble(0);
  const store = await freshStore();
  const db = store.handle.db;
  const api = await connect(local.url);
  const reader = new ChainReader(api, config.nativeTokenId);
  const boot = await Bootstrapper.create(db, reader, { oracle: oracleSettings(config), batchBlocks: 50, logger: silent });
  const head = await reader.finalizedHead();
  const t0 = performance.now();
  await boot.bootstrap(head, head.number);
  console.log(`bootstrapped ${ACCOUNTS} + ${ASSET_ACCOUNTS} accounts in ${Math.round((performance.now() - t0) / 1000)} s (${store.label})`);
  await api.disconnect();
  local.child.kill("SIGTERM");
  await injectDrift(db, reader.ss58);
  const far = await startDouble(LATENCY);
  const rows: Record<string, unknown>[] = [];
  for (const budget of BUDGETS) {
    const row = { store: store.label, ...(await pass(db, far.url, budget)) };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  console.table(rows);
  far.child.kill("SIGTERM");
  await store.drop();
}

await main();
process.exit(0);
