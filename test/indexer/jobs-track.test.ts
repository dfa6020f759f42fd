/**
 * Following a whole chain's backfill jobs: thousands of them, polled every half second. A poll
 * reads the jobs in play (those started or done since the last, and a window of waiting ones),
 * never every job's state, and still counts each job once it completes.
 */
import { randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { CHUNK_ATTEMPTS, type BlockRange } from "../../indexer/backfill.js";
import { BACKFILL_QUEUE, enqueueChunks, openQueue, trackJobs, workerSettings, type ChunkResult } from "../../indexer/jobs.js";
import { services } from "../support/db.js";
import { until } from "../support/wait.js";

it.skipIf(!services.redisUrl)(`polling 300 queued chunks reads the jobs in play, not all 300, and counts each one once done${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
  const at = { redisUrl: services.redisUrl!, prefix: `tokenpool-test-${randomUUID()}` };
  const q = openQueue(at);
  const chunks: BlockRange[] = Array.from({ length: 300 }, (_, i) => ({ from: 3_000 - 10 * i - 9, to: 3_000 - 10 * i }));
  const connection = new Redis(at.redisUrl, { maxRetriesPerRequest: null });
  let worker: Worker<BlockRange, ChunkResult> | undefined;
  try {
    const ids = await enqueueChunks(q.queue, chunks);
    let reads = 0;
    const getJob = q.queue.getJob.bind(q.queue);
    q.queue.getJob = ((id: string) => {
      reads++;
      return getJob(id);
    }) as typeof q.queue.getJob;
    const jobs = trackJobs(q.queue, ids);
    expect(await jobs.poll()).toEqual({ blocks: 0, completed: 0, swaps: 0, failed: [] });
    // Nothing started: one window of waiting jobs read (two slices of 64 at most).
    expect(reads).toBeLessThanOrEqual(128);

    worker = new Worker<BlockRange, ChunkResult>(BACKFILL_QUEUE, async (job) => ({ blocks: job.data.to - job.data.from + 1, swaps: 1 }), { connection, prefix: at.prefix, concurrency: 8 });
    await until("every job to be counted", async () => (await jobs.poll()).completed === 300, 120_000);
    expect(await jobs.poll()).toEqual({ blocks: 3_000, completed: 300, swaps: 300, failed: [] });
    // Once all are done a poll reads nothing: completed jobs are remembered.
    reads = 0;
    await jobs.poll();
    expect(reads).toBe(0);
  } finally {
    await worker?.close();
    connection.disconnect();
    await q.queue.obliterate({ force: true });
    await q.close();
  }
}, 180_000);

/** A worker that takes a job and dies with it: its processor never returns, and it is closed without finishing (the lock is no longer renewed). */
async function dyingWorker(at: { redisUrl: string; prefix: string }, lockSeconds: number): Promise<void> {
  const connection = new Redis(at.redisUrl, { maxRetriesPerRequest: null });
  let took!: () => void;
  const taken = new Promise<void>((resolve) => (took = resolve));
  const worker = new Worker<BlockRange, ChunkResult>(
    BACKFILL_QUEUE,
    () => {
      took();
      return new Promise<ChunkResult>(() => {});
    },
    { connection, prefix: at.prefix, ...workerSettings(lockSeconds) },
  );
  await taken;
  await worker.close(true);
  connection.disconnect();
}

it.skipIf(!services.redisUrl)(`a chunk whose worker dies twice is handed on each time and completes; run again after failing, it gets all its attempts back${services.redisUrl ? "" : " (skipped: TEST_REDIS_URL is not set)"}`, async () => {
  const at = { redisUrl: services.redisUrl!, prefix: `tokenpool-test-${randomUUID()}` };
  const q = openQueue(at);
  const connection = new Redis(at.redisUrl, { maxRetriesPerRequest: null });
  const workers: Worker<BlockRange, ChunkResult>[] = [];
  try {
    const [id] = await enqueueChunks(q.queue, [{ from: 1, to: 10 }]);
    // BullMQ's own default (maxStalledCount 1) fails the job at its second stall: "job stalled more than allowable limit".
    await dyingWorker(at, 1);
    await dyingWorker(at, 1);
    workers.push(new Worker<BlockRange, ChunkResult>(BACKFILL_QUEUE, async (job) => ({ blocks: job.data.to - job.data.from + 1, swaps: 0 }), { connection, prefix: at.prefix, ...workerSettings(1) }));
    await until("the chunk to complete on the third worker", async () => ["completed", "failed"].includes(await (await q.queue.getJob(id!))!.getState()), 30_000);
    const done = (await q.queue.getJob(id!))!;
    expect([await done.getState(), done.failedReason]).toEqual(["completed", undefined]);
    expect(done.stalledCounter).toBe(2);

    // A chunk that failed (here: an error on every attempt) is queued afresh by the next run, not retried with its old counts.
    await workers.pop()!.close();
    const [failing] = await enqueueChunks(q.queue, [{ from: 11, to: 20 }]);
    await q.queue.remove(failing!);
    await q.queue.add("chunk", { from: 11, to: 20 }, { jobId: failing, attempts: 1 });
    workers.push(new Worker<BlockRange, ChunkResult>(BACKFILL_QUEUE, () => Promise.reject(new Error("node gone")), { connection, prefix: at.prefix, ...workerSettings(1) }));
    await until("the chunk to fail", async () => (await (await q.queue.getJob(failing!))!.getState()) === "failed", 30_000);
    await workers.pop()!.close();
    await enqueueChunks(q.queue, [{ from: 11, to: 20 }]);
    const again = (await q.queue.getJob(failing!))!;
    expect([await again.getState(), again.attemptsMade, again.stalledCounter, again.opts.attempts]).toEqual(["waiting", 0, 0, CHUNK_ATTEMPTS]);
  } finally {
    for (const w of workers) await w.close();
    connection.disconnect();
    await q.queue.obliterate({ force: true });
    await q.close();
  }
}, 60_000);
