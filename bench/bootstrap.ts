/**
 * `npm run bench:bootstrap`: a bootstrap of BENCH_ACCOUNTS native accounts (default 1,000,000)
 * and BENCH_ASSET_ACCOUNTS asset accounts (default 200,000) from an RPC double (bench/rpc-double.ts:
 * the devnet's runtime and methods, generated storage) that adds BENCH_LATENCIES ms to every
 * message each way (default 50). Into Postgres (BENCH_DATABASE_URL or TEST_DATABASE_URL) or
 * PGlite on disk. Prints accounts/s, the time and peak RSS of each run; then kills a bootstrap in
 * a child process at half way (SIGKILL), resumes it, and checks that the holders equal those of
 * the uninterrupted run. Targets (README): ≤ 10 min and ≤ 500 MB at 50 ms.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "../indexer/chain/connect.js";
import { sql } from "drizzle-orm";
import { createDb, getTask, type Database } from "../db/index.js";
import { ChainReader } from "../indexer/chain/reader.js";
import { Bootstrapper } from "../indexer/bootstrap.js";
import type { BootstrapTask } from "../indexer/tasks.js";
import { oracleSettings } from "../indexer/service.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { startDouble as startDoubleProcess } from "./double.js";
import { freshStore } from "./stores.js";

const ACCOUNTS = process.env.BENCH_ACCOUNTS ?? "1000000";
const ASSET_ACCOUNTS = process.env.BENCH_ASSET_ACCOUNTS ?? "200000";
const LATENCIES = (process.env.BENCH_LATENCIES ?? "50").split(",").map(Number);
const self = new URL(import.meta.url).pathname;

const startDouble = (latencyMs: number) => startDoubleProcess({ accounts: ACCOUNTS, assetAccounts: ASSET_ACCOUNTS, latencyMs });

async function bootstrap(db: Database, url: string): Promise<{ seconds: number; task: BootstrapTask }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  const api = await connect(url);
  const reader = new ChainReader(api, config.nativeTokenId);
  const indexer = await Bootstrapper.create(db, reader, { oracle: oracleSettings(config), batchBlocks: 50, logger: createLogger((process.env.BENCH_LOG ?? "silent") as "silent") });
  const head = await reader.finalizedHead();
  const t0 = performance.now();
  await indexer.bootstrap(head, head.number);
  const seconds = (performance.now() - t0) / 1000;
  await api.disconnect();
  return { seconds, task: (await getTask<BootstrapTask>(db, "bootstrap"))! };
}

/** Order-independent fingerprint of the holders: count, sum of balances, sum of a hash of each row. */
async function fingerprint(db: Database): Promise<string> {
  const result = (await db.execute(sql`select count(*)::text as n, sum(balance)::text as total, sum(hashtext(token_id || '|' || account || '|' || balance)::bigint)::text as h from holders`)) as unknown as
    | { rows: Record<string, string>[] }
    | Record<string, string>[];
  const row = Array.isArray(result) ? result[0]! : result.rows[0]!;
  return `${row.n} rows, sum ${row.total}, hash ${row.h}`;
}

async function child(): Promise<void> {
  const handle = await createDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR ?? "./data" });
  await bootstrap(handle.db, process.argv[3]!);
}

async function main(): Promise<void> {
  const results: Record<string, unknown>[] = [];
  let reference: string | undefined;
  let lastUrl: { url: string; child: ChildProcess } | undefined;
  for (const latencyMs of LATENCIES) {
    lastUrl?.child.kill("SIGTERM");
    const started = performance.now();
    lastUrl = await startDouble(latencyMs);
    console.log(`RPC double ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${ACCOUNTS} + ${ASSET_ACCOUNTS} accounts, ${latencyMs} ms each way)`);
    const store = await freshStore();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
    const { seconds, task } = await bootstrap(store.handle.db, lastUrl.url);
    clearInterval(sampler);
    reference = await fingerprint(store.handle.db);
    const row = { latencyMs, store: store.label, accounts: task.accounts, holders: task.holders, seconds: Math.round(seconds), "accounts/s": Math.round(task.accounts / seconds), "peak RSS MB": Math.round(peak / 2 ** 20) };
    results.push(row);
    console.log(JSON.stringify(row));
    await store.drop();
  }
  console.table(results);

  // A kill at half way: a child process bootstraps, is killed, and this process resumes.
  const store = await freshStore({ onDisk: true });
  await store.handle.close();
  const proc = spawn(process.execPath, ["--import", "tsx", self, "child", lastUrl!.url], { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...store.env } });
  // PGlite on disk allows one process per folder: then the child is killed after half the
  // uninterrupted run's time instead of at half its task row's count.
  const watcher = store.env.DATABASE_URL ? await createDb({ databaseUrl: store.env.DATABASE_URL }) : undefined;
  const total = Number(ACCOUNTS) + Number(ASSET_ACCOUNTS);
  const half = results[results.length - 1]!.seconds as number;
  const killAt = Date.now() + (half * 1000) / 2;
  let exited = false;
  const exit = new Promise((r) => proc.once("exit", () => r((exited = true))));
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    if (exited) throw new Error("the child finished its bootstrap before it could be killed half way: use more accounts");
    const task = watcher ? await getTask<BootstrapTask>(watcher.db, "bootstrap") : undefined;
    if (watcher ? (task?.accounts ?? 0) >= total / 2 : Date.now() >= killAt) break;
  }
  proc.kill("SIGKILL");
  await exit;
  await watcher?.close();
  const resumed = await createDb({ databaseUrl: store.env.DATABASE_URL || undefined, dataDir: store.env.DATA_DIR ?? "memory://" });
  const before = (await getTask<BootstrapTask>(resumed.db, "bootstrap"))!;
  console.log(`killed (SIGKILL) at ${before.accounts} of ${total} accounts; resuming`);
  const { seconds, task } = await bootstrap(resumed.db, lastUrl!.url);
  const after = await fingerprint(resumed.db);
  console.log(`resumed (${task.resumed}×) and finished in ${Math.round(seconds)} s: ${after}`);
  console.log(`uninterrupted run:                     ${reference}`);
  console.log(after === reference ? "same holders as the uninterrupted run" : "DIFFERENT holders from the uninterrupted run");
  await resumed.close();
  await store.drop().catch(() => {});
  lastUrl!.child.kill("SIGTERM");
  if (after !== reference) process.exitCode = 1;
}

if (process.argv[2] === "child") await child();
else await main();
process.exit(process.exitCode ?? 0);
