/**
 * The oracle: USD value of every token, derived from the chain's own pools (the chain has no
 * price-feed pallet). A stablecoin of USD_STABLECOINS is worth 1 USD; any other token is priced
 * along a route of pools from a stablecoin: directly, through the native token, or through any
 * other tokens, at most MAX_ROUTE_HOPS pools long. Of the candidate routes, the deepest wins: a
 * route is as deep as its shallowest pool, a pool as deep as the USD value on its priced side,
 * doubled. Pools under the minimum liquidity are ignored; a token with no route above it has no
 * price. All math is exact fixed-point (USD_SCALE).
 */
import { mulDiv, USD_SCALE, pow10, usdValue } from "../shared/decimal.js";

export interface PoolState {
  token0Id: number;
  token1Id: number;
  reserve0: bigint;
  reserve1: bigint;
}

export interface PriceInputs {
  pools: Iterable<PoolState>;
  decimals: Map<number, number>;
  stablecoins: Set<number>;
  nativeTokenId: number;
  /** Minimum USD liquidity of a pool (fixed USD_SCALE) to be used for pricing. */
  minLiquidityUsd: bigint;
}

/** A source of USD prices per block; the pools are one, an oracle pallet could be another. */
export interface PriceSource {
  prices(inputs: PriceInputs): Map<number, bigint>;
}

/**
 * Longest route, in pools. A swap on Asset Hub crosses at most maxSwapPathLength − 1 = 3 pools
 * (4 assets), so a token priced over 3 pools can still be sold for the stablecoin in one swap
 * along that very route; a longer route prices through pools no trade can chain, and each hop
 * lets a thin intermediate pool bend the price further.
 */
export const MAX_ROUTE_HOPS = 3;

/** The best route found so far to one token. */
interface Route {
  price: bigint;
  /** Its shallowest pool's depth (USD, fixed USD_SCALE); an anchor's is unbounded. */
  depth: bigint;
  hops: number;
  /** The token the last pool was entered from (a tie-break between equally deep routes). */
  via: number;
}

/** Route to `other` through `pool`, extending the route to `known`; undefined if the pool cannot price. */
function extend(pool: PoolState, known: number, base: Route, decimals: Map<number, number>, min: bigint): [number, Route] | undefined {
  const knownIs0 = pool.token0Id === known;
  const other = knownIs0 ? pool.token1Id : pool.token0Id;
  const [rKnown, rOther] = knownIs0 ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
  const dKnown = decimals.get(known);
  const dOther = decimals.get(other);
  if (dKnown === undefined || dOther === undefined || rKnown === 0n || rOther === 0n) return undefined;
  const depth = 2n * usdValue(rKnown, dKnown, base.price);
  if (depth < min || depth === 0n) return undefined;
  // (whole `known` per whole `other`) × (USD per whole `known`), in one division: exact floor.
  const usdPerOther = mulDiv(rKnown * pow10(dOther), base.price, rOther * pow10(dKnown));
  return [other, { price: usdPerOther, depth: depth < base.depth ? depth : base.depth, hops: base.hops + 1, via: known }];
}

/** Deeper wins; at equal depth the shorter route, then the one entered from the lower token id. */
function better(current: Route | undefined, candidate: Route): boolean {
  if (current === undefined || candidate.depth !== current.depth) return current === undefined || candidate.depth > current.depth;
  if (candidate.hops !== current.hops) return candidate.hops < current.hops;
  return candidate.via < current.via;
}

/**
 * Widest routes of at most MAX_ROUTE_HOPS pools, level by level (a bounded Bellman-Ford): level
 * k extends only the routes that changed at level k − 1, each by one pool, and a route replaces
 * another only when better. A cycle leads back to a token at most as deep as its route already
 * is (a route is never deeper than its prefix), so it never replaces it, and the walk ends after
 * MAX_ROUTE_HOPS levels at most. A level reads the previous one only, so the result does not
 * depend on the order of the pools. Each token's price is that of its own best route.
 */
export function computePrices(inputs: PriceInputs): Map<number, bigint> {
  const pools = [...inputs.pools];
  const INFINITE = 1n << 255n;
  const best = new Map<number, Route>();
  for (const id of inputs.stablecoins) if (inputs.decimals.has(id)) best.set(id, { price: pow10(USD_SCALE), depth: INFINITE, hops: 0, via: -1 });
  let frontier = new Map(best);
  for (let hop = 1; hop <= MAX_ROUTE_HOPS && frontier.size > 0; hop++) {
    const found = new Map<number, Route>();
    for (const pool of pools) {
      for (const known of [pool.token0Id, pool.token1Id]) {
        const base = frontier.get(known);
        if (!base) continue;
        const r = extend(pool, known, base, inputs.decimals, inputs.minLiquidityUsd);
        if (!r || inputs.stablecoins.has(r[0])) continue;
        if (better(found.get(r[0]) ?? best.get(r[0]), r[1])) found.set(r[0], r[1]);
      }
    }
    for (const [id, route] of found) best.set(id, route);
    frontier = found;
  }
  return new Map([...best].map(([id, route]) => [id, route.price]));
}
