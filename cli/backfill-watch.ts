/**
 * What a running `tokenpool backfill` shows: the progress bar or lines (blocks, rate, ETA) with
 * the store's history coverage (its first event block and its gaps, as the API's answers state
 * them), and the same figures in backfill_runs every few seconds, for `tokenpool status`,
 * /health and the indexer's metrics.
 */
import { historyCoverage, startBackfillRun, updateBackfillRun, type BackfillRunStart, type Database, type HistoryCoverage } from "../db/index.js";
import { progressReporter } from "./progress.js";

const WRITE_EVERY_MS = 2_000;

export function coverageText(c: HistoryCoverage): string {
  if (c.historyFrom === null) return "no history yet";
  const gaps = c.gaps === 0 ? "no gaps" : `${c.gaps}${c.moreGaps ? "+" : ""} gap${c.gaps === 1 ? "" : "s"} (${c.gapBlocks} blocks)`;
  return `history from block ${c.historyFrom}, ${gaps}`;
}

export interface RunWatch {
  /** Blocks done in all (including those done before this run). */
  blocks(done: number): void;
  /** Chunks done in all. */
  chunks(done: number): void;
  readonly rate: number;
  /** The run's end: its state written, the last line shown; the coverage then. */
  finish(state: "done" | "interrupted" | "failed", error?: string): Promise<string>;
}

export async function watchRun(db: Database, start: BackfillRunStart, stream: NodeJS.WriteStream = process.stderr): Promise<RunWatch> {
  const id = await startBackfillRun(db, start);
  let coverage = coverageText(await historyCoverage(db));
  let blocks = start.blocksDone;
  let chunks = start.chunksDone;
  const reporter = progressReporter("backfill", start.blocksTotal, start.blocksDone, stream, "blocks", () => coverage);
  const write = async (state?: "done" | "interrupted" | "failed", error?: string) => {
    coverage = coverageText(await historyCoverage(db));
    await updateBackfillRun(db, id, { blocksDone: blocks, chunksDone: chunks, blocksPerSecond: reporter.rate, ...(state ? { state, error: error ?? null } : {}) });
  };
  // A write that fails (the store restarting) is tried again at the next tick: the run goes on.
  let writing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    writing = writing.then(() => write()).catch(() => {});
  }, WRITE_EVERY_MS);
  return {
    blocks(done) {
      blocks = done;
      reporter.update(done);
    },
    chunks(done) {
      chunks = done;
    },
    get rate() {
      return reporter.rate;
    },
    async finish(state, error) {
      clearInterval(timer);
      await writing;
      await write(state, error);
      reporter.stop();
      return coverage;
    },
  };
}
