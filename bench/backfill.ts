/**
 * `npm run bench:backfill`: blocks per second of `tokenpool backfill` with 1 and 2 workers, in
 * process and (with TEST_REDIS_URL/BENCH_REDIS_URL) as BullMQ jobs, into Postgres
 * (BENCH_DATABASE_URL or TEST_DATABASE_URL, a database of its own per run) or PGlite.
 *
 * The chain runs in a child process, as a real node would: the devnet is seeded, traded for
 * BENCH_BLOCKS blocks (default 60) and then left idle, so the backfill has the CPU to itself
 * apart from the chain answering its reads. Needs DEVNET_GENESIS.
 */
import { randomUUID } from "node:crypto";
import type { DbHandle } from "../db/index.js";
import { runLocal, splitRange, type BackfillOptions, type BlockRange } from "../indexer/backfill.js";
import { startChain } from "./chain.js";
import { enqueueChunks, jobsProgress, openQueue, startWorker } from "../indexer/jobs.js";
import { oracleSettings } from "../indexer/service.js";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";
import { freshStore } from "./stores.js";

const CHUNK = Number(process.env.BENCH_CHUNK ?? 10);

async function bullmq(redisUrl: string, lockSeconds: number, handle: DbHandle, wsUrl: string, options: BackfillOptions, chunks: BlockRange[], workers: number): Promise<void> {
  const at = { redisUrl, prefix: `tokenpool-bench-${randomUUID()}` };
  const running = Array.from({ length: workers }, () => startWorker({ ...at, db: handle.db, wsUrl, options, concurrency: 1, lockSeconds }));
  const q = openQueue(at);
  try {
    const ids = await enqueueChunks(q.queue, chunks);
    for (;;) {
      const p = await jobsProgress(q.queue, ids);
      if (p.failed.length > 0) throw new Error(`job ${p.failed[0]!.id} failed: ${p.failed[0]!.reason}`);
      if (p.completed === ids.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    for (const w of running) await w.close();
    await q.queue.obliterate({ force: true });
    await q.close();
  }
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  if (!config.devnetGenesis) {
    console.log("backfill bench skipped: set DEVNET_GENESIS");
    return;
  }
  const started = performance.now();
  const chainProcess = await startChain();
  console.log(`chain ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${chainProcess.head} blocks`);
  const options: BackfillOptions = { oracle: oracleSettings(config), nativeTokenId: config.nativeTokenId, batchBlocks: config.indexerBatchBlocks, logger: createLogger("silent") };
  const range = { from: 1, to: chainProcess.head };
  const chunks = splitRange(range, CHUNK);
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  const results: Record<string, string | number>[] = [];
  try {
    const runs: Array<["in-process" | "bullmq", number]> = [["in-process", 1], ["in-process", 2]];
    if (redisUrl) runs.push(["bullmq", 1], ["bullmq", 2]);
    else console.log("BullMQ runs skipped: set BENCH_REDIS_URL or TEST_REDIS_URL");
    for (const [mode, workers] of runs) {
      const store = await freshStore();
      try {
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        if (mode === "in-process") await runLocal({ db: store.handle.db, wsUrl: chainProcess.wsUrl, chunks, workers, options, onBlocks: () => {} });
        else await bullmq(redisUrl!, config.backfillJobLockSeconds, store.handle, chainProcess.wsUrl, options, chunks, workers);
        const seconds = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        // CPU of this (indexing) process over wall time: near 100 % means it is the bottleneck.
        const cpuPct = Math.round(((cpu.user + cpu.system) / 1e6 / seconds) * 100);
        results.push({ store: store.label, mode, workers, blocks: range.to, chunk: CHUNK, seconds: Number(seconds.toFixed(2)), "blocks/s": Number((range.to / seconds).toFixed(1)), "indexer CPU %": cpuPct });
      } finally {
        await store.drop();
      }
    }
  } finally {
    chainProcess.stop();
  }
  console.table(results);
  const one = results.find((r) => r.mode === "in-process" && r.workers === 1)!["blocks/s"] as number;
  const two = results.find((r) => r.mode === "in-process" && r.workers === 2)!["blocks/s"] as number;
  console.log(`2 workers / 1 worker (in-process): ${(two / one).toFixed(2)}×`);
}

await main();
process.exit(0);
