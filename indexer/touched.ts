/**
 * What a block touched. Events are never added up into balances (DESIGN: "Never rebuild a
 * balance by adding up event amounts"); they only say which assets, accounts and pools to read
 * again, at the block's hash. Reading too much is harmless; missing something is not, so every
 * account-valued field of every Assets/Balances event counts.
 */
import type { ChainEvent } from "./chain/events.js";
import { locationToTokenId, poolKey } from "./chain/locations.js";

export interface PoolRef {
  token0Id: number;
  token1Id: number;
  lpTokenId: number;
  /** SS58 address of the pool account. */
  account: string;
}

export interface RawSwap {
  eventIndex: number;
  who: string;
  /** Token ids along the path, first = sold, last = bought. */
  path: number[];
  amountIn: string;
  amountOut: string;
  /** assetConversion.Transfer legs of the same extrinsic before the event: hop outputs. */
  legs: { from: string; tokenId: number; amount: string }[];
}

export interface RawLiquidity {
  eventIndex: number;
  kind: "add" | "remove";
  pool: string;
  who: string;
  amount0: string;
  amount1: string;
  lpAmount: string;
}

export interface BlockChanges {
  /** Tokens whose details, metadata or (native) total issuance to read again. */
  tokens: Set<number>;
  destroyed: Set<number>;
  /** tokenId → accounts whose balance to read again (native included). */
  balances: Map<number, Set<string>>;
  /** Pool keys whose reserves and LP supply to read again. */
  pools: Set<string>;
  createdPools: PoolRef[];
  swaps: RawSwap[];
  liquidity: RawLiquidity[];
}

export interface CollectContext {
  nativeTokenId: number;
  /** Known pools by key; pools created in the block are added as they appear. */
  pools: Map<string, PoolRef>;
}

const ASSET_ACCOUNT_FIELDS = ["who", "owner", "from", "to", "destination"];
const NATIVE_ACCOUNT_FIELDS = ["who", "from", "to", "account"];

export function emptyChanges(): BlockChanges {
  return { tokens: new Set(), destroyed: new Set(), balances: new Map(), pools: new Set(), createdPools: [], swaps: [], liquidity: [] };
}

function touch(changes: BlockChanges, tokenId: number, account: unknown): void {
  if (typeof account !== "string" || account.length === 0) return;
  let set = changes.balances.get(tokenId);
  if (!set) changes.balances.set(tokenId, (set = new Set()));
  set.add(account);
}

function assetId(value: unknown): number | undefined {
  const n = typeof value === "string" || typeof value === "number" ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= 4_294_967_295 ? n : undefined;
}

/** The pool of two tokens in either order, as the chain keys it. */
export function findPool(pools: Map<string, PoolRef>, a: number, b: number): PoolRef | undefined {
  return pools.get(poolKey(a, b)) ?? pools.get(poolKey(b, a));
}

function poolOf(ctx: CollectContext, poolId: unknown): PoolRef | undefined {
  if (!Array.isArray(poolId) || poolId.length !== 2) return undefined;
  const [a, b] = poolId.map((l) => locationToTokenId(l, ctx.nativeTokenId));
  return a === undefined || b === undefined ? undefined : ctx.pools.get(poolKey(a, b));
}

function assetConversion(e: ChainEvent, ctx: CollectContext, changes: BlockChanges, legs: RawSwap["legs"]): void {
  const d = e.data;
  if (e.method === "PoolCreated") {
    const ids = Array.isArray(d.poolId) ? d.poolId.map((l) => locationToTokenId(l, ctx.nativeTokenId)) : [];
    const lp = assetId(d.lpToken);
    if (ids.length !== 2 || ids.includes(undefined) || lp === undefined || typeof d.poolAccount !== "string") return;
    const ref = { token0Id: ids[0] as number, token1Id: ids[1] as number, lpTokenId: lp, account: d.poolAccount };
    ctx.pools.set(poolKey(ref.token0Id, ref.token1Id), ref);
    changes.createdPools.push(ref);
    changes.pools.add(poolKey(ref.token0Id, ref.token1Id));
  } else if (e.method === "LiquidityAdded" || e.method === "LiquidityRemoved") {
    const pool = poolOf(ctx, d.poolId);
    if (!pool) return;
    const key = poolKey(pool.token0Id, pool.token1Id);
    changes.pools.add(key);
    const add = e.method === "LiquidityAdded";
    changes.liquidity.push({
      eventIndex: e.index,
      kind: add ? "add" : "remove",
      pool: key,
      who: String(d.who),
      amount0: String(add ? d.amount1Provided : d.amount1),
      amount1: String(add ? d.amount2Provided : d.amount2),
      lpAmount: String(add ? d.lpTokenMinted : d.lpTokenBurned),
    });
  } else if (e.method === "SwapExecuted") {
    const path = Array.isArray(d.path) ? d.path.map((l) => locationToTokenId(l, ctx.nativeTokenId)) : [];
    if (path.length < 2 || path.includes(undefined)) return;
    const ids = path as number[];
    for (let i = 0; i + 1 < ids.length; i++) {
      const pool = findPool(ctx.pools, ids[i] as number, ids[i + 1] as number);
      if (pool) changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
    }
    changes.swaps.push({ eventIndex: e.index, who: String(d.who), path: ids, amountIn: String(d.amountIn), amountOut: String(d.amountOut), legs: [...legs] });
  } else if (e.method === "Transfer") {
    const tokenId = locationToTokenId(d.asset, ctx.nativeTokenId);
    if (tokenId === undefined) return;
    touch(changes, tokenId, d.from);
    touch(changes, tokenId, d.to);
    if (typeof d.from === "string") legs.push({ from: d.from, tokenId, amount: String(d.amount) });
  }
}

export function collectChanges(events: ChainEvent[], ctx: CollectContext): BlockChanges {
  const changes = emptyChanges();
  const lpTokens = new Map([...ctx.pools.values()].map((p) => [p.lpTokenId, p]));
  let legs: RawSwap["legs"] = [];
  let legsOf: number | null = null;
  for (const e of events) {
    if (e.extrinsic !== legsOf) {
      legs = [];
      legsOf = e.extrinsic;
    }
    if (e.section === "assets") {
      const id = assetId(e.data.assetId);
      if (id === undefined) continue;
      changes.tokens.add(id);
      if (e.method === "Destroyed") changes.destroyed.add(id);
      for (const field of ASSET_ACCOUNT_FIELDS) touch(changes, id, e.data[field]);
    } else if (e.section === "balances") {
      changes.tokens.add(ctx.nativeTokenId); // total issuance may have moved
      for (const field of NATIVE_ACCOUNT_FIELDS) touch(changes, ctx.nativeTokenId, e.data[field]);
    } else if (e.section === "assetConversion") {
      assetConversion(e, ctx, changes, legs);
      if (e.method === "SwapExecuted") legs = [];
    } else if (e.section === "poolAssets") {
      const pool = lpTokens.get(assetId(e.data.assetId) ?? -1) ?? changes.createdPools.find((p) => p.lpTokenId === assetId(e.data.assetId));
      if (pool) changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
    } else if (e.section === "assetTxPayment" && e.method === "AssetTxFeePaid") {
      const tokenId = locationToTokenId(e.data.assetId, ctx.nativeTokenId);
      if (tokenId !== undefined) touch(changes, tokenId, e.data.who);
    }
  }
  // Tokens sent straight to a pool account move its reserves without a pool event.
  const byAccount = new Map([...ctx.pools.values()].map((p) => [p.account, p]));
  for (const accounts of changes.balances.values()) {
    for (const account of accounts) {
      const pool = byAccount.get(account);
      if (pool) changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
    }
  }
  return changes;
}
