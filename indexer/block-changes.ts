/**
 * The record of what a block touched (BlockChanges) and the shapes it holds: the swaps,
 * liquidity events and balance movements the events reported as they said them, and the events
 * that could not be read. The helpers here note into it: an account whose balance to read again,
 * a token a location names, a pool a poolId names. A field that cannot be read throws `Skip`:
 * the event becomes a `skipped` entry (indexer/touched.ts), the rest of the block goes on.
 */
import type { TokenDirectory } from "./chain/directory.js";
import type { PoolRef } from "./chain/reader.js";
import { locationToken, poolKey, type TokenKey, type TokenOfLocation } from "./chain/locations.js";
import type { TransferKind } from "../db/schema/transfers.js";

export interface PathStep {
  tokenId: number;
  /**
   * Amount of this token at this point of the path: the amount in for the first step, each
   * hop's amount out after it. Null where the runtime does not say (a `Vec<Location>` path
   * gives only the ends).
   */
  amount: string | null;
}

export interface RawSwap {
  eventIndex: number;
  event: string;
  /** The trader; null for SwapCreditExecuted (a swap of credit, e.g. a fee paid in an asset). */
  who: string | null;
  /** Index of the extrinsic that emitted it; null outside one (initialization, finalization). */
  extrinsic: number | null;
  path: PathStep[];
  amountIn: string;
  amountOut: string;
  /** assetConversion.Transfer legs of the same extrinsic before the event (2023 runtimes). */
  legs: { from: string; tokenId: number; amount: string }[];
}

export interface RawLiquidity {
  eventIndex: number;
  /** Index of the extrinsic that emitted it; null outside one. */
  extrinsic: number | null;
  kind: "add" | "remove";
  pool: string;
  who: string;
  amount0: string;
  amount1: string;
  lpAmount: string;
}

/**
 * A balance movement an event reported, as it said it: a token's (native, asset, foreign) or an
 * LP token's (PoolAssets, whose ids are their own). No `from` for a mint or a deposit, no `to`
 * for a burn or a withdrawal.
 */
export interface RawTransfer {
  eventIndex: number;
  extrinsic: number | null;
  /** "section.method" */
  event: string;
  kind: TransferKind;
  tokenId: number | null;
  lpTokenId: number | null;
  from: string | null;
  to: string | null;
  amount: string;
  /** A fee's tip as its event states it (in the native token for an AssetTxFeePaid of today's hubs); null for other kinds. */
  tip: string | null;
}

/** A handled event that could not be decoded or attributed. */
export interface SkippedEvent {
  eventIndex: number;
  /** "section.method" */
  event: string;
  reason: string;
}

export interface BlockChanges {
  /** Tokens whose details, metadata or (native) total issuance to read again. */
  tokens: Set<number>;
  destroyed: Set<number>;
  /**
   * Tokens whose accounts were removed by an event that names none of them
   * (`AccountsDestroyed` while an asset is destroyed): their holders are read again from storage.
   */
  accountsDropped: Set<number>;
  /** tokenId → accounts whose balance to read again (native included). */
  balances: Map<number, Set<string>>;
  /** LP token id → accounts whose LP balance to read again. */
  lpBalances: Map<number, Set<string>>;
  /** Pool keys whose reserves and LP supply to read again. */
  pools: Set<string>;
  createdPools: PoolRef[];
  swaps: RawSwap[];
  liquidity: RawLiquidity[];
  /** Balance movements, in event order. */
  transfers: RawTransfer[];
  /** How to read each asset or foreign token the block named (its id → its storage key). */
  named: Map<number, TokenKey>;
  skipped: SkippedEvent[];
}

export interface CollectContext {
  nativeTokenId: number;
  /** Known pools by key; pools created in the block are added as they appear. */
  pools: Map<string, PoolRef>;
  /** Known tokens: a location whose derived id is another location's is refused, not merged. */
  tokens?: TokenDirectory;
}

export function emptyChanges(): BlockChanges {
  return { tokens: new Set(), destroyed: new Set(), accountsDropped: new Set(), balances: new Map(), lpBalances: new Map(), pools: new Set(), createdPools: [], swaps: [], liquidity: [], transfers: [], named: new Map(), skipped: [] };
}

export class Skip extends Error {}

export function touch(changes: BlockChanges, tokenId: number, account: unknown): void {
  if (typeof account !== "string" || account.length === 0) return;
  let set = changes.balances.get(tokenId);
  if (!set) changes.balances.set(tokenId, (set = new Set()));
  set.add(account);
}

export function u32(value: unknown): number | undefined {
  const n = typeof value === "string" || typeof value === "number" ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= 4_294_967_295 ? n : undefined;
}

export function amount(value: unknown, field: string): string {
  if (typeof value === "string" && /^\d+$/.test(value)) return value;
  throw new Skip(`${field} is not an amount`);
}

export function name(changes: BlockChanges, ctx: CollectContext, t: TokenOfLocation): number {
  if (ctx.tokens && !ctx.tokens.set(t.id, t.token)) {
    throw new Skip(`location ${(t.token as { key: string }).key} derives token id ${t.id}, which another location has: not indexed`);
  }
  if (t.token.kind !== "native") changes.named.set(t.id, t.token);
  return t.id;
}

/** Token of a location field; remembered in `named` so the indexer knows how to read it. */
export function tokenOf(changes: BlockChanges, ctx: CollectContext, location: unknown, field: string): number {
  const t = typeof location === "string" ? locationToken(location, ctx.nativeTokenId) : undefined;
  if (!t) throw new Skip(`${field} is not an XCM location`);
  return name(changes, ctx, t);
}

export function poolOf(changes: BlockChanges, ctx: CollectContext, poolId: unknown): PoolRef {
  if (!Array.isArray(poolId) || poolId.length !== 2) throw new Skip("poolId is not a pair of locations");
  const [a, b] = poolId.map((l, i) => tokenOf(changes, ctx, l, `poolId[${i}]`)) as [number, number];
  const pool = ctx.pools.get(poolKey(a, b));
  if (!pool) throw new Skip(`pool ${poolKey(a, b)} is not known`);
  return pool;
}
