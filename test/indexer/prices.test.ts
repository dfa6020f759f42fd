import { describe, expect, it } from "vitest";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { computePrices, type PoolState } from "../../indexer/prices.js";

const KSM = 0;
const USDT = 1984;
const USDC = 1337;
const TEN = 10;
const WHL = 7;
const decimals = new Map([[KSM, 12], [USDT, 6], [USDC, 6], [TEN, 10], [WHL, 0]]);
const units = (whole: string, d: number) => parseFixed(whole, d);
const pool = (a: number, ra: string, b: number, rb: string): PoolState => ({ token0Id: a, token1Id: b, reserve0: units(ra, decimals.get(a)!), reserve1: units(rb, decimals.get(b)!) });
const usd = (m: Map<number, bigint>) => Object.fromEntries([...m].map(([id, p]) => [id, formatFixed(p, USD_SCALE)]));
const inputs = (pools: PoolState[], min = "100") => ({ pools, decimals, stablecoins: new Set([USDT, USDC]), nativeTokenId: KSM, minLiquidityUsd: parseFixed(min, USD_SCALE) });

describe("oracle prices", () => {
  it("prices stablecoins at 1, the native token directly, and assets through the native token", () => {
    const prices = computePrices(inputs([pool(KSM, "1000", USDT, "25000"), pool(KSM, "100", TEN, "400"), pool(KSM, "10", WHL, "3")]));
    expect(usd(prices)).toEqual({ [USDT]: "1", [USDC]: "1", [KSM]: "25", [TEN]: "6.25", [WHL]: "83.333333333333333333" });
  });

  it("takes the deepest route: a deep direct pool beats a shallow one, depth of a route = its shallowest pool", () => {
    const shallow = pool(KSM, "10", USDT, "300"); // 600 USD deep, says 30
    const deep = pool(KSM, "1000", USDC, "24000"); // 48,000 USD deep, says 24
    expect(usd(computePrices(inputs([shallow, deep])))[KSM]).toBe("24");
    // TEN: direct against USDT 1,000 USD deep (2 USD each) vs through KSM (KSM side 5,000 USD)
    const direct = pool(TEN, "250", USDT, "500");
    const viaNative = pool(KSM, "100", TEN, "1000"); // 2.4 USD per TEN
    expect(usd(computePrices(inputs([shallow, deep, direct, viaNative])))[TEN]).toBe("2.4");
    // With the native route capped by a thin KSM/USD pool, the direct one wins.
    expect(usd(computePrices(inputs([shallow, direct, viaNative])))[TEN]).toBe("2");
  });

  it("ignores pools under the minimum liquidity and empty pools", () => {
    const thin = pool(KSM, "1", USDT, "25"); // 50 USD deep
    expect(computePrices(inputs([thin], "100")).has(KSM)).toBe(false);
    expect(usd(computePrices(inputs([thin], "50")))[KSM]).toBe("25");
    expect(computePrices(inputs([{ token0Id: KSM, token1Id: USDT, reserve0: 0n, reserve1: 0n }])).has(KSM)).toBe(false);
  });

  it("never reprices a stablecoin from a pool", () => {
    const prices = computePrices(inputs([pool(KSM, "1000", USDT, "25000"), pool(KSM, "1000", USDC, "50000")]));
    expect(usd(prices)[USDC]).toBe("1");
    expect(usd(prices)[USDT]).toBe("1");
  });
});
