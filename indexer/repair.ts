/**
 * What the sweep (sweep.ts) found different from chain storage, read again at the store's
 * checkpoint and written as a batch writes a block's reads: current rows, balance and token
 * history, pool reserves and the prices they make. The follower runs it between batches, so
 * nothing it writes can be older than a row the follower wrote; the checkpoint stays where it is.
 */
import type { Database } from "../db/index.js";
import type { Logger } from "../shared/logger.js";
import type { ChainReader } from "./chain/reader.js";
import type { Deriver } from "./derive.js";
import type { Repairs } from "./sweep.js";
import { Batch } from "./writer.js";

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
