/**
 * Backfill chunks as BullMQ jobs on Redis, so that any number of `tokenpool worker` processes,
 * on any machine, share one range. A job is one chunk; its id is the chunk's range, so enqueuing
 * a range again (after a crash of the CLI, say) joins the jobs already there instead of
 * duplicating them. BullMQ retries a failing job with exponential backoff and hands a job whose
 * worker died (stalled) to another worker.
 */
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { Database } from "../db/index.js";
import { backfillChunk, Connection, CHUNK_ATTEMPTS, RETRY_BASE_MS, type BackfillOptions, type BlockRange } from "./backfill.js";

export const BACKFILL_QUEUE = "tokenpool-backfill";

export interface ChunkResult {
  blocks: number;
  swaps: number;
}

/** BullMQ ids may not contain ":"; the range is the identity of a job. */
export const jobId = (r: BlockRange): string => `chunk-${r.from}-${r.to}`;

/** Workers block on Redis, so their connection must never give up on a command. */
function redis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

export interface BackfillQueue {
  queue: Queue<BlockRange, ChunkResult>;
  close(): Promise<void>;
}

/** Where the queue lives: BullMQ keys are `{prefix}:tokenpool-backfill:…`. */
export interface QueueAt {
  redisUrl: string;
  prefix: string;
}

export function openQueue(at: QueueAt): BackfillQueue {
  const connection = redis(at.redisUrl);
  const queue = new Queue<BlockRange, ChunkResult>(BACKFILL_QUEUE, { connection, prefix: at.prefix });
  return {
    queue,
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

/**
 * Adds one job per chunk. A job already queued, running or delayed for the same range is kept
 * (another run's, or this run's before a crash); a failed or completed one is replaced by a new
 * job with all its attempts (the caller only passes chunks it wants done, e.g. with --redo).
 */
export async function enqueueChunks(queue: Queue<BlockRange, ChunkResult>, chunks: BlockRange[]): Promise<string[]> {
  const ids: string[] = [];
  for (const chunk of chunks) {
    const id = jobId(chunk);
    ids.push(id);
    const existing = await queue.getJob(id);
    if (existing) {
      // A failed job is added again rather than retried: a retry keeps the job's count of
      // stalls (BullMQ's stalledCounter), so a chunk that had failed through its workers dying
      // would fail again at its next stall.
      const state = await existing.getState();
      if (state !== "completed" && state !== "failed") continue;
      await existing.remove();
    }
    await queue.add("chunk", chunk, {
      jobId: id,
      attempts: CHUNK_ATTEMPTS,
      backoff: { type: "exponential", delay: RETRY_BASE_MS },
      removeOnComplete: { age: 7 * 86_400 },
      removeOnFail: { age: 7 * 86_400 },
    });
  }
  return ids;
}

export interface Progress {
  /** Blocks committed by the given jobs. */
  blocks: number;
  completed: number;
  /** Swaps written by the completed jobs. */
  swaps: number;
  /** Jobs that used up their attempts, with the last error. */
  failed: { id: string; reason: string }[];
}

/** Where the given jobs stand; a job reports its committed blocks as its progress. */
export function jobsProgress(queue: Queue<BlockRange, ChunkResult>, ids: string[]): Promise<Progress> {
  return trackJobs(queue, ids, Number.POSITIVE_INFINITY).poll();
}

/** Waiting jobs in a row after which the rest are taken to be waiting too (the queue is first in, first out). */
const LOOKAHEAD = 64;

/**
 * Where the given jobs stand, polled again and again at the cost of the jobs in play, not of
 * the whole range: a whole chain is thousands of jobs, and reading each one's state every half
 * second would keep Redis busy for nothing. A completed job is remembered; the others are read
 * in the order they were queued until `lookahead` waiting ones in a row (the rest wait behind
 * them, as the queue is first in, first out).
 */
export function trackJobs(queue: Queue<BlockRange, ChunkResult>, ids: string[], lookahead = LOOKAHEAD): { poll(): Promise<Progress> } {
  const completed = new Map<string, ChunkResult>();
  return {
    async poll() {
      const progress: Progress = { blocks: 0, completed: 0, swaps: 0, failed: [] };
      let waiting = 0;
      for (let i = 0; i < ids.length && waiting < lookahead; i += LOOKAHEAD) {
        const slice = ids.slice(i, i + LOOKAHEAD).filter((id) => !completed.has(id));
        const states = await Promise.all(
          slice.map(async (id) => {
            const job = await queue.getJob(id);
            return { id, job, state: job ? await job.getState() : undefined };
          }),
        );
        for (const { id, job, state } of states) {
          if (!job) continue;
          if (state === "completed") completed.set(id, { blocks: job.data.to - job.data.from + 1, swaps: job.returnvalue?.swaps ?? 0 });
          else if (state === "waiting") waiting++;
          else {
            waiting = 0;
            if (state === "failed") progress.failed.push({ id, reason: job.failedReason });
            progress.blocks += typeof job.progress === "number" ? job.progress : 0;
          }
        }
      }
      for (const r of completed.values()) {
        progress.completed += 1;
        progress.blocks += r.blocks;
        progress.swaps += r.swaps;
      }
      return progress;
    },
  };
}

export interface WorkerOptions extends QueueAt {
  db: Database;
  wsUrl: string;
  options: BackfillOptions;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** BACKFILL_JOB_LOCK_SECONDS: the lock on a running job, and the interval of the stalled-job check. */
  lockSeconds: number;
}

/**
 * The BullMQ settings of a backfill worker. A job whose worker dies is handed on; BullMQ fails
 * it once it has been handed on more than `maxStalledCount` times (1 by default, and the count
 * survives retries), so a chunk whose workers died twice — two machines lost in one night, a
 * rolling restart — would fail the whole run. A dead worker is as much a failed attempt as an
 * error: it gets as many (CHUNK_ATTEMPTS).
 */
export function workerSettings(lockSeconds: number): { lockDuration: number; stalledInterval: number; maxStalledCount: number } {
  const lockMs = lockSeconds * 1_000;
  return { lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: CHUNK_ATTEMPTS };
}

/**
 * A BullMQ worker running backfill chunks over one chain connection, dropped after any failure
 * so that the retry starts on a fresh socket. close() stops taking jobs and waits for the
 * running ones: SIGTERM loses nothing.
 */
export function startWorker(w: WorkerOptions): { worker: Worker<BlockRange, ChunkResult>; close(): Promise<void> } {
  const connection = redis(w.redisUrl);
  const log = w.options.logger;
  const chain = new Connection(w.wsUrl);
  const processor = async (job: Job<BlockRange, ChunkResult>): Promise<ChunkResult> => {
    let committed = 0;
    try {
      return await backfillChunk(w.db, await chain.get(), job.data, w.options, (n) => {
        committed += n;
        void job.updateProgress(committed).catch(() => {});
      });
    } catch (err) {
      await chain.reset();
      throw err;
    }
  };
  // A dead worker's job goes back to the queue once its lock has expired and a stalled-job check
  // has seen it twice: within about two locks. A shorter lock hands it on sooner, but the lock is
  // renewed at most every half of it, so a worker whose event loop stalls longer than that can
  // lose a job it is still running. Another worker then runs the chunk too: wasted, not wrong (its
  // rows are keyed by block and event and written with ON CONFLICT: the same values again). A job
  // taken over more than CHUNK_ATTEMPTS times fails, and with it the run, until the same command
  // is run again (workerSettings).
  const worker = new Worker<BlockRange, ChunkResult>(BACKFILL_QUEUE, processor, { connection, prefix: w.prefix, concurrency: w.concurrency, ...workerSettings(w.lockSeconds) });
  worker.on("completed", (job, result) => log.info({ job: job.id, ...result }, "backfill: chunk done"));
  worker.on("failed", (job, err) => log.warn({ job: job?.id, attempt: job?.attemptsMade, err: err.message }, "backfill: chunk failed"));
  worker.on("error", (err) => log.error({ err: err.message }, "backfill: worker error"));
  return {
    worker,
    async close() {
      await worker.close();
      await chain.reset();
      connection.disconnect();
    },
  };
}

export async function queueCounts(at: QueueAt): Promise<Record<string, number>> {
  const { queue, close } = openQueue(at);
  try {
    return await queue.getJobCounts("waiting", "active", "delayed", "failed", "completed");
  } finally {
    await close();
  }
}
