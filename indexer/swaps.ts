/**
 * Swap and liquidity rows of a block. A multi-hop swap is a row per pool it crossed (each
 * counts in its own pool's volume); the LP fee of a hop is the pallet's LP fee (parts per
 * million, whatever unit the runtime states it in) of its amount in, as the pallet takes it.
 * Values are in USD at the prices of the swap's own block.
 */
import type { NewLiquidityEvent, NewSwap } from "../db/index.js";
import { formatFixed, USD_SCALE, usdValue } from "../shared/decimal.js";
import type { PoolRef } from "./chain/reader.js";
import type { RawLiquidity, RawSwap, SkippedEvent } from "./block-changes.js";
import { findPool } from "./pool-events.js";

export interface Valuation {
  prices: Map<number, bigint>;
  decimals: Map<number, number>;
  /** LP fee in parts per million of the amount in (assetConversion.LPFee, normalised). */
  lpFeePpm: bigint;
  /** Why the runtime's LP fee is not known, if it is not: then no swap of the block gets a row. */
  feeUnknown?: string;
}

const PPM = 1_000_000n;

export interface Hop {
  pool: PoolRef;
  tokenIn: number;
  tokenOut: number;
  amountIn: bigint;
  amountOut: bigint;
}

/**
 * The hops of a swap, or why they cannot be told. Current runtimes give every step's amount in
 * the path; the 2023 ones give the first amount in and the last amount out, and a middle amount
 * is what the hop's pool sent on (its assetConversion.Transfer leg).
 */
export function swapHops(swap: RawSwap, pools: Map<string, PoolRef>): Hop[] | string {
  const hops: Hop[] = [];
  let amountIn = BigInt(swap.path[0]?.amount ?? swap.amountIn);
  for (let i = 0; i + 1 < swap.path.length; i++) {
    const tokenIn = swap.path[i]!.tokenId;
    const step = swap.path[i + 1]!;
    const tokenOut = step.tokenId;
    const pool = findPool(pools, tokenIn, tokenOut);
    if (!pool) return `no known pool for hop ${i} (${tokenIn} → ${tokenOut})`;
    const last = i + 2 === swap.path.length;
    const leg = swap.legs.find((l) => l.from === pool.account && l.tokenId === tokenOut);
    const out = step.amount ?? (last ? swap.amountOut : leg?.amount);
    if (out === undefined) return `no amount for hop ${i}: the path has none and no Transfer leg left pool ${pool.account}`;
    hops.push({ pool, tokenIn, tokenOut, amountIn, amountOut: BigInt(out) });
    amountIn = BigInt(out);
  }
  return hops;
}

/** USD value of an amount of a token; through the other side of the trade when unpriced. */
function valueOf(v: Valuation, token: number, amount: bigint, otherToken: number, otherAmount: bigint): bigint {
  const p = v.prices.get(token);
  const d = v.decimals.get(token);
  if (p !== undefined && d !== undefined) return usdValue(amount, d, p);
  const po = v.prices.get(otherToken);
  const dother = v.decimals.get(otherToken);
  return po !== undefined && dother !== undefined ? usdValue(otherAmount, dother, po) : 0n;
}

export function swapRows(
  swaps: RawSwap[],
  pools: Map<string, PoolRef>,
  v: Valuation,
  block: { number: number; timestamp: number },
): { rows: NewSwap[]; skipped: SkippedEvent[] } {
  const rows: NewSwap[] = [];
  const skipped: SkippedEvent[] = [];
  // Without a fee the runtime states in a known unit, a swap's fee would be a guess.
  if (v.feeUnknown) return { rows, skipped: swaps.map((w) => ({ eventIndex: w.eventIndex, event: w.event, reason: `LP fee unknown: ${v.feeUnknown}` })) };
  for (const swap of swaps) {
    const hops = swapHops(swap, pools);
    if (typeof hops === "string") {
      skipped.push({ eventIndex: swap.eventIndex, event: swap.event, reason: hops });
      continue;
    }
    hops.forEach((h, hop) => {
      const fee = (h.amountIn * v.lpFeePpm) / PPM;
      const volume = valueOf(v, h.tokenIn, h.amountIn, h.tokenOut, h.amountOut);
      rows.push({
        blockNumber: block.number,
        eventIndex: swap.eventIndex,
        hop,
        token0Id: h.pool.token0Id,
        token1Id: h.pool.token1Id,
        tokenIn: h.tokenIn,
        tokenOut: h.tokenOut,
        amountIn: h.amountIn.toString(),
        amountOut: h.amountOut.toString(),
        fee: fee.toString(),
        volumeUsd: formatFixed(volume, USD_SCALE),
        feeUsd: formatFixed((volume * v.lpFeePpm) / PPM, USD_SCALE),
        account: swap.who,
        timestamp: block.timestamp,
        extrinsicIndex: swap.extrinsic,
        hops: hops.length,
      });
    });
  }
  return { rows, skipped };
}

export function liquidityRows(events: RawLiquidity[], pools: Map<string, PoolRef>, block: { number: number; timestamp: number }): NewLiquidityEvent[] {
  return events.flatMap((e) => {
    const pool = pools.get(e.pool);
    if (!pool) return [];
    return [
      {
        blockNumber: block.number,
        eventIndex: e.eventIndex,
        kind: e.kind,
        token0Id: pool.token0Id,
        token1Id: pool.token1Id,
        account: e.who,
        amount0: e.amount0,
        amount1: e.amount1,
        lpAmount: e.lpAmount,
        timestamp: block.timestamp,
        extrinsicIndex: e.extrinsic,
      },
    ];
  });
}
