/**
 * History on first start. A bootstrap writes current state only, so a new deployment's 24 h
 * figures (volume, fees, swaps, price change) and price history would count only the swaps
 * after it for a day. A fresh store therefore backfills the INDEXER_HISTORY_HOURS before its
 * bootstrap block in the background, with the backfill's own code (chunks rebuilt from chain
 * storage, history rows only): the follower goes on following meanwhile.
 */
import { doneChunks, getTask, setTask, type Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import type { ChainReader } from "./chain/reader.js";
import { rangeKey, runLocal, splitRange } from "./backfill.js";
import { HISTORY_TASK, type HistoryTask } from "./tasks.js";
import type { OracleSettings } from "./market.js";

/**
 * The blocks of the `hours` before block `to`: the first one whose timestamp is at most
 * `hours` older than `to`'s, found by bisection on block timestamps (≈ 20 reads). A node that
 * no longer has the state of the block before it (a backfill chunk starts from that state)
 * gives a task with `error` set instead: history needs an archive node.
 */
export async function historyRange(reader: ChainReader, to: number, hours: number): Promise<HistoryTask> {
  const task = (from: number, error: string | null): HistoryTask => ({ from, to, hours, done: 0, finished: false, error });
  if (to <= 1) return { ...task(1, null), finished: true };
  const timeOf = async (n: number) => (await reader.block(n)).timestamp;
  try {
    const since = (await timeOf(to)) - hours * 3_600;
    let lo = 1;
    let hi = to;
    // Invariant: block `hi` is inside the window; the first block inside it is in [lo, hi].
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await timeOf(mid)) >= since) hi = mid;
      else lo = mid + 1;
    }
    const before = await reader.hashAt(hi - 1);
    if (before && !(await reader.hasState(before))) {
      return task(hi, `the node at WS_URL no longer has the state of block ${hi - 1} (state pruning); point WS_URL at an archive node, or run \`tokenpool backfill --from ${hi} --to ${to}\` against one`);
    }
    return task(hi, null);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/state already discarded|unknown block/i.test(message)) {
      return task(to, `the node at WS_URL does not keep the state of the last ${hours} h (state pruning); point WS_URL at an archive node, or run \`tokenpool backfill\` against one`);
    }
    throw err;
  }
}

export interface HistoryOptions {
  wsUrl: string;
  nativeTokenId: number;
  oracle: OracleSettings;
  batchBlocks: number;
  logger: Logger;
  chunkBlocks: number;
  workers: number;
  prefetchBlocks: number;
  signal: AbortSignal;
  onTask: (task: HistoryTask) => void;
}

/** Runs (or continues) the history task; its progress is stored after each commit. */
export async function runHistory(db: Database, task: HistoryTask, options: HistoryOptions): Promise<void> {
  const log = options.logger;
  const range = { from: task.from, to: task.to };
  const done = new Set((await doneChunks(db, range.from, range.to)).map((c) => rangeKey({ from: c.fromBlock, to: c.toBlock })));
  const all = splitRange(range, options.chunkBlocks);
  const chunks = all.filter((c) => !done.has(rangeKey(c)));
  const state: HistoryTask = { ...task, done: all.filter((c) => done.has(rangeKey(c))).reduce((n, c) => n + c.to - c.from + 1, 0) };
  log.info({ from: range.from, to: range.to, hours: task.hours, chunks: chunks.length, resumed: done.size > 0 }, "history: backfilling the hours before the bootstrap in the background");
  let saving = Promise.resolve();
  await runLocal({
    db,
    wsUrl: options.wsUrl,
    chunks,
    workers: options.workers,
    // On stop, chunks in flight end at their next block too (not after up to 500 blocks): a
    // restart does them again.
    options: { oracle: options.oracle, nativeTokenId: options.nativeTokenId, batchBlocks: options.batchBlocks, logger: log, prefetchBlocks: options.prefetchBlocks, signal: options.signal },
    signal: options.signal,
    onBlocks: (n) => {
      state.done += n;
      options.onTask({ ...state });
      const snapshot = { ...state };
      saving = saving.then(() => setTask(db, HISTORY_TASK, snapshot)).catch(() => {});
    },
  });
  await saving;
  if (options.signal.aborted) return;
  const finished = { ...state, done: range.to - range.from + 1, finished: true };
  await setTask(db, HISTORY_TASK, finished);
  options.onTask(finished);
  log.info({ from: range.from, to: range.to }, "history: done; the 24 h figures and price history cover the window");
}

/**
 * The first start's history (INDEXER_HISTORY_HOURS before the bootstrap block), in the
 * background with the backfill's own code and connection; a restart continues an unfinished
 * one (its done chunks are skipped). Resolves to the run in flight, if one was started (in an
 * object: a promise of a promise would be awaited through).
 */
export async function startHistory(
  db: Database,
  reader: ChainReader,
  options: HistoryOptions & { hours: number; fresh: boolean; bootstrapBlock: number },
): Promise<{ running: Promise<void> } | undefined> {
  let task = await getTask<HistoryTask>(db, HISTORY_TASK);
  if (task) options.onTask(task);
  if (task?.finished || task?.error) return undefined;
  if (!task) {
    if (!options.fresh || options.hours === 0) return undefined;
    task = await historyRange(reader, options.bootstrapBlock, options.hours);
    await setTask(db, HISTORY_TASK, task);
    options.onTask(task);
    if (task.error) {
      options.logger.warn({ hours: options.hours, error: task.error }, "history: not backfilled");
      return undefined;
    }
  }
  return { running: runHistory(db, task, options).catch((err) => options.logger.error({ err: err instanceof Error ? err.message : String(err) }, "history: backfill failed; a restart continues it")) };
}
