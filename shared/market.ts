/**
 * Pool arithmetic shared by the API and the price engine. Inputs are u128 reserves (bigint,
 * smallest units) and USD prices as fixed-point bigints with USD_SCALE digits.
 */
import { mulDiv, pow10, USD_SCALE, usdValue } from "./decimal.js";

export interface Side {
  reserve: bigint;
  decimals: number;
  /** USD per whole token, fixed USD_SCALE; undefined when the token has no price. */
  priceUsd: bigint | undefined;
}

/**
 * USD value locked in a pool: the USD value of each priced side, each once. An unpriced side
 * counts nothing: counting the priced side again would value the other token at this pool's own
 * ratio, which is the price the oracle refused (a pool beside a priced token prices the other
 * unless it is under the liquidity floor or past the route bound). No priced side: 0.
 */
export function poolTvlUsd(a: Side, b: Side): bigint {
  const va = a.priceUsd === undefined ? 0n : usdValue(a.reserve, a.decimals, a.priceUsd);
  const vb = b.priceUsd === undefined ? 0n : usdValue(b.reserve, b.decimals, b.priceUsd);
  return va + vb;
}

/** Spot price of one whole A in whole B from the reserves (fixed USD_SCALE); 0 for an empty pool. */
export function spotPrice(reserveA: bigint, decimalsA: number, reserveB: bigint, decimalsB: number): bigint {
  if (reserveA === 0n) return 0n;
  return mulDiv(reserveB * pow10(decimalsA), pow10(USD_SCALE), reserveA * pow10(decimalsB));
}

/** (now − then) / then in percent (fixed USD_SCALE); 0 when there is no earlier value. */
export function percentChange(now: bigint, then: bigint): bigint {
  if (then === 0n) return 0n;
  return mulDiv(now - then, 100n * pow10(USD_SCALE), then);
}

/** Yearly fee return on the liquidity, in percent: fees24h × 365 / TVL × 100 (fixed USD_SCALE). */
export function aprPercent(fees24hUsd: bigint, tvlUsd: bigint): bigint {
  // Both inputs carry USD_SCALE digits and cancel out, so scale the quotient back up.
  return tvlUsd === 0n ? 0n : mulDiv(fees24hUsd * 365n * 100n, pow10(USD_SCALE), tvlUsd);
}
