/**
 * Following a whole chain's backfill jobs: thousands of them, polled every half second. A poll
 * reads the jobs in play (those started or done since the last, and a window of waiting ones),
 * never every job's state, and still counts each job once it completes.
 */
import { randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import type { BlockRange } from "../../indexer/backfill.js";
import { BACKFILL_QUEUE, enqueueChunks, openQueue, trackJobs, type ChunkResult } from "../../indexer/jobs.js";
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
