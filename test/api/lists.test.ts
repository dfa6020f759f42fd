import { beforeEach, expect, it } from "vitest";
import { buildApp, expectError, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { allTokens, insertPrices, latestPrices, listPools, upsertPools } from "../../db/index.js";
import { formatFixed, USD_SCALE } from "../../shared/decimal.js";
import { tvl } from "../../api/services/pools.js";
import { DOG, DUP_A, DUP_B, HEAD_BLOCK, HEAD_TIME, HOUR, KSM, LONELY, PUSDC, PUSDC_LOCATION, seedMarket, TEN, USDT, WETH, ZERO } from "../support/fixtures.js";

describeDb("list endpoints and price history", (ctx) => {
  let t: TestApp;
  beforeEach(async () => {
    await seedMarket(ctx.db);
    t = buildApp(ctx.db);
  });

  it("GET /assets: every token with supply, USD value, market cap and holders, public, by id by default", async () => {
    const res = await t.get("/assets");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { assets: Array<Record<string, unknown>> } & Record<string, unknown>;
    expect(body).toMatchObject({ page: 1, limit: 50, total: 10, totalPages: 1, sort: "id", order: "asc", blockNumber: HEAD_BLOCK });
    expect(body.assets.map((a) => a.tokenId)).toEqual([KSM, ZERO, TEN, WETH, DUP_A, DUP_B, LONELY, USDT, DOG, PUSDC]);
    expect(body.assets.find((a) => a.tokenId === TEN)).toEqual({
      tokenId: TEN,
      name: "Ten",
      symbol: "TEN",
      kind: "asset",
      assetId: TEN,
      location: null,
      decimals: 10,
      totalSupply: "1000000000000",
      valueUsd: "0.25",
      marketCapUsd: "25", // 100 whole TEN × 0.25
      holders: 5,
      status: "live",
    });
    expect(body.assets.find((a) => a.tokenId === ZERO)).toMatchObject({ valueUsd: null, marketCapUsd: null, holders: 0, status: "frozen" });
    expect(body.assets.find((a) => a.tokenId === PUSDC)).toMatchObject({ kind: "foreign", assetId: null, location: PUSDC_LOCATION, valueUsd: "1", marketCapUsd: "5", holders: 2 });
    expect(body.assets.find((a) => a.tokenId === DOG)).toMatchObject({ kind: "asset", assetId: 0, symbol: "DOG" });
  });

  it("GET /assets?tokenId= answers that token's row exactly as the full list has it, or none", async () => {
    const all = (await (await t.get("/assets?limit=500")).json()) as { assets: { tokenId: number }[]; blockNumber: number };
    for (const id of [KSM, USDT, ZERO, PUSDC]) {
      const one = (await (await t.get(`/assets?tokenId=${id}`)).json()) as { total: number; assets: unknown[]; blockNumber: number };
      expect(one.total).toBe(1);
      expect(one.assets).toEqual(all.assets.filter((a) => a.tokenId === id));
      expect(one.blockNumber).toBe(all.blockNumber);
    }
    const none = (await (await t.get("/assets?tokenId=999999")).json()) as { total: number; assets: unknown[] };
    expect(none).toMatchObject({ total: 0, assets: [] });
    await expectError(await t.get("/assets?tokenId=007"), 400, "VALIDATION_ERROR");
  });

  it("GET /assets sorts exactly and pages; tokens without a value come last either way", async () => {
    const byValue = (await (await t.get("/assets?sort=valueUsd&limit=3")).json()) as { assets: { tokenId: number }[]; totalPages: number };
    expect(byValue.assets.map((a) => a.tokenId)).toEqual([WETH, KSM, USDT]);
    expect(byValue.totalPages).toBe(4);
    const asc = (await (await t.get("/assets?sort=valueUsd&order=asc&limit=6")).json()) as { assets: { tokenId: number }[] };
    expect(asc.assets.map((a) => a.tokenId)).toEqual([TEN, USDT, PUSDC, KSM, WETH, ZERO]);
    const cap = (await (await t.get("/assets?sort=marketCap&limit=2")).json()) as { assets: { tokenId: number; marketCapUsd: string }[] };
    // 15,000,000 KSM × 12.5 = 187,500,000 USD; 500 WETH × 3000.12… ≈ 1.5 M.
    expect(cap.assets).toMatchObject([{ tokenId: KSM, marketCapUsd: "187500000" }, { tokenId: WETH }]);
    const holders = (await (await t.get("/assets?sort=holders&page=1&limit=1")).json()) as { assets: { tokenId: number }[] };
    expect(holders.assets.map((a) => a.tokenId)).toEqual([TEN]);
    const beyond = (await (await t.get("/assets?page=11")).json()) as { assets: unknown[]; total: number };
    expect(beyond).toMatchObject({ assets: [], total: 10 });
  });

  it("GET /pools: reserves, TVL and 24 h volume per pool, by TVL by default", async () => {
    const res = await t.get("/pools");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { pools: Array<Record<string, any>> } & Record<string, unknown>;
    expect(body).toMatchObject({ total: 3, sort: "tvl", order: "desc" });
    // TVL: 25,000 (KSM/USDt), 1,525 (2 KSM + 0.5 WETH), 125 (10 KSM only: ZERO's price expired)
    expect(body.pools.map((p) => p.lpTokenId)).toEqual([1, 3, 2]);
    expect(body.pools[0]).toEqual({
      tokenA: { tokenId: KSM, symbol: "KSM", decimals: 12, kind: "native", assetId: null, location: null, reserve: "1000000000000000", priceUsd: "12.5" },
      tokenB: { tokenId: USDT, symbol: "USDt", decimals: 6, kind: "asset", assetId: USDT, location: null, reserve: "12500000000", priceUsd: "1" },
      lpTokenId: 1,
      totalValueLocked: "25000",
      volume24h: "150.5", // the swap 25 h ago is outside the window
      fees24h: "0.4515",
      swaps24h: 2,
    });
    const byVolume = (await (await t.get("/pools?sort=volume24h&order=asc")).json()) as { pools: { lpTokenId: number }[] };
    expect(byVolume.pools.map((p) => p.lpTokenId)).toEqual([2, 3, 1]);
  });

  it("GET /pools: TVL summed in SQL equals tvl() on bigints, and a page's totals equal those of the whole list, whatever the sort", async () => {
    // More pools: odd decimals and reserves, a price past 18 decimals, a token without a row, one without a price.
    await insertPrices(ctx.db, [{ tokenId: DOG, blockNumber: HEAD_BLOCK, priceUsd: "0.0000123456789012345678999" }]);
    await upsertPools(ctx.db, [
      { token0Id: KSM, token1Id: DOG, lpTokenId: 4, account: "pool-ksm-dog", reserve0: "123456789012345", reserve1: "987654321987654321", lpSupply: "1", lpFeePpm: 3000, createdBlock: 900, blockNumber: HEAD_BLOCK },
      { token0Id: TEN, token1Id: WETH, lpTokenId: 5, account: "pool-ten-weth", reserve0: "777777777777", reserve1: "333333333333333333", lpSupply: "1", lpFeePpm: 3000, createdBlock: 900, blockNumber: HEAD_BLOCK },
      { token0Id: KSM, token1Id: 4_242, lpTokenId: 6, account: "pool-ksm-gone", reserve0: "5000000000000", reserve1: "1", lpSupply: "1", lpFeePpm: 3000, createdBlock: 900, blockNumber: HEAD_BLOCK },
      { token0Id: ZERO, token1Id: LONELY, lpTokenId: 7, account: "pool-unpriced", reserve0: "5", reserve1: "6", lpSupply: "1", lpFeePpm: 3000, createdBlock: 900, blockNumber: HEAD_BLOCK },
    ]);
    const pools = await listPools(ctx.db);
    const tokens = new Map((await allTokens(ctx.db)).map((tk) => [tk.id, tk]));
    const prices = await latestPrices(ctx.db);
    const expected = new Map(pools.map((p) => [p.lpTokenId, formatFixed(tvl(p, tokens, prices), USD_SCALE)]));
    const list = async (query: string) => ((await (await t.get(`/pools?${query}`)).json()) as { pools: Array<Record<string, any>> }).pools;
    const all = await list("sort=volume24h&limit=500");
    expect(all).toHaveLength(7);
    for (const p of all) expect(p.totalValueLocked, `pool ${p.lpTokenId}`).toBe(expected.get(p.lpTokenId));
    const byId = new Map(all.map((p) => [p.lpTokenId, p]));
    for (const query of ["sort=tvl", "sort=tvl&order=asc&limit=3&page=2", "sort=id&order=desc&limit=2", "sort=swaps24h", "sort=id&limit=1&page=7"]) {
      for (const p of await list(query)) expect(p, `${query}: pool ${p.lpTokenId}`).toEqual(byId.get(p.lpTokenId));
    }
    const stats = (await (await t.get("/pool/stats")).json()) as { totalValueLocked: string; totalPools: number };
    expect(stats.totalPools).toBe(7);
    expect(stats.totalValueLocked).toBe(formatFixed(pools.reduce((sum, p) => sum + tvl(p, tokens, prices), 0n), USD_SCALE));
  });

  it("GET /oracle/history/{id}: the last value at the end of each interval, null before the first", async () => {
    const res = await t.get(`/oracle/history/${KSM}?from=${HEAD_TIME - 26 * HOUR}&to=${HEAD_TIME}&interval=${13 * HOUR}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      tokenId: KSM,
      symbol: "KSM",
      kind: "native",
      assetId: null,
      location: null,
      from: HEAD_TIME - 26 * HOUR,
      to: HEAD_TIME,
      interval: 13 * HOUR,
      // The fixture's store holds every block's events from the chain's first.
      historyFrom: 0,
      historyFromTime: null,
      historyGaps: [],
      historyComplete: true,
      points: [
        { timestamp: HEAD_TIME - 13 * HOUR, valueUsd: "10", blockNumber: 1_000 },
        { timestamp: HEAD_TIME, valueUsd: "12.5", blockNumber: HEAD_BLOCK },
      ],
    });
    const early = (await (await t.get(`/oracle/history/${KSM}?from=${HEAD_TIME - 30 * HOUR}&to=${HEAD_TIME - 26 * HOUR}&interval=${2 * HOUR}`)).json()) as { points: unknown[] };
    expect(early.points).toEqual([
      { timestamp: HEAD_TIME - 28 * HOUR, valueUsd: null, blockNumber: null },
      { timestamp: HEAD_TIME - 26 * HOUR, valueUsd: null, blockNumber: null },
    ]);
    const byDefault = (await (await t.get(`/oracle/history/${USDT}`)).json()) as { from: number; to: number; interval: number; points: { valueUsd: string }[] };
    expect(byDefault).toMatchObject({ from: HEAD_TIME - 24 * HOUR, to: HEAD_TIME, interval: HOUR });
    expect(byDefault.points).toHaveLength(24);
    expect(new Set(byDefault.points.map((p) => p.valueUsd))).toEqual(new Set(["1"]));
  });

  it("rejects bad queries with VALIDATION_ERROR naming the parameter, and unknown tokens with 404", async () => {
    expect(await expectError(await t.get("/assets?sort=price"), 400, "VALIDATION_ERROR")).toContain("sort");
    expect(await expectError(await t.get("/assets?order=up"), 400, "VALIDATION_ERROR")).toContain("order");
    expect(await expectError(await t.get("/pools?limit=501"), 400, "VALIDATION_ERROR")).toContain("limit");
    expect(await expectError(await t.get("/pools?page=0"), 400, "VALIDATION_ERROR")).toContain("page");
    expect(await expectError(await t.get(`/oracle/history/${KSM}?interval=1`), 400, "VALIDATION_ERROR")).toContain("interval");
    expect(await expectError(await t.get(`/oracle/history/${KSM}?from=10&to=5`), 400, "VALIDATION_ERROR")).toContain("from");
    expect(await expectError(await t.get(`/oracle/history/${KSM}?from=0&to=${HEAD_TIME}&interval=60`), 400, "VALIDATION_ERROR")).toContain("interval");
    await expectError(await t.get("/oracle/history/4242"), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get("/oracle/history/x1"), 400, "VALIDATION_ERROR");
  });
});
