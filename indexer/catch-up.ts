/**
 * A run of blocks after the checkpoint, through the pipeline (fetch → decode → derive) into one
 * batch, written in one transaction with the checkpoint (the write stage, writer.ts). What the
 * blocks call for reading again — the holders of a token whose accounts were destroyed unnamed
 * (reread.ts), a verification pass from a runtime upgrade (sweep.ts) — is scheduled in the same
 * transaction, so a crash at any moment loses none of it.
 */
import { getTask, setTask, type Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import type { IndexerMetrics } from "../shared/metrics.js";
import { isStateDiscarded, StateDiscardedAt, type ChainReader } from "./chain/reader.js";
import type { Deriver } from "./derive.js";
import type { Pipeline } from "./pipeline.js";
import type { ProgressLog } from "./progress-log.js";
import { readTokenHolders, REREAD_TASK, scheduleReread, writeTokenHolders, type RereadRequest, type RereadTask } from "./reread.js";
import { resnapshotMarket } from "./resnapshot.js";
import { UNVERIFIED_UPGRADE, UPGRADE_SWEEP_TASK } from "./sweep.js";
import { Batch } from "./writer.js";

export interface CatchUpContext {
  db: Database;
  reader: ChainReader;
  deriver: Deriver;
  pipeline: Pipeline;
  batchBlocks: number;
  logger: Logger;
  /** Where each committed batch is told (debug), and the periodic summary (info). */
  progress: ProgressLog;
  fence?: (tx: Database) => Promise<void>;
  metrics?: IndexerMetrics;
  stopped(): boolean;
  /** Holder rows read again that the batch writes itself (readTokenHolders); more are scheduled. */
  inlineRereadRows?: number;
  /**
   * Whether the verification sweep runs (INDEXER_SWEEP_READS_PER_SECOND > 0): an upgrade owes a
   * pass only then. With it off, nothing would ever run the pass, and its marker would refuse
   * as-of answers from the upgrade on for good.
   */
  verify?: boolean;
}

export interface CatchUpResult {
  last: { number: number; hash: string; timestamp: number };
  blocks: number;
  skipped: number;
  /** A re-read is scheduled (runReread runs it before the next batch). */
  reread: boolean;
}

/** Token ids in a log line or a reason: the first ten, then how many more (an asset list can be long). */
const ids = (list: number[]) => (list.length <= 10 ? list.join(", ") : `${list.slice(0, 10).join(", ")} and ${list.length - 10} more`);

/** Indexes blocks after `from` up to `to` (at most batchBlocks), committing them as one batch. */
export async function catchUp(ctx: CatchUpContext, from: number, to: number, chainFinalized: number): Promise<CatchUpResult> {
  const started = Date.now();
  const batch = new Batch();
  const requests: RereadRequest[] = [];
  let events = 0;
  let swaps = 0;
  let skipped = 0;
  let lastAt: Parameters<ChainReader["tokens"]>[0] | undefined;
  let upgrade: { block: number; specName: string; specVersion: number } | undefined;
  const end = Math.min(to, from + ctx.batchBlocks);
  for (let n = from + 1; n <= end; n++) {
    // Stopping: the blocks applied so far are committed (a shorter batch), the rest left.
    if (ctx.stopped() && batch.size > 0) break;
    let r: Awaited<ReturnType<Pipeline["apply"]>>;
    try {
      // Fetched up to the finalized head ahead, not just to the batch's end: the next batch's
      // blocks are in flight while this one commits.
      r = await ctx.pipeline.apply(n, to, batch);
    } catch (err) {
      if (isStateDiscarded(err)) throw new StateDiscardedAt(n, err);
      throw err;
    }
    events += r.events;
    swaps += r.swaps;
    skipped += r.skipped;
    lastAt = r.block.at;
    if (r.reread.length > 0) requests.push({ scope: r.reread, reason: `block ${n}: accounts of token(s) ${ids(r.reread)} destroyed (AccountsDestroyed names none)` });
    if (r.upgraded) {
      // Migrations ran in this block and announce nothing: the batch ends here, and its commit
      // owes a verification pass from it (sweep.ts). Following goes on meanwhile.
      const { specName, specVersion } = r.block.runtime;
      upgrade = { block: n, specName, specVersion };
      // Tokens and pools (few) at once, as a backfill chunk does: prices are right from this block.
      ctx.pipeline.clear();
      await resnapshotMarket(ctx.reader, ctx.deriver, r.block, batch);
      if (ctx.verify === false) ctx.logger.warn(upgrade, UNVERIFIED_UPGRADE);
      else ctx.logger.warn(upgrade, "indexer: runtime upgrade; the store is verified against chain storage from this block while following goes on");
      break;
    }
  }
  const last = batch.lastBlock!;
  // Tokens' holders read again are written with the batch (its checkpoint never stands without
  // them); a new snapshot, or holders too many for one transaction, are scheduled (reread.ts).
  const tokens = requests.some((r) => r.scope === "all") ? [] : [...new Set(requests.flatMap((r) => r.scope as number[]))];
  const holders = tokens.length > 0 && lastAt ? await readTokenHolders(ctx.reader, lastAt, tokens, ctx.inlineRereadRows) : undefined;
  const scheduled = holders ? [] : requests;
  const timer = ctx.metrics?.commitDuration.startTimer();
  await batch.commit(ctx.db, { blockNumber: last.number, blockHash: last.hash, chainFinalized: Math.max(to, chainFinalized) }, ctx.fence, async (t) => {
    if (holders) await writeTokenHolders(t, tokens, holders, last.number);
    if (scheduled.length > 0) await setTask(t, REREAD_TASK, scheduleReread(await getTask<RereadTask>(t, REREAD_TASK), scheduled, last));
    if (upgrade && ctx.verify !== false) await setTask(t, UPGRADE_SWEEP_TASK, upgrade);
  });
  timer?.();
  for (const r of requests) ctx.logger.warn({ block: last.number, reason: r.reason, with: holders ? "this batch" : "a re-read after it" }, "indexer: state changed without events: reading it again");
  ctx.progress.committed({ from: from + 1, to: last.number, blocks: batch.size, events, swaps, skipped, holders: batch.holderRows, lag: chainFinalized - last.number, ms: Date.now() - started });
  return { last, blocks: batch.size, skipped, reread: scheduled.length > 0 };
}
