/**
 * The indexer's long tasks as stored in indexer_tasks (and shown by /health and `tokenpool
 * status`): the bootstrap snapshot, the first start's history, the LP snapshot, and the re-reads
 * of state that changed without events.
 */
import type { Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import type { OracleSettings } from "./market.js";

export interface IndexerOptions {
  oracle: OracleSettings;
  /** Blocks per transaction while catching up. */
  batchBlocks: number;
  logger: Logger;
  /** Checks, inside each commit's transaction (each page of a bootstrap too), that this process is still the one writer. */
  fence?: (tx: Database) => Promise<void>;
  /**
   * Aborted when the process stops (SIGTERM, or the writer lock lost): a bootstrap then ends
   * after the page in flight with BootstrapStopped; its resume point is stored with each page.
   */
  signal?: AbortSignal;
  /** Storage entries per page of a bootstrap (default 1,000). */
  bootstrapPageSize?: number;
  /** Called with the state of a long task (bootstrap, history) each time it moves. */
  onTask?: (name: TaskName, state: BootstrapTask | HistoryTask) => void;
}

/** A bootstrap ended early because the process stops; a restart resumes the same snapshot. */
export class BootstrapStopped extends Error {
  override name = "BootstrapStopped";
}

export const BOOTSTRAP_TASK = "bootstrap";
export const HISTORY_TASK = "history";
/** The snapshot of LP positions (snapshotLpHolders): its block and the positions read. */
export const LP_TASK = "lp-holders";
export type TaskName = typeof BOOTSTRAP_TASK | typeof HISTORY_TASK;

/** A bootstrap snapshot as stored in indexer_tasks (and shown by /health and status). */
export interface BootstrapTask {
  /** The pinned block. */
  number: number;
  hash: string;
  /** Where the snapshot continues: an index in BALANCE_MAPS and the last storage key read of it. */
  map: number;
  lastKey: string | null;
  /** Storage entries read, all maps (zero balances too), and non-zero balances written. */
  accounts: number;
  holders: number;
  /** Entries read of the current map, and the share of its key space read. */
  mapEntries: number;
  fraction: number;
  /** Entries per second in this process; seconds left for the current map at that rate. */
  perSecond: number | null;
  etaSeconds: number | null;
  startedAt: string;
  /** Times a process continued it after an interruption. */
  resumed: number;
  finished: boolean;
  /** Why this snapshot was started or resumed, when it continues or replaces another. */
  note: string | null;
}

/** The first start's history backfill, as stored in indexer_tasks. */
export interface HistoryTask {
  from: number;
  to: number;
  hours: number;
  /** Blocks committed. */
  done: number;
  finished: boolean;
  /** Why it could not run (a pruned node), when it did not. */
  error: string | null;
}
