/**
 * The oracle: USD value of every token, derived from the chain's own pools (the chain has no
 * price-feed pallet). A stablecoin of USD_STABLECOINS is worth 1 USD; any other token is priced
 * through a pool with a stablecoin (direct) or with the native token (through the native
 * token's own stablecoin price). Of the candidate routes, the deepest wins: a route is as deep
 * as its shallowest pool, a pool as deep as the USD value on its priced side, doubled. Pools
 * under the minimum liquidity are ignored. All math is exact fixed-point (USD_SCALE).
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

interface Quote {
  price: bigint;
  depth: bigint;
}

/** Price of `other` through `pool` given the USD price of `known` and the depth so far. */
function quote(pool: PoolState, known: number, price: bigint, decimals: Map<number, number>, depthSoFar: bigint, min: bigint): [number, Quote] | undefined {
  const knownIs0 = pool.token0Id === known;
  const other = knownIs0 ? pool.token1Id : pool.token0Id;
  const [rKnown, rOther] = knownIs0 ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
  const dKnown = decimals.get(known);
  const dOther = decimals.get(other);
  if (dKnown === undefined || dOther === undefined || rKnown === 0n || rOther === 0n) return undefined;
  const depth = 2n * usdValue(rKnown, dKnown, price);
  if (depth < min || depth === 0n) return undefined;
  // (whole `known` per whole `other`) × (USD per whole `known`), in one division: exact floor.
  const usdPerOther = mulDiv(rKnown * pow10(dOther), price, rOther * pow10(dKnown));
  return [other, { price: usdPerOther, depth: depth < depthSoFar ? depth : depthSoFar }];
}

function better(a: Quote | undefined, b: Quote): boolean {
  return a === undefined || b.depth > a.depth;
}

export function computePrices(inputs: PriceInputs): Map<number, bigint> {
  const one = pow10(USD_SCALE);
  const pools = [...inputs.pools];
  const prices = new Map<number, bigint>();
  for (const id of inputs.stablecoins) if (inputs.decimals.has(id)) prices.set(id, one);

  const INFINITE = 1n << 255n;
  const candidates = (from: Map<number, Quote>): Map<number, Quote> => {
    const best = new Map<number, Quote>();
    for (const pool of pools) {
      for (const known of [pool.token0Id, pool.token1Id]) {
        const base = from.get(known);
        if (!base) continue;
        const q = quote(pool, known, base.price, inputs.decimals, base.depth, inputs.minLiquidityUsd);
        if (!q || inputs.stablecoins.has(q[0])) continue;
        if (better(best.get(q[0]), q[1])) best.set(q[0], q[1]);
      }
    }
    return best;
  };

  const stable = new Map([...prices].map(([id, price]) => [id, { price, depth: INFINITE }]));
  const direct = candidates(stable);
  // Through the native token: only the native token's direct price is a base for a second hop.
  const native = direct.get(inputs.nativeTokenId);
  const viaNative = native ? candidates(new Map([[inputs.nativeTokenId, native]])) : new Map<number, Quote>();
  const chosen = new Map(direct);
  for (const [id, q] of viaNative) {
    if (id !== inputs.nativeTokenId && better(chosen.get(id), q)) chosen.set(id, q);
  }
  for (const [id, q] of chosen) prices.set(id, q.price);
  return prices;
}
