/**
 * The fetch stage: the only part of the indexer that asks the node for a block. A block needs
 * two fetches: `fetchBlock` (its hash, the raw bytes of its events and timestamp, and the
 * runtime its own state names — built from metadata the first time it is met), then, once its
 * events are decoded and planned, `fetchState` (the balances, tokens and pools they touched, at
 * the block's hash, with the block's runtime). Neither decodes anything with a runtime it has
 * not confirmed for the block.
 */
import type { StorageEntry } from "@polkadot/types/primitive/types";
import { xxhashAsHex } from "@polkadot/util-crypto";
import type { BalanceState, ChainReader, LpBalance, PoolBalances, PoolRef, TokenState, UnusablePool } from "./chain/reader.js";
import { decodeLastUpgrade, LAST_UPGRADE_KEY, type Runtime } from "./chain/runtimes.js";
import { rawValues } from "./chain/rpc.js";
import { storageKey, type At } from "./chain/storage.js";

/** A block as the node gave it: raw bytes, and the runtime its state confirms. */
export interface RawBlock {
  number: number;
  hash: string;
  runtime: Runtime;
  /** System.Events and Timestamp.Now at the block, SCALE bytes (null: absent). */
  events: string | null;
  now: string | null;
}

const plainKey = (pallet: string, item: string) => `${xxhashAsHex(pallet, 128)}${xxhashAsHex(item, 128).slice(2)}`;
/** Where every runtime so far keeps them; checked against each runtime's own metadata below. */
const EVENTS_KEY = plainKey("System", "Events");
const NOW_KEY = plainKey("Timestamp", "Now");

/** The keys of System.Events and Timestamp.Now as `runtime`'s metadata names them. */
export function blockKeys(runtime: Runtime): [string, string] {
  const q = runtime.decorated.query as unknown as Record<string, Record<string, StorageEntry>>;
  return [storageKey(q.system!.events!, []), storageKey(q.timestamp!.now!, [])];
}

/** Block `number` of the chain (its hash when already known): its hash, raw events and timestamp, and its runtime. */
export async function fetchBlock(reader: ChainReader, number: number, known?: string): Promise<RawBlock> {
  const hash = known ?? (await reader.hashOf(number));
  const [events = null, now = null, upgrade] = await rawValues(reader.rpc, [EVENTS_KEY, NOW_KEY, LAST_UPGRADE_KEY], hash);
  const runtime = await reader.runtimes.ofBlock(hash, decodeLastUpgrade(upgrade));
  const keys = blockKeys(runtime);
  if (keys[0] === EVENTS_KEY && keys[1] === NOW_KEY) return { number, hash, runtime, events, now };
  // A runtime that names the items otherwise: read them where its own metadata says.
  const [ownEvents, ownNow] = await rawValues(reader.rpc, keys, hash);
  return { number, hash, runtime, events: ownEvents ?? null, now: ownNow ?? null };
}

/**
 * The extrinsics of block `hash`, each as the node gives it (hex of its SCALE bytes, length
 * prefix included: what its hash is taken of). One chain_getBlock: the pipeline asks only for a
 * block whose events move balances (decode.ts movesBalances), so a block of inherents alone
 * costs nothing more.
 */
export async function fetchExtrinsics(reader: ChainReader, hash: string): Promise<string[]> {
  const got = await reader.rpc.send<{ block: { extrinsics: string[] } } | null>("chain_getBlock", [hash]);
  if (!got) throw new Error(`the node has no block ${hash}`);
  return got.block.extrinsics;
}

/** The state a block's events call for (derive.ts plans it from them): what fetchState reads. */
export interface WantedState {
  tokenIds: number[];
  pairs: { tokenId: number; account: string }[];
  lpPairs: { lpTokenId: number; account: string }[];
  refs: PoolRef[];
}

export interface BlockReads {
  tokens: { tokens: TokenState[]; missing: number[] };
  balances: BalanceState[];
  lpBalances: LpBalance[];
  pools: PoolBalances[];
}

/** The state a block's plan calls for, read at the block with its runtime. */
export async function fetchState(reader: ChainReader, at: At, plan: WantedState): Promise<BlockReads> {
  const [tokens, balances, pools, lpBalances] = await Promise.all([
    plan.tokenIds.length > 0 ? reader.tokens(at, plan.tokenIds) : { tokens: [], missing: [] },
    plan.pairs.length > 0 ? reader.balances(at, plan.pairs) : [],
    plan.refs.length > 0 ? reader.pools(at, plan.refs) : [],
    plan.lpPairs.length > 0 ? reader.lpBalances(at, plan.lpPairs) : [],
  ]);
  return { tokens, balances, pools, lpBalances };
}

/** Every token and pool (with reserves) of the chain at a state: where a backfill chunk's market starts, or starts again. */
export async function fetchMarket(reader: ChainReader, at: At): Promise<{ tokens: { tokens: TokenState[]; missing: number[] }; pools: PoolBalances[]; unusable: UnusablePool[] }> {
  const tokens = await reader.tokens(at, await reader.allTokenIds(at));
  const { pools, unusable } = await reader.allPools(at);
  return { tokens, pools: pools.length > 0 ? await reader.pools(at, pools) : [], unusable };
}
