/**
 * What the sweep (sweep.ts) found different from chain storage, read again at the store's
 * checkpoint and written as a batch writes a block's reads: current rows, balance and token
 * history, pool reserves and the prices they make. The follower runs it between batches, so
 * nothing it writes can be older than a row the follower wrote; the checkpoint stays where it is.
 * The sweep hands them over through a RepairQueue and waits for their commit.
 */
import type { Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import type { ChainReader, PoolRef } from "./chain/reader.js";
import type { Deriver } from "./derive.js";
import { Batch } from "./writer.js";

/** What the follower reads again at its checkpoint and writes as a batch would. */
export interface Repairs {
  tokens: number[];
  pools: PoolRef[];
  pairs: { tokenId: number; account: string }[];
  lpPairs: { lpTokenId: number; account: string }[];
  /**
   * Found by the pass a runtime upgrade owes: its first block, whose migrations changed them. Their
   * balance history gets the value read there too, so an answer as of any block since is exact.
   */
  upgrade?: number;
}

export const emptyRepairs = (): Repairs => ({ tokens: [], pools: [], pairs: [], lpPairs: [] });
const size = (r: Repairs) => r.tokens.length + r.pools.length + r.pairs.length + r.lpPairs.length;

/**
 * The sweep hands repairs to the follower here and waits for their commit; the follower takes
 * them between batches (and at the head, woken by `onPost`).
 */
export class RepairQueue {
  private pending: { repairs: Repairs; settle: (err?: unknown) => void }[] = [];
  /** Why the queue was failed: nothing posted after it is ever committed. */
  private failed: { err: unknown } | undefined;
  onPost: (() => void) | undefined;

  post(repairs: Repairs): Promise<void> {
    if (size(repairs) === 0) return Promise.resolve();
    // A page whose reads were in flight when the session ended posts after fail(): no follower
    // is left to take it, and waiting would keep the session (and stop()) from ever ending.
    if (this.failed) return Promise.reject(this.failed.err);
    return new Promise((resolve, reject) => {
      this.pending.push({ repairs, settle: (err) => (err === undefined ? resolve() : reject(err)) });
      this.onPost?.();
    });
  }

  get waiting(): boolean {
    return this.pending.length > 0;
  }

  /** Everything posted so far, merged; `settle` once it is committed (or failed). */
  take(): { repairs: Repairs; settle: (err?: unknown) => void } | undefined {
    if (this.pending.length === 0) return undefined;
    const taken = this.pending.splice(0);
    const repairs = emptyRepairs();
    for (const t of taken) {
      for (const k of ["tokens", "pools", "pairs", "lpPairs"] as const) (repairs[k] as unknown[]).push(...t.repairs[k]);
      repairs.upgrade ??= t.repairs.upgrade;
    }
    return { repairs, settle: (err) => taken.forEach((t) => t.settle(err)) };
  }

  /** The session ended: nothing posted will be committed by it (the sweep's position was not stored). */
  fail(err: unknown): void {
    this.failed = { err };
    for (const t of this.pending.splice(0)) t.settle(err);
  }
}

export interface RepairContext {
  db: Database;
  reader: ChainReader;
  deriver: Deriver;
  logger: Logger;
  fence?: (tx: Database) => Promise<void>;
}

/** Reads `repairs` at the checkpoint block and commits them; returns how many rows were written. */
export async function applyRepairs(ctx: RepairContext, repairs: Repairs, checkpoint: { blockNumber: number; blockHash: string; chainFinalized: number }): Promise<number> {
  const { reader, deriver } = ctx;
  const state = await reader.blockByHash(checkpoint.blockHash, checkpoint.blockNumber);
  const { at, number, timestamp } = state;
  const readable = (id: number) => reader.directory.key(id) !== undefined;
  const tokenIds = [...new Set(repairs.tokens)].filter(readable);
  const pairs = [...new Map(repairs.pairs.filter((p) => readable(p.tokenId)).map((p) => [`${p.tokenId}|${p.account}`, p])).values()];
  const lpPairs = [...new Map(repairs.lpPairs.map((p) => [`${p.lpTokenId}|${p.account}`, p])).values()];
  const refs = [...new Map(repairs.pools.map((r) => [`${r.token0Id}/${r.token1Id}`, r])).values()];
  const [tokens, balances, lp, pools] = await Promise.all([
    tokenIds.length > 0 ? reader.tokens(at, tokenIds) : { tokens: [], missing: [] },
    reader.balances(at, pairs),
    reader.lpBalances(at, lpPairs),
    reader.pools(at, refs),
  ]);
  const batch = new Batch();
  batch.at = { number, hash: state.hash, timestamp };
  if (repairs.upgrade !== undefined && repairs.upgrade < number) await historyAtUpgrade(ctx, repairs.upgrade, pairs, lpPairs, batch);
  const gone = deriver.applyTokenStates(tokens, batch, number);
  for (const b of balances) if (!gone.has(b.tokenId)) batch.holder({ ...b, blockNumber: number });
  for (const b of lp) batch.lpHolder({ ...b, blockNumber: number });
  deriver.applyPoolStates(pools, batch, number, timestamp, deriver.lpFee(at).ppm);
  deriver.applyPrices(batch, number);
  await batch.commit(ctx.db, checkpoint, ctx.fence);
  const rows = tokens.tokens.length + tokens.missing.length + balances.length + lp.length + pools.length;
  ctx.logger.info({ block: number, tokens: tokenIds.length, holders: balances.length, lpHolders: lp.length, pools: pools.length }, "indexer: repaired what differed from chain storage");
  return rows;
}

/**
 * Balances a runtime upgrade's migration changed silently, as they stood at its first block `u`,
 * into the batch's balance history: without them history would keep the value before the
 * migration from `u` up to the repair. A node that no longer has `u`'s state (the pass outlasted
 * its pruning window) leaves them out, with a warning: as-of answers in between may then be stale.
 */
async function historyAtUpgrade(ctx: RepairContext, u: number, pairs: { tokenId: number; account: string }[], lpPairs: { lpTokenId: number; account: string }[], batch: Batch): Promise<void> {
  const { reader } = ctx;
  try {
    const hash = await reader.hashAt(u);
    if (!hash || !(await reader.hasState(hash))) throw new Error(`the node no longer has the state of block ${u}`);
    const { at } = await reader.blockByHash(hash, u);
    const [balances, lp] = await Promise.all([reader.balances(at, pairs), reader.lpBalances(at, lpPairs)]);
    for (const b of balances) batch.balances.push({ lp: false, tokenId: b.tokenId, account: b.account, blockNumber: u, balance: b.balance });
    for (const b of lp) batch.balances.push({ lp: true, tokenId: b.lpTokenId, account: b.account, blockNumber: u, balance: b.balance });
  } catch (err) {
    ctx.logger.warn({ block: u, err: err instanceof Error ? err.message : String(err), holders: pairs.length }, "indexer: balances a runtime upgrade changed could not be read at its first block; their history from it to the repair keeps the value before");
  }
}
