/**
 * The market read again at a runtime's first block, whose migrations may move pools and tokens
 * without an event: the follower (catch-up.ts) and a backfill chunk (backfill.ts) write the same
 * rows there. Holder balances a migration moved are the verification sweep's (sweep.ts).
 */
import type { DecodedBlock } from "./decode.js";
import type { Deriver } from "./derive.js";
import { fetchMarket } from "./fetch.js";
import type { ChainReader } from "./chain/reader.js";
import type { Batch } from "./writer.js";

/** The market read again at `block` (a runtime's first), its history rows into `batch`, as the follower writes them. */
export async function resnapshotMarket(reader: ChainReader, deriver: Deriver, block: DecodedBlock, batch: Batch): Promise<void> {
  const { at, number, timestamp } = block;
  const { tokens, pools, unusable } = await fetchMarket(reader, at);
  deriver.reportUnusable(number, unusable, reader.collisions);
  // A market of what the chain has now (a pool or token a migration removed is gone), with the
  // prices before it, so that only the prices that move are written.
  const prices = deriver.market.prices;
  deriver.emptyMarket().prices = new Map(prices);
  deriver.applyTokenStates(tokens, batch, number);
  deriver.applyPoolStates(pools, batch, number, timestamp);
  deriver.applyPrices(batch, number);
  deriver.storeLearned(batch, number);
}
