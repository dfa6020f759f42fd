/**
 * Transfer rows of a block: each balance movement an event reported (indexer/movements.ts), with
 * its block, time, and its USD value at the prices of its own block (null for a token without
 * one, and for LP tokens, which have no price of their own).
 */
import type { NewTransfer } from "../db/index.js";
import { formatFixed, USD_SCALE, usdValue } from "../shared/decimal.js";
import type { RawTransfer } from "./block-changes.js";

export function transferRows(raw: RawTransfer[], prices: { prices: Map<number, bigint>; decimals: Map<number, number> }, at: { number: number; timestamp: number }): NewTransfer[] {
  return raw.map((t) => {
    const price = t.tokenId === null ? undefined : prices.prices.get(t.tokenId);
    const decimals = t.tokenId === null ? undefined : prices.decimals.get(t.tokenId);
    return {
      blockNumber: at.number,
      eventIndex: t.eventIndex,
      extrinsicIndex: t.extrinsic,
      timestamp: at.timestamp,
      tokenId: t.tokenId,
      lpTokenId: t.lpTokenId,
      fromAccount: t.from,
      toAccount: t.to,
      amount: t.amount,
      kind: t.kind,
      event: t.event,
      tip: t.tip,
      valueUsd: price === undefined || decimals === undefined ? null : formatFixed(usdValue(BigInt(t.amount), decimals, price), USD_SCALE),
    };
  });
}
