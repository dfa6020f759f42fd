/**
 * assetConversion events → pools, swaps and liquidity: a pool created, liquidity added or
 * removed, a swap and its path (in either shape the runtimes have had), a 2023 swap's `Transfer`
 * legs, a pool touched. Each names the pools whose reserves and LP supply to read again.
 */
import type { PoolRef } from "./chain/reader.js";
import type { ChainEvent } from "./chain/events.js";
import { poolKey } from "./chain/locations.js";
import { amount, poolOf, Skip, tokenOf, touch, u32, type BlockChanges, type CollectContext, type PathStep, type RawSwap } from "./block-changes.js";

/**
 * A swap path in either shape the runtimes have had: `Vec<Location>` (2023) or
 * `Vec<(Location, u128)>` with each step's amount (BalancePath, since 2024).
 */
function swapPath(changes: BlockChanges, ctx: CollectContext, path: unknown): PathStep[] {
  if (!Array.isArray(path) || path.length < 2) throw new Skip("path has fewer than two steps");
  return path.map((step, i) => {
    if (Array.isArray(step) && step.length === 2) return { tokenId: tokenOf(changes, ctx, step[0], `path[${i}]`), amount: amount(step[1], `path[${i}].amount`) };
    if (typeof step === "string") return { tokenId: tokenOf(changes, ctx, step, `path[${i}]`), amount: null };
    throw new Skip(`path[${i}] is neither a location nor a (location, amount) pair`);
  });
}

export function assetConversion(e: ChainEvent, ctx: CollectContext, changes: BlockChanges, legs: RawSwap["legs"]): void {
  const d = e.data;
  switch (e.method) {
    case "PoolCreated": {
      if (!Array.isArray(d.poolId) || d.poolId.length !== 2) throw new Skip("poolId is not a pair of locations");
      const [a, b] = d.poolId.map((l, i) => tokenOf(changes, ctx, l, `poolId[${i}]`)) as [number, number];
      const lp = u32(d.lpToken);
      if (lp === undefined || typeof d.poolAccount !== "string") throw new Skip("no LP token or pool account");
      const ref = { token0Id: a, token1Id: b, lpTokenId: lp, account: d.poolAccount };
      ctx.pools.set(poolKey(a, b), ref);
      changes.createdPools.push(ref);
      changes.pools.add(poolKey(a, b));
      return;
    }
    case "LiquidityAdded":
    case "LiquidityRemoved": {
      const pool = poolOf(changes, ctx, d.poolId);
      const key = poolKey(pool.token0Id, pool.token1Id);
      changes.pools.add(key);
      const add = e.method === "LiquidityAdded";
      changes.liquidity.push({
        eventIndex: e.index,
        extrinsic: e.extrinsic,
        kind: add ? "add" : "remove",
        pool: key,
        who: String(d.who),
        amount0: amount(add ? d.amount1Provided : d.amount1, "amount1"),
        amount1: amount(add ? d.amount2Provided : d.amount2, "amount2"),
        lpAmount: amount(add ? d.lpTokenMinted : d.lpTokenBurned, "lpToken amount"),
      });
      return;
    }
    case "SwapExecuted":
    case "SwapCreditExecuted": {
      const path = swapPath(changes, ctx, d.path);
      const who = e.method === "SwapExecuted" ? (typeof d.who === "string" ? d.who : null) : null;
      const swap = { eventIndex: e.index, event: `assetConversion.${e.method}`, who, extrinsic: e.extrinsic, path, amountIn: amount(d.amountIn, "amountIn"), amountOut: amount(d.amountOut, "amountOut"), legs: [...legs] };
      for (let i = 0; i + 1 < path.length; i++) {
        const pool = findPool(ctx.pools, path[i]!.tokenId, path[i + 1]!.tokenId);
        if (pool) changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
      }
      changes.swaps.push(swap);
      return;
    }
    case "Transfer": {
      // One leg of a swap on the 2023 runtimes (later ones emit none).
      const tokenId = tokenOf(changes, ctx, d.asset, "asset");
      touch(changes, tokenId, d.from);
      touch(changes, tokenId, d.to);
      if (typeof d.from === "string") legs.push({ from: d.from, tokenId, amount: amount(d.amount, "amount") });
      return;
    }
    case "Touched": {
      const pool = poolOf(changes, ctx, d.poolId);
      changes.pools.add(poolKey(pool.token0Id, pool.token1Id));
      return;
    }
    default:
      // A new event of the pallet (per-pool fees are merged upstream) may change what pools,
      // fees or swaps mean: say so rather than carry on as if nothing happened.
      throw new Skip("an assetConversion event this version of TokenPool does not handle");
  }
}

/** The pool of two tokens in either order, as the chain keys it. */
export function findPool(pools: Map<string, PoolRef>, a: number, b: number): PoolRef | undefined {
  return pools.get(poolKey(a, b)) ?? pools.get(poolKey(b, a));
}
