/** What a follower is told (its options) and what it tells (its status: metrics, the CLI, tests). */
import type { IndexerMetrics } from "../shared/metrics.js";
import type { IndexerOptions, TaskName } from "./tasks.js";

export interface FollowerOptions extends IndexerOptions {
  wsUrl: string;
  nativeTokenId: number;
  /** First reconnect delay; doubles up to 30 s. */
  retryMs?: number;
  /**
   * When the store's checkpoint is not a block of this chain (another chain, or the devnet
   * started anew): "refuse" stops the follower with a fatal error naming both hashes (a store is
   * never mixed from two chains); "reset" empties the indexed data and bootstraps (the devnet of
   * `npm start`, a scratch chain that is rebuilt on every run). Default "refuse".
   */
  onOtherChain?: "refuse" | "reset";
  /** Called once when the follower stops for good (OtherChainError); the CLI exits 1. */
  onFatal?: (err: Error) => void;
  /** Blocks fetched ahead while catching up (1 = one block after the other). Default 32. */
  prefetchBlocks?: number;
  /**
   * When the node no longer has the state after the checkpoint (a pruned node and a store
   * that fell behind): "off" stops with a fatal error saying what to do; "auto" takes a new
   * snapshot at the head (the blocks in between are then missing from history).
   */
  rebootstrap?: "off" | "auto";
  /** Hours of history a fresh store backfills in the background after its bootstrap (0 = none). */
  historyHours?: number;
  /** Backfill chunk size and workers of that history. */
  historyChunkBlocks?: number;
  historyWorkers?: number;
  /** Prometheus metrics (the batch commit time is observed here; the rest read `status`). */
  metrics?: IndexerMetrics;
  /** How long the node may take to send the first finalized head of a subscription before the session reconnects. Default 60 s. */
  firstAnswerMs?: number;
  /** How often the heartbeat is written, and the finalized head asked for while idle at it. Default 5 s. */
  heartbeatMs?: number;
  /**
   * The verification sweep's node budget (sweep.ts): storage entries read per second at most;
   * 0 turns it off (then nothing finds state the chain changes without events). Default 4,000.
   */
  sweepReadsPerSecond?: number;
  /** Entries per sweep page (default 1,000). */
  sweepPageSize?: number;
  /**
   * Holder rows of tokens read again that are written with the batch that called for it; more
   * are read again after it, page by page (reread.ts). Default 100,000.
   */
  inlineRereadRows?: number;
}

export interface FollowerStatus {
  block: number | null;
  finalized: number | null;
  connected: boolean;
  /** Connections made so far; above 1 means the follower has reconnected. */
  sessions: number;
  /** Why the follower stopped for good (it no longer retries), or null. */
  fatal: string | null;
  /** Unix seconds (on chain) of the newest committed block. */
  blockTime: number | null;
  /** Blocks committed and undecodable events met by this process (the metrics' counters). */
  blocksIndexed: number;
  skippedEvents: number;
  /** Long tasks as they move: the bootstrap snapshot and the first start's history. */
  progress: Partial<Record<TaskName | "sweep", { done: number; total: number | null; finished: boolean }>>;
  /** The verification sweep as this process saw it: passes ended, differences found by "table.kind", the last pass. */
  sweep: { passes: number; drift: Record<string, number>; lastPass: { pass: number; startBlock: number; endBlock: number; seconds: number; endedAt: number } | null };
}
