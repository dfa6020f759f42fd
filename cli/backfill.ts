/**
 * `tokenpool backfill`: checks the range, skips the chunks a previous run finished, then runs
 * the rest — as BullMQ jobs when REDIS_URL is set (this process runs `--workers` of them and
 * `tokenpool worker`s anywhere take the others), in this process otherwise — showing progress.
 */
import { createDb, doneChunks, type Database } from "../db/index.js";
import { checkRange, rangeKey, runLocal, splitRange, type BackfillOptions, type BlockRange } from "../indexer/backfill.js";
import { connect } from "../indexer/chain/connect.js";
import { oracleSettings } from "../indexer/service.js";
import { enqueueChunks, jobsProgress, openQueue, startWorker, type QueueAt } from "../indexer/jobs.js";
import type { Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";
import { progressReporter } from "./progress.js";

export interface BackfillArgs extends BlockRange {
  chunk: number;
  workers: number;
  /** Run chunks that a previous run already completed, too. */
  redo: boolean;
}

export interface BackfillSummary {
  from: number;
  to: number;
  /** Blocks indexed by this run (chunks done before are skipped). */
  blocks: number;
  skippedChunks: number;
  swaps: number;
  seconds: number;
  blocksPerSecond: number;
  mode: "bullmq" | "in-process";
  /** True when SIGTERM/SIGINT stopped the run before the end (re-run to resume). */
  interrupted: boolean;
}

const POLL_MS = 500;

export function backfillOptions(config: Config, logger: Logger): BackfillOptions {
  return { nativeTokenId: config.nativeTokenId, batchBlocks: config.indexerBatchBlocks, oracle: oracleSettings(config), logger };
}

export async function runBackfill(config: Config, options: BackfillOptions, args: BackfillArgs, signal: AbortSignal): Promise<BackfillSummary> {
  const wsUrl = config.wsUrl;
  if (!wsUrl) throw new ConfigError("WS_URL must be set for a backfill (ws:// or wss:// URL of an archive node), or pass --ws-url");
  if (!config.redisUrl && args.workers < 1) throw new ConfigError("--workers must be at least 1 without REDIS_URL (0 only enqueues jobs for `tokenpool worker`)");
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
  try {
    await handle.migrate();
    const api = await connect(wsUrl);
    try {
      await checkRange(handle.db, api, args);
    } finally {
      await api.disconnect();
    }
    const chunks = splitRange(args, args.chunk);
    const done = new Set(args.redo ? [] : (await doneChunks(handle.db, args.from, args.to)).map((c) => rangeKey({ from: c.fromBlock, to: c.toBlock })));
    const pending = chunks.filter((c) => !done.has(rangeKey(c)));
    const size = (rs: BlockRange[]) => rs.reduce((sum, r) => sum + r.to - r.from + 1, 0);
    const total = args.to - args.from + 1;
    const initial = total - size(pending);
    const reporter = progressReporter("backfill", total, initial);
    const started = performance.now();
    let blocks = 0;
    let swaps = 0;
    const mode = config.redisUrl ? "bullmq" : "in-process";
    try {
      if (config.redisUrl) {
        ({ blocks, swaps } = await runOnQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix }, handle.db, wsUrl, options, pending, args.workers, signal, (n) => reporter.update(initial + n)));
      } else {
        ({ swaps } = await runLocal({
          db: handle.db,
          wsUrl,
          chunks: pending,
          workers: args.workers,
          options,
          signal,
          onBlocks: (n) => reporter.update(initial + (blocks += n)),
        }));
      }
    } finally {
      reporter.stop();
    }
    const seconds = (performance.now() - started) / 1_000;
    return {
      from: args.from,
      to: args.to,
      blocks,
      skippedChunks: chunks.length - pending.length,
      swaps,
      seconds,
      blocksPerSecond: seconds > 0 ? blocks / seconds : 0,
      mode,
      interrupted: signal.aborted,
    };
  } finally {
    await handle.close();
  }
}

async function runOnQueue(
  at: QueueAt,
  db: Database,
  wsUrl: string,
  options: BackfillOptions,
  chunks: BlockRange[],
  workers: number,
  signal: AbortSignal,
  onDone: (blocks: number) => void,
): Promise<{ blocks: number; swaps: number }> {
  const q = openQueue(at);
  const local = workers > 0 ? startWorker({ ...at, db, wsUrl, options, concurrency: workers }) : undefined;
  if (!local) options.logger.info({ jobs: chunks.length }, "backfill: jobs queued; waiting for `tokenpool worker` processes");
  try {
    const ids = await enqueueChunks(q.queue, chunks);
    for (;;) {
      const p = await jobsProgress(q.queue, ids);
      onDone(p.blocks);
      if (p.failed.length > 0) {
        const f = p.failed[0]!;
        throw new Error(`chunk ${f.id} failed after all its attempts: ${f.reason} (fix the cause and run the same command again to resume)`);
      }
      if (p.completed === ids.length || signal.aborted) return { blocks: p.blocks, swaps: p.swaps };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await local?.close();
    await q.close();
  }
}
