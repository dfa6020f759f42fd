/**
 * `tokenpool backfill`: plans the range (to the follower's checkpoint by default; chunks cut at
 * runtime upgrades, newest first: indexer/backfill-plan.ts), skips the chunks a previous run
 * finished or the store already holds, then runs the rest — as BullMQ jobs when REDIS_URL is set
 * (this process runs `--workers` of them and `tokenpool worker`s anywhere take the others), in
 * this process otherwise — showing progress and recording it for status, /health and metrics.
 */
import { BULK_MIN_BLOCKS, createDb, doneChunks, finishStages, planStages, type Database } from "../db/index.js";
import { checkRange, rangeKey, runLocal, type BackfillOptions, type BlockRange } from "../indexer/backfill.js";
import { checkDecodable, coveredChunks, planChunks, resolveRange, runtimeSegments, type RangeArgs, type RuntimeSegment } from "../indexer/backfill-plan.js";
import { connect } from "../indexer/chain/connect.js";
import { oracleSettings } from "../indexer/service.js";
import { enqueueChunks, openQueue, startWorker, trackJobs, type QueueAt, type WorkerOptions } from "../indexer/jobs.js";
import type { Config } from "../shared/config.js";
import { ConfigError } from "../shared/errors.js";
import type { Logger } from "../shared/logger.js";
import { watchRun } from "./backfill-watch.js";

export interface BackfillArgs extends RangeArgs {
  chunk: number;
  workers: number;
  /** Run chunks that a previous run already completed, too. */
  redo: boolean;
  /** Blocks of one empty partition the run must ask for to load it in bulk (db/queries/transfer-stages.ts); 0: never. Default BULK_MIN_BLOCKS. */
  bulkMinBlocks?: number;
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
  /** The store's history when the run ended ("history from block 1, no gaps"). */
  coverage: string;
}

export function backfillOptions(config: Config, logger: Logger): BackfillOptions {
  return { nativeTokenId: config.nativeTokenId, batchBlocks: config.indexerBatchBlocks, prefetchBlocks: config.indexerPrefetchBlocks, oracle: oracleSettings(config), logger };
}

const POLL_MS = 500;

const size = (rs: BlockRange[]) => rs.reduce((sum, r) => sum + r.to - r.from + 1, 0);

/** "2 runtimes (statemine 1000000 from block 1, statemine 1001002 from block 5301)" */
function runtimesText(segments: RuntimeSegment[]): string {
  const list = segments.slice(0, 5).map((s) => `${s.specName} ${s.specVersion} from block ${s.from}`);
  if (segments.length > 5) list.push(`… ${segments.length - 5} more`);
  return `${segments.length} runtime${segments.length === 1 ? "" : "s"} (${list.join(", ")})`;
}

/** The range, its runtimes (checked decodable) and its chunks, newest first. */
async function plan(db: Database, wsUrl: string, args: BackfillArgs) {
  const api = await connect(wsUrl);
  try {
    const range = await resolveRange(db, api, args);
    await checkRange(db, api, range);
    const { segments, reads } = await runtimeSegments(api, range);
    await checkDecodable(api, segments);
    return { range, segments, reads, chunks: planChunks(segments, args.chunk) };
  } finally {
    await api.disconnect();
  }
}

export async function runBackfill(config: Config, options: BackfillOptions, args: BackfillArgs, signal: AbortSignal, stream: NodeJS.WriteStream = process.stderr): Promise<BackfillSummary> {
  const wsUrl = config.wsUrl;
  if (!wsUrl) throw new ConfigError("WS_URL must be set for a backfill (ws:// or wss:// URL of an archive node), or pass --ws-url");
  if (!config.redisUrl && args.workers < 1) throw new ConfigError("--workers must be at least 1 without REDIS_URL (0 only enqueues jobs for `tokenpool worker`)");
  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
  try {
    await handle.migrate();
    const { range, segments, reads, chunks } = await plan(handle.db, wsUrl, args);
    const marked = new Set((await doneChunks(handle.db, range.from, range.to)).map((c) => rangeKey({ from: c.fromBlock, to: c.toBlock })));
    const covered = await coveredChunks(handle.db, chunks);
    const pending = args.redo ? chunks : chunks.filter((c) => !marked.has(rangeKey(c)) && !covered.has(c));
    // Stages a crashed run completed but did not attach, then this run's.
    await finishStagesLogged(handle.db, options);
    const staged = await planStages(handle.db, pending, args.bulkMinBlocks ?? BULK_MIN_BLOCKS);
    const bulk = staged.length > 0 ? `; transfers of ${staged.length} partition${staged.length === 1 ? "" : "s"} loaded in bulk (from block ${staged.join(", ")}: held once attached)` : "";
    const until = range.toSource === "--to" ? "" : range.toSource === "checkpoint" ? " (to the follower's checkpoint)" : " (to the finalized head: the store has no follower checkpoint)";
    stream.write(
      `backfill plan: blocks ${range.from}-${range.to}${until}, ${runtimesText(segments)} found in ${reads} version reads; ${chunks.length} chunks of up to ${args.chunk} blocks, newest first, ${chunks.length - pending.length} already done, ${pending.length} to run${bulk}\n`,
    );
    const total = range.to - range.from + 1;
    const initial = total - size(pending);
    const initialChunks = chunks.length - pending.length;
    const watch = await watchRun(handle.db, { fromBlock: range.from, toBlock: range.to, runtimes: segments.length, chunksTotal: chunks.length, chunksDone: initialChunks, blocksTotal: total, blocksDone: initial }, stream);
    const started = performance.now();
    let blocks = 0;
    let swaps = 0;
    let chunksDone = 0;
    const mode = config.redisUrl ? "bullmq" : "in-process";
    try {
      if (config.redisUrl) {
        const local = { concurrency: args.workers, lockSeconds: config.backfillJobLockSeconds };
        ({ blocks, swaps } = await runOnQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix }, handle.db, wsUrl, options, pending, local, signal, (n, c) => {
          watch.chunks(initialChunks + c);
          watch.blocks(initial + n);
        }));
      } else {
        ({ swaps } = await runLocal({
          db: handle.db,
          wsUrl,
          chunks: pending,
          workers: args.workers,
          options,
          signal,
          onBlocks: (n) => watch.blocks(initial + (blocks += n)),
          onChunk: () => watch.chunks(initialChunks + ++chunksDone),
        }));
      }
      await finishStagesLogged(handle.db, options);
    } catch (err) {
      await watch.finish("failed", err instanceof Error ? err.message : String(err)).catch(() => {});
      throw err;
    }
    const coverage = await watch.finish(signal.aborted ? "interrupted" : "done");
    const seconds = (performance.now() - started) / 1_000;
    return {
      from: range.from,
      to: range.to,
      blocks,
      skippedChunks: chunks.length - pending.length,
      swaps,
      seconds,
      blocksPerSecond: seconds > 0 ? blocks / seconds : 0,
      mode,
      interrupted: signal.aborted,
      coverage,
    };
  } finally {
    await handle.close();
  }
}

/** Finishes the stages completed chunks cover (finishStages), saying so in the log. */
async function finishStagesLogged(db: Database, options: BackfillOptions): Promise<void> {
  for (const f of await finishStages(db)) options.logger.info({ ...f }, "backfill: a stage of transfers finished");
}

async function runOnQueue(
  at: QueueAt,
  db: Database,
  wsUrl: string,
  options: BackfillOptions,
  chunks: BlockRange[],
  /** This process's own workers (concurrency 0: none, `tokenpool worker`s take the jobs). */
  local: Pick<WorkerOptions, "concurrency" | "lockSeconds">,
  signal: AbortSignal,
  onDone: (blocks: number, chunks: number) => void,
): Promise<{ blocks: number; swaps: number }> {
  const q = openQueue(at);
  const worker = local.concurrency > 0 ? startWorker({ ...at, db, wsUrl, options, ...local }) : undefined;
  if (!worker) options.logger.info({ jobs: chunks.length }, "backfill: jobs queued; waiting for `tokenpool worker` processes");
  try {
    const ids = await enqueueChunks(q.queue, chunks);
    const jobs = trackJobs(q.queue, ids);
    for (;;) {
      const p = await jobs.poll();
      onDone(p.blocks, p.completed);
      if (p.failed.length > 0) {
        const f = p.failed[0]!;
        throw new Error(`chunk ${f.id} failed after all its attempts: ${f.reason} (fix the cause and run the same command again to resume)`);
      }
      if (p.completed === ids.length || signal.aborted) return { blocks: p.blocks, swaps: p.swaps };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await worker?.close();
    await q.close();
  }
}
