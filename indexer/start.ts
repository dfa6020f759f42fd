/**
 * Where a follower may start: the store's checkpoint must be a block of the chain at WS_URL (a
 * store is never mixed from two chains), and the node must still have the state after it (a
 * pruned node keeps only recent blocks). The errors here stop the follower for good.
 */
import type { Checkpoint } from "../db/index.js";
import type { ChainReader } from "./chain/reader.js";

/** The node no longer has the state the store needs next. */
export class StatePrunedError extends Error {
  override name = "StatePrunedError";
}

/** The store was built from another chain than the one at wsUrl. */
export class OtherChainError extends Error {
  override name = "OtherChainError";
}

/**
 * "same" when the checkpoint's block is this chain's; "other" when it is not and `onOtherChain`
 * is "reset" (the caller empties the store); throws OtherChainError otherwise, and a plain
 * (retried) error while the node has not reached the checkpoint yet (still syncing).
 */
export async function sameChain(reader: ChainReader, checkpoint: Checkpoint, head: { number: number }, onOtherChain: "refuse" | "reset"): Promise<"same" | "other"> {
  const onChain = await reader.hashAt(checkpoint.blockNumber);
  if (onChain === undefined && onOtherChain !== "reset") {
    throw new Error(`the node at WS_URL has no block ${checkpoint.blockNumber} yet (finalized head ${head.number}); the store's checkpoint is ahead of it`);
  }
  if (onChain === checkpoint.blockHash) return "same";
  const what = `block ${checkpoint.blockNumber} of the store is ${checkpoint.blockHash}, but ${onChain ? `that block of the chain at WS_URL is ${onChain}` : `the chain at WS_URL has no such block yet (finalized head ${head.number})`}`;
  if (onOtherChain !== "reset") {
    throw new OtherChainError(`indexer: the store was built from another chain: ${what}. Point WS_URL at the chain it was built from, or index this one into a new DATA_DIR or database.`);
  }
  return "other";
}

export const prunedMessage = (block: number, head: number, missing: number) =>
  `the node at WS_URL no longer has the state of block ${missing} (state pruning keeps only recent blocks; its finalized head is ${head}), and the store's checkpoint is block ${block}`;

export const PRUNED_ADVICE = (block: number, head: number) =>
  `Point WS_URL at an archive node (--state-pruning archive) to index every block, or set INDEXER_REBOOTSTRAP=auto to take a new snapshot at the head (blocks ${block + 1}–${head} then stay out of history; \`tokenpool backfill\` against an archive node fills them).`;
