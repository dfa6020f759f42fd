/**
 * What the follower says as it commits: each batch at debug (following a chain, that is a line a
 * block), and at info one summary at most every 30 s — blocks, events and swaps since the last
 * one, the rate, the block reached and how far behind the finalized head it is.
 */
import type { Logger } from "../shared/logger.js";

export interface CommittedBatch {
  from: number;
  to: number;
  blocks: number;
  events: number;
  swaps: number;
  skipped: number;
  /** Holder rows written. */
  holders: number;
  /** Blocks behind the finalized head after this batch. */
  lag: number;
  /** How long the batch took, fetch to commit. */
  ms: number;
}

export interface ProgressLog {
  committed(batch: CommittedBatch): void;
}

export const PROGRESS_EVERY_MS = 30_000;

export function createProgressLog(logger: Logger, everyMs = PROGRESS_EVERY_MS, now: () => number = Date.now): ProgressLog {
  // The window opens when the first batch started, not at construction: a bootstrap before it is not indexing time.
  let since: number | undefined;
  let blocks = 0;
  let events = 0;
  let swaps = 0;
  return {
    committed(batch) {
      logger.debug(batch, "indexer: batch committed");
      since ??= now() - batch.ms;
      blocks += batch.blocks;
      events += batch.events;
      swaps += batch.swaps;
      const ms = now() - since;
      if (ms < everyMs) return;
      const seconds = Math.round(ms / 1000);
      logger.info({ blocks, events, swaps, seconds, perSecond: Number(((blocks * 1000) / ms).toFixed(2)), block: batch.to, lag: batch.lag }, "indexer: blocks indexed");
      since = now();
      blocks = events = swaps = 0;
    },
  };
}
