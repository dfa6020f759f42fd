/**
 * State that changed without an event naming it, read again from storage. Events only say what
 * a block touched; some changes touch accounts no event names:
 *
 * - `AccountsDestroyed` (an asset being destroyed loses its accounts a thousand at a time and
 *   names none of them) — its holders are read again;
 * - everything else (a refund that burns a balance, a hold, a storage write, a runtime upgrade's
 *   migrations) is found by the verification sweep (sweep.ts) and repaired by the follower
 *   (repair.ts).
 *
 * A re-read is scheduled in the transaction of the batch that called for it (a crash cannot lose
 * it), pinned at that batch's last block, and runs before the next batch: every page is read at
 * that block, which stays the checkpoint meanwhile, so the rows it writes are exact there and the
 * rows of the token it did not see are accounts that no longer hold it. Each page is committed
 * with the task's position; a restart continues it.
 */
import { announceBlocks, deleteTask, getCheckpoint, getTask, recordTokenStats, setTask, sweepToken, upsertHolders, upsertTokens, deleteTokens, type Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import { StateDiscardedAt, type At, type BalanceState, type ChainReader } from "./chain/reader.js";
import type { Bootstrapper } from "./bootstrap.js";
import type { Deriver } from "./derive.js";
import { BootstrapStopped } from "./tasks.js";

export const REREAD_TASK = "reread";

export interface RereadTask {
  /** The block every page is read at (the checkpoint when it was scheduled). */
  block: number;
  hash: string;
  /** "all": a new snapshot of everything (after a runtime upgrade); otherwise these tokens' holders and details. */
  scope: "all" | number[];
  /** Why, one line per trigger (logged, shown by /health). */
  reasons: string[];
  /** A token list's progress: the token being read (index in scope), the last storage key read of it, rows written. */
  index: number;
  lastKey: string | null;
  rows: number;
}

/** A re-read to schedule with a batch ending at `block`. */
export interface RereadRequest {
  scope: "all" | number[];
  reason: string;
}

/**
 * The task to store with a batch: the requests of the batch, merged with one still on record (a
 * run cut short), all at the batch's last block — the newer block, read again from the start.
 */
export function scheduleReread(prior: RereadTask | undefined, requests: RereadRequest[], block: { number: number; hash: string }): RereadTask | undefined {
  if (requests.length === 0) return prior;
  const all = [...(prior ? [{ scope: prior.scope, reason: "" }] : []), ...requests];
  const scope = all.some((r) => r.scope === "all") ? "all" : [...new Set(all.flatMap((r) => r.scope as number[]))];
  const reasons = [...(prior?.reasons ?? []), ...requests.map((r) => r.reason)].slice(-20);
  return { block: block.number, hash: block.hash, scope, reasons, index: 0, lastKey: null, rows: 0 };
}

export interface RereadContext {
  db: Database;
  reader: ChainReader;
  deriver: Deriver;
  bootstrapper: Bootstrapper;
  logger: Logger;
  fence?: (tx: Database) => Promise<void>;
  signal?: AbortSignal;
  /** Called after each page (the heartbeat counts it as progress). */
  onPage?: () => void;
  pageSize?: number;
}

/** Holder rows of tokens that a batch reads again whole, inside its own transaction. */
const INLINE_ROWS = 100_000;

/**
 * The holders of asset `tokens` at a batch's last block, read whole so that the batch's
 * transaction writes them with its checkpoint (the store is never at that block without
 * them); undefined when they are more than INLINE_ROWS rows, and then a re-read is scheduled.
 */
export async function readTokenHolders(reader: ChainReader, at: At, tokens: number[], max = INLINE_ROWS): Promise<BalanceState[] | undefined> {
  const rows: BalanceState[] = [];
  for (const id of tokens) {
    // Only assets are read this way: the native token's holders are the whole System.Account.
    if (id === reader.nativeTokenId || reader.directory.key(id) === undefined) continue;
    for await (const page of reader.allBalances(at, { map: 0, lastKey: null }, undefined, id)) {
      rows.push(...page.rows);
      if (rows.length > max) return undefined;
    }
  }
  return rows;
}

/** Writes readTokenHolders' rows at `block` in the caller's transaction; older rows of those tokens go, counts are recounted. */
export async function writeTokenHolders(t: Database, tokens: number[], rows: BalanceState[], block: number): Promise<void> {
  await upsertHolders(t, rows.map((b) => ({ ...b, blockNumber: block })));
  for (const id of tokens) await sweepToken(t, id, block);
}

/** Runs the re-read on record, if any, to its end; returns whether there was one. */
export async function runReread(ctx: RereadContext): Promise<boolean> {
  let task = await getTask<RereadTask>(ctx.db, REREAD_TASK);
  if (!task) return false;
  const log = ctx.logger;
  if (!(await ctx.reader.hasState(task.hash))) {
    const cp = (await getCheckpoint(ctx.db))!;
    // Pinned at the checkpoint (a batch schedules it there): the store can no longer be made
    // equal to chain storage at it, and trying again would loop; the follower's pruned path
    // decides (a fatal error naming the block, or INDEXER_REBOOTSTRAP=auto's new snapshot).
    if (cp.blockHash === task.hash) throw new StateDiscardedAt(task.block, `the node no longer has the state of block ${task.block}, where state is being read again`);
    // The node pruned the pinned block (a long stop): the checkpoint's state, from the start.
    log.warn({ block: task.block, checkpoint: cp.blockNumber }, "indexer: the node no longer has the state of the re-read's block; re-reading at the checkpoint");
    task = { ...task, block: cp.blockNumber, hash: cp.blockHash, index: 0, lastKey: null, rows: 0 };
  }
  log.info({ block: task.block, scope: task.scope === "all" ? "all" : task.scope.length, reasons: task.reasons }, "indexer: reading state again that changed without events");
  if (task.scope === "all") {
    const head = { number: task.block, hash: task.hash };
    // The task ends in the snapshot's own last transaction: a crash before it resumes the
    // snapshot, a crash after it has nothing left to do.
    await ctx.bootstrapper.bootstrap(head, task.block, `a new snapshot at block ${task.block}: ${task.reasons.join("; ")}`, (t) => deleteTask(t, REREAD_TASK));
    await ctx.bootstrapper.snapshotLpHolders(head);
  } else {
    await rereadTokens(ctx, task);
  }
  await ctx.deriver.load(ctx.db);
  log.info({ block: task.block }, "indexer: re-read done; the store equals chain storage there");
  return true;
}

/** Each token's holders at the task's block, page by page, then its details; stale rows swept. */
async function rereadTokens(ctx: RereadContext, task: RereadTask): Promise<void> {
  const { db, reader } = ctx;
  const tokens = task.scope as number[];
  const state = await reader.blockByHash(task.hash, task.block);
  const commit = (write: (t: Database) => Promise<void>) =>
    db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await ctx.fence?.(t);
      await write(t);
    });
  for (let i = task.index; i < tokens.length; i++) {
    const tokenId = tokens[i]!;
    if (reader.directory.key(tokenId) !== undefined) {
      const from = { map: 0, lastKey: i === task.index ? task.lastKey : null };
      for await (const page of reader.allBalances(state.at, from, ctx.pageSize, tokenId)) {
        task = { ...task, index: i, lastKey: page.lastKey, rows: task.rows + page.rows.length };
        const progress = task;
        await commit(async (t) => {
          await upsertHolders(t, page.rows.map((b) => ({ ...b, blockNumber: progress.block })));
          await setTask(t, REREAD_TASK, progress);
        });
        ctx.onPage?.();
        if (ctx.signal?.aborted) throw new BootstrapStopped("re-read stopped; a restart continues it");
      }
      const { tokens: found, missing } = await reader.tokens(state.at, [tokenId]);
      task = { ...task, index: i + 1, lastKey: null };
      const next = task;
      await commit(async (t) => {
        if (missing.length > 0) await deleteTokens(t, missing, next.block);
        else {
          await sweepToken(t, tokenId, next.block);
          await upsertTokens(t, found.map((f) => ({ ...f, blockNumber: next.block })));
          await recordTokenStats(t, [tokenId], { number: state.number, timestamp: state.timestamp });
        }
        await setTask(t, REREAD_TASK, next);
      });
    }
  }
  // The block again: the API renews what it cached of it (the re-read changed its holders).
  const done = task;
  await commit(async (t) => {
    await deleteTask(t, REREAD_TASK);
    await announceBlocks(t, [{ number: state.number, hash: state.hash, timestamp: state.timestamp, counts: { swaps: 0, liquidityEvents: 0, prices: 0, reserves: 0, holders: done.rows, tokens: tokens.length } }]);
  });
}
