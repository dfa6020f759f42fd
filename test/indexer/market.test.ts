/**
 * USD anchors named by symbol (USD_STABLECOINS): anyone can create an asset with any symbol, so a
 * symbol is matched exactly and pinned to the one token that had it when first seen. And prices
 * that expire: a token that loses every route is reported once, and has no price after.
 */
import { describe, expect, it } from "vitest";
import { insertPrices, latestPrice, schema, tokenCandleRows, upsertPools, upsertTokens } from "../../db/index.js";
import { TokenDirectory } from "../../indexer/chain/directory.js";
import { Market, type AnchorNotice } from "../../indexer/market.js";
import { Batch } from "../../indexer/writer.js";
import { describeDb } from "../support/db.js";

const oracle = { nativeTokenId: 0, stablecoins: undefined, minLiquidityUsd: 0n };

function market(symbols: string[]) {
  const notices: AnchorNotice[] = [];
  const m = new Market(oracle, { ids: [1337], symbols }, (n) => notices.push(n));
  return { m, notices };
}

describe("USD anchors by symbol", () => {
  it("pins a symbol to the one token that has it, exactly (USDt is not USDT), and keeps it when a copycat appears", () => {
    const { m, notices } = market(["USDt"]);
    m.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    m.setToken({ id: 66, decimals: 6, symbol: "USDT" }); // Snowbridge's, on Polkadot AH: another token
    expect([...m.anchorIds()].sort()).toEqual([1337, 1984]);
    m.setToken({ id: 99, decimals: 6, symbol: "USDt" }); // a copycat, later
    expect([...m.anchorIds()].sort()).toEqual([1337, 1984]);
    expect(notices).toEqual([{ kind: "pinned", symbol: "USDt", id: 1984 }]);
  });

  it("anchors nothing by a symbol several tokens share when first seen, and says so once", () => {
    const { m, notices } = market(["USDC"]);
    m.setToken({ id: 7, decimals: 6, symbol: "USDC" });
    m.setToken({ id: 8, decimals: 6, symbol: "USDC" });
    expect([...m.anchorIds()]).toEqual([1337]);
    expect([...m.anchorIds()]).toEqual([1337]);
    expect(notices).toEqual([{ kind: "ambiguous", symbol: "USDC", ids: [7, 8] }]);
  });

  it("reports a symbol no token has, then pins it when one appears; look-alike letters do not match", () => {
    const { m, notices } = market(["KSM"]);
    m.setToken({ id: 5, decimals: 12, symbol: "\u212ASM" }); // KELVIN SIGN + "SM"
    expect([...m.anchorIds()]).toEqual([1337]);
    m.setToken({ id: 6, decimals: 12, symbol: "KSM" });
    expect([...m.anchorIds()].sort()).toEqual([1337, 6]);
    expect(notices).toEqual([{ kind: "unmatched", symbol: "KSM" }, { kind: "pinned", symbol: "KSM", id: 6 }]);
  });

  it("keeps its pins across a reconnect (a new market on the same settings)", () => {
    const settings = { ...oracle, pins: new Map<string, number>() };
    const first = new Market(settings, { ids: [], symbols: ["USDt"] });
    first.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    expect([...first.anchorIds()]).toEqual([1984]);
    const second = new Market(settings, { ids: [], symbols: ["USDt"] }); // reloaded from the store after a copycat appeared
    second.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    second.setToken({ id: 99, decimals: 6, symbol: "USDt" });
    expect([...second.anchorIds()]).toEqual([1984]);
  });

  it("prices from the pinned anchor only", () => {
    const { m } = market(["USDt"]);
    m.setToken({ id: 0, decimals: 12, symbol: "KSM" });
    m.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    m.setPool({ token0Id: 0, token1Id: 1984, lpTokenId: 0, account: "a" }, 10n ** 15n, 25_000n * 10n ** 6n);
    expect(m.reprice().get(0)).toBe(25n * 10n ** 18n);
  });
});

describe("prices that expire", () => {
  const KSM = 0;
  const USDT = 1984;
  const TEN = 10;
  const floor = { nativeTokenId: KSM, stablecoins: undefined, minLiquidityUsd: 100n * 10n ** 18n };
  const e = (n: bigint, d: number) => n * 10n ** BigInt(d);
  const ten = { token0Id: KSM, token1Id: TEN, lpTokenId: 2, account: "ten" };

  function priced() {
    const m = new Market(floor, { ids: [USDT], symbols: [] });
    m.setToken({ id: KSM, decimals: 12, symbol: "KSM" });
    m.setToken({ id: USDT, decimals: 6, symbol: "USDt" });
    m.setToken({ id: TEN, decimals: 10, symbol: "TEN" });
    m.setPool({ token0Id: KSM, token1Id: USDT, lpTokenId: 1, account: "usdt" }, e(1000n, 12), e(25_000n, 6)); // KSM = 25
    m.setPool(ten, e(100n, 12), e(1000n, 10)); // TEN = 2.5; KSM side 2,500 USD: 5,000 deep
    return m;
  }

  it("reports a token whose every route fell below the floor as null, once, and drops it from the current prices", () => {
    const m = priced();
    expect(m.reprice()).toEqual(new Map([[USDT, 10n ** 18n], [KSM, 25n * 10n ** 18n], [TEN, 25n * 10n ** 17n]]));
    m.setPool(ten, e(1n, 12), e(10n, 10)); // KSM side 25 USD: 50 deep, under the 100 floor
    expect(m.reprice()).toEqual(new Map([[TEN, null]]));
    expect(m.prices.has(TEN)).toBe(false);
    expect(m.prices.get(KSM)).toBe(25n * 10n ** 18n);
    expect(m.reprice().size).toBe(0); // still unpriced: nothing new to say
    m.setPool(ten, e(40n, 12), e(200n, 10)); // 2,000 deep again: TEN = 5
    expect(m.reprice()).toEqual(new Map([[TEN, 5n * 10n ** 18n]]));
  });

  it("expires a token whose pool or whose token row is gone", () => {
    const m = priced();
    m.reprice();
    m.deleteToken(TEN);
    expect(m.reprice()).toEqual(new Map([[TEN, null]]));
    // The anchor pool emptied: KSM loses its price, and TEN (back) has no route either.
    const n = priced();
    n.reprice();
    n.setPool({ token0Id: KSM, token1Id: USDT, lpTokenId: 1, account: "usdt" }, 0n, 0n);
    expect(n.reprice()).toEqual(new Map([[KSM, null], [TEN, null]]));
    expect([...n.prices.keys()]).toEqual([USDT]);
  });
});

describeDb("Market.load", (ctx) => {
  it("reads a null latest price as no price: nothing to expire again, a price when a route comes back", async () => {
    const db = ctx.db;
    await upsertTokens(db, [
      { id: 0, name: "Kusama", symbol: "KSM", decimals: 12, supply: "1", owner: null, kind: "native", blockNumber: 5 },
      { id: 1984, name: "Tether", symbol: "USDt", decimals: 6, supply: "1", owner: null, kind: "asset", assetId: 1984, blockNumber: 5 },
      { id: 10, name: "Ten", symbol: "TEN", decimals: 10, supply: "1", owner: null, kind: "asset", assetId: 10, blockNumber: 5 },
    ]);
    await upsertPools(db, [
      { token0Id: 0, token1Id: 1984, lpTokenId: 1, account: "usdt", reserve0: "1000000000000000", reserve1: "25000000000", lpSupply: "1", lpFeePpm: 3000, createdBlock: 1, blockNumber: 5 },
      { token0Id: 0, token1Id: 10, lpTokenId: 2, account: "ten", reserve0: "1000000000000", reserve1: "100000000000", lpSupply: "1", lpFeePpm: 3000, createdBlock: 1, blockNumber: 5 },
    ]);
    await insertPrices(db, [
      { tokenId: 0, blockNumber: 3, priceUsd: "25" },
      { tokenId: 1984, blockNumber: 3, priceUsd: "1" },
      { tokenId: 10, blockNumber: 3, priceUsd: "2.5" },
      { tokenId: 10, blockNumber: 5, priceUsd: null },
    ]);
    const settings = { nativeTokenId: 0, stablecoins: undefined, minLiquidityUsd: 100n * 10n ** 18n };
    const m = await Market.load(db, settings, { ids: [1984], symbols: [] }, new TokenDirectory(0));
    expect([...m.prices.keys()].sort((a, b) => a - b)).toEqual([0, 1984]);
    expect(m.reprice().size).toBe(0); // 1 KSM against 10 TEN: 50 USD deep, still under the floor
    m.setPool({ token0Id: 0, token1Id: 10, lpTokenId: 2, account: "ten" }, 10n ** 14n, 10n ** 13n); // 100 KSM / 1000 TEN
    expect(m.reprice()).toEqual(new Map([[10, 25n * 10n ** 17n]]));
  });
});

describeDb("writing an expiry", (ctx) => {
  it("stores the null point, moves the latest price to null, adds nothing to the candles, and the block announcement counts it", async () => {
    const batch = new Batch();
    batch.blocks.push({ number: 7, hash: "0x07", timestamp: 1_795_000_000 }, { number: 8, hash: "0x08", timestamp: 1_795_000_012 });
    batch.prices.push({ tokenId: 10, blockNumber: 7, priceUsd: "2.5" }, { tokenId: 10, blockNumber: 8, priceUsd: null });
    expect(batch.announcements().map((a) => [a.number, a.counts.prices])).toEqual([[7, 1], [8, 1]]);
    await batch.commitHistory(ctx.db);
    const points = await ctx.db.select().from(schema.tokenPrices).orderBy(schema.tokenPrices.blockNumber);
    expect(points.map((p) => [p.blockNumber, p.priceUsd === null ? null : Number(p.priceUsd)])).toEqual([[7, 2.5], [8, null]]);
    expect(await latestPrice(ctx.db, 10)).toEqual({ tokenId: 10, blockNumber: 8, priceUsd: null });
    const candles = await tokenCandleRows(ctx.db, 10, 60, 0, 2_000_000_000);
    expect(candles).toHaveLength(1);
    expect(candles[0]).toMatchObject({ openBlock: 7, closeBlock: 7 });
  });
});
