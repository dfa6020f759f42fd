import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { computePrices, MAX_ROUTE_HOPS, type PoolState } from "../../indexer/prices.js";

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

describe("oracle routes through any pools", () => {
  const X = 5;
  const Y = 6;
  const Z = 8;
  const Y2 = 9;
  const d = new Map([...decimals, [X, 8], [Y, 3], [Z, 12], [Y2, 3]]);
  const p = (a: number, ra: string, b: number, rb: string): PoolState => ({ token0Id: a, token1Id: b, reserve0: units(ra, d.get(a)!), reserve1: units(rb, d.get(b)!) });
  const price = (pools: PoolState[], min = "100") => usd(computePrices({ ...inputs(pools, min), decimals: d }));

  it("prices a token of a pool without the native token through its priced side", () => {
    // Y = 4000 USDt / 1000 Y = 4 (8,000 deep); X = 200 Y × 4 / 50 X = 16 (the Y side: 1,600 deep).
    const prices = price([p(Y, "1000", USDT, "4000"), p(X, "50", Y, "200")]);
    expect(prices[Y]).toBe("4");
    expect(prices[X]).toBe("16");
    // Without Y's route, neither has a price: a pool of two unpriced tokens prices nothing.
    expect(price([p(X, "50", Y, "200")])).toEqual({ [USDT]: "1", [USDC]: "1" });
  });

  it("prices over three pools, and not over four (MAX_ROUTE_HOPS)", () => {
    expect(MAX_ROUTE_HOPS).toBe(3);
    const three = [p(KSM, "1000", USDT, "25000"), p(KSM, "100", Y, "1000"), p(Y, "400", X, "100")];
    // KSM 25; Y = 100 KSM × 25 / 1000 = 2.5; X = 400 Y × 2.5 / 100 = 10 (Y side 1,000 USD: 2,000 deep).
    expect(price(three)).toEqual({ [USDT]: "1", [USDC]: "1", [KSM]: "25", [Y]: "2.5", [X]: "10" });
    // Z is a fourth pool away (X side 100 USD: 200 deep, above the floor): no price.
    const four = [...three, p(X, "10", Z, "1000")];
    expect(Object.keys(price(four)).length).toBe(5);
    expect(price(four)[Z]).toBeUndefined();
    // A pool with a stablecoin brings Z within reach: 1 hop (120 deep).
    expect(price([...four, p(Z, "100", USDC, "60")])[Z]).toBe("0.6");
  });

  it("takes a deeper longer route over a shallower shorter one", () => {
    const shortThin = p(X, "100", USDT, "100"); // X = 1, 200 deep
    const ksm = p(KSM, "1000", USDT, "25000"); // 50,000 deep
    const viaKsm = p(KSM, "48", X, "1000"); // X = 48 × 25 / 1000 = 1.2; KSM side 1,200 USD: 2,400 deep
    expect(price([shortThin, ksm, viaKsm])[X]).toBe("1.2");
    // A longer route whose first pool is the thinnest loses to the shorter one.
    const ksmThin = p(KSM, "2", USDT, "50"); // 200 deep: ties the short route, and a tie goes to the shorter route
    expect(price([shortThin, ksmThin, viaKsm])[X]).toBe("1");
    const ksmThinner = p(KSM, "1", USDT, "75"); // 150 deep, KSM 75
    expect(price([shortThin, ksmThinner, viaKsm], "100")[X]).toBe("1");
  });

  it("walks cycles without looping or repricing, and prices nothing in a cycle without an anchor", () => {
    // KSM → Y → X → KSM: X's own pool with KSM says 30 × 25 / 50 = 15 (1,500 deep), the way round
    // through Y says 10 (2,000 deep); going on round the ring (KSM or Y through X) is never deeper
    // than the route it started from, so nothing is repriced.
    const ring = [p(KSM, "1000", USDT, "25000"), p(KSM, "100", Y, "1000"), p(Y, "400", X, "100"), p(X, "50", KSM, "30")];
    expect(price(ring)).toEqual({ [USDT]: "1", [USDC]: "1", [KSM]: "25", [Y]: "2.5", [X]: "10" });
    const island = [p(X, "10", Y, "10"), p(Y, "10", Z, "10"), p(Z, "10", X, "10")];
    expect(price([...ring.slice(0, 1), ...island])).toEqual({ [USDT]: "1", [USDC]: "1", [KSM]: "25" });
  });

  it("breaks ties the same way whatever the order of the pools: the shorter route, then the lower token it enters from", () => {
    // Y and Y2 both 500 deep (their stable pools are the bottleneck) but say different things about X.
    const pools = [p(Y, "250", USDT, "250"), p(Y2, "125", USDC, "250"), p(X, "1000", Y, "10000"), p(X, "1000", Y2, "10000")];
    // Through Y (6): 10000 × 1 / 1000 = 10; through Y2 (9): 10000 × 2 / 1000 = 20. Equal depth: Y, the lower id.
    expect(price(pools)[X]).toBe("10");
    expect(price([...pools].reverse())[X]).toBe("10");
  });

  it("gives every market whose pools all hold the native token the prices of the native-only walk", () => {
    const assets = [X, Y, Z, Y2, TEN, WHL];
    const reserve = fc.bigInt({ min: 0n, max: 10n ** 30n });
    const market = fc.record({
      stable: fc.array(fc.tuple(fc.constantFrom(USDT, USDC), reserve, reserve), { maxLength: 2 }),
      assets: fc.array(fc.tuple(fc.constantFrom(...assets), reserve, reserve), { maxLength: 6 }),
      min: fc.bigInt({ min: 0n, max: 10n ** 24n }),
    });
    fc.assert(
      fc.property(market, ({ stable, assets: held, min }) => {
        // One pool per pair (as the chain keys them), the stable pools in id order (the old walk kept the first of equals).
        const byPair = new Map<number, PoolState>();
        for (const [id, r0, r1] of [...stable].sort((a, b) => a[0] - b[0])) if (!byPair.has(id)) byPair.set(id, { token0Id: KSM, token1Id: id, reserve0: r0, reserve1: r1 });
        for (const [id, r0, r1] of held) if (!byPair.has(id)) byPair.set(id, { token0Id: KSM, token1Id: id, reserve0: r0, reserve1: r1 });
        const pools = [...byPair.values()];
        const args = { pools, decimals: d, stablecoins: new Set([USDT, USDC]), nativeTokenId: KSM, minLiquidityUsd: min };
        expect(usd(computePrices(args))).toEqual(usd(nativeOnlyPrices(args)));
      }),
      { numRuns: 300 },
    );
  });
});

/** The walk before routes through any pool (stablecoin → native → token), kept as the reference for native-only markets. */
function nativeOnlyPrices(inputs: { pools: PoolState[]; decimals: Map<number, number>; stablecoins: Set<number>; nativeTokenId: number; minLiquidityUsd: bigint }): Map<number, bigint> {
  type Q = { price: bigint; depth: bigint };
  const prices = new Map<number, bigint>();
  for (const id of inputs.stablecoins) if (inputs.decimals.has(id)) prices.set(id, 10n ** 18n);
  const candidates = (from: Map<number, Q>) => {
    const best = new Map<number, Q>();
    for (const pool of inputs.pools) {
      for (const known of [pool.token0Id, pool.token1Id]) {
        const base = from.get(known);
        if (!base) continue;
        const knownIs0 = pool.token0Id === known;
        const other = knownIs0 ? pool.token1Id : pool.token0Id;
        const [rk, ro] = knownIs0 ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
        const dk = inputs.decimals.get(known)!;
        const dO = inputs.decimals.get(other)!;
        if (rk === 0n || ro === 0n || inputs.stablecoins.has(other)) continue;
        const depth = (2n * rk * base.price) / 10n ** BigInt(dk);
        if (depth < inputs.minLiquidityUsd || depth === 0n) continue;
        const q = { price: (rk * 10n ** BigInt(dO) * base.price) / (ro * 10n ** BigInt(dk)), depth: depth < base.depth ? depth : base.depth };
        const cur = best.get(other);
        if (!cur || q.depth > cur.depth) best.set(other, q);
      }
    }
    return best;
  };
  const direct = candidates(new Map([...prices].map(([id, price]) => [id, { price, depth: 1n << 255n }])));
  const native = direct.get(inputs.nativeTokenId);
  const chosen = new Map(direct);
  if (native) for (const [id, q] of candidates(new Map([[inputs.nativeTokenId, native]]))) if (id !== inputs.nativeTokenId && (!chosen.get(id) || q.depth > chosen.get(id)!.depth)) chosen.set(id, q);
  for (const [id, q] of chosen) prices.set(id, q.price);
  return prices;
}
