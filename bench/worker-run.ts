/**
 * One backfill worker process of `npm run bench:worker` (bench/worker.ts): indexes blocks
 * FROM..TO from WS_URL into DATABASE_URL as `tokenpool backfill` does with one worker (runLocal,
 * chunks of CHUNK blocks, PREFETCH blocks fetched ahead), and prints one JSON line: blocks,
 * wall seconds, and this process's CPU seconds (user + system) over the run.
 */
import { createDb } from "../db/index.js";
import { runLocal, splitRange } from "../indexer/backfill.js";
import { oracleSettings } from "../indexer/service.js";
import { loadConfig, type LogLevel } from "../shared/config.js";
import { createLogger } from "../shared/logger.js";

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`bench/worker-run.ts: ${name} is not set`);
  return v;
};
const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
const handle = await createDb({ databaseUrl: env("DATABASE_URL"), maxConnections: 4 });
const chunks = splitRange({ from: Number(env("FROM")), to: Number(env("TO")) }, Number(env("CHUNK")));
const options = { oracle: oracleSettings(config), nativeTokenId: config.nativeTokenId, batchBlocks: config.indexerBatchBlocks, prefetchBlocks: Number(env("PREFETCH")), logger: createLogger((process.env.WORKER_LOG ?? "silent") as LogLevel) };
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const done = await runLocal({ db: handle.db, wsUrl: env("WS_URL"), chunks, workers: 1, options, onBlocks: () => {} });
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await handle.close();
process.stdout.write(`${JSON.stringify({ blocks: done.blocks, swaps: done.swaps, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
process.exit(0);
