/**
 * Prices that expire, and pools between any two tokens, as the API answers them: a token whose
 * price expired has no value anywhere a current one is needed (404 PRICE_UNAVAILABLE, null
 * values, TVL of its priced sides only) while its history keeps the old points; a market of
 * pools without the native token is priced through them and its TVL counts each priced side once.
 */
import { beforeEach, expect, it } from "vitest";
import { addTokenCandles, allTokens, insertBlocks, insertPoolReserves, insertPrices, latestPrices, listPools, upsertHolders, upsertLpHolders, upsertPools, upsertTokens, type Database, type NewToken } from "../../db/index.js";
import { LiveHub, type Peer } from "../../api/live/hub.js";
import { parseTopic, type Topic } from "../../api/live/topics.js";
import { tvl } from "../../api/services/pools.js";
import { computePrices } from "../../indexer/prices.js";
import { formatFixed, parseFixed, USD_SCALE } from "../../shared/decimal.js";
import { createLogger } from "../../shared/logger.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { bruteForceCandles } from "../support/candles.js";
import { describeDb } from "../support/db.js";
import { BOB, HEAD_BLOCK, HEAD_TIME, HOUR, KSM, seedMarket, ZERO } from "../support/fixtures.js";

describeDb("a price that expired (fixture: ZERO priced at block 1,000, expired at 1,500)", (ctx) => {
  let t: TestApp;
  beforeEach(async () => {
    await seedMarket(ctx.db);
    t = buildApp(ctx.db);
  });

  it("GET /oracle/history/{id} keeps the points before the expiry and is null from it, naming its block", async () => {
    const body: any = await (await t.get(`/oracle/history/${ZERO}?from=${HEAD_TIME - 26 * HOUR}&to=${HEAD_TIME}&interval=${HOUR}`)).json();
    expect(body.points).toHaveLength(26);
    // Block 1,000 is at HEAD − 25 h, block 1,500 at HEAD − 23 h.
    expect(body.points.slice(0, 2)).toEqual([
      { timestamp: HEAD_TIME - 25 * HOUR, valueUsd: "0.025", blockNumber: 1_000 },
      { timestamp: HEAD_TIME - 24 * HOUR, valueUsd: "0.025", blockNumber: 1_000 },
    ]);
    for (const p of body.points.slice(2)) expect(p).toMatchObject({ valueUsd: null, blockNumber: 1_500 });
    const before: any = await (await t.get(`/oracle/history/${ZERO}?from=${HEAD_TIME - 30 * HOUR}&to=${HEAD_TIME - 26 * HOUR}&interval=${HOUR}`)).json();
    expect(before.points).toHaveLength(4);
    for (const p of before.points) expect(p).toMatchObject({ valueUsd: null, blockNumber: null });
  });

  it("GET /pools/{a}/{b}/ohlcv: tokenA's USD candles carry its price only until the expiry, as a scan of the raw rows says", async () => {
    const reserves = (blockNumber: number, timestamp: number) => ({ token0Id: KSM, token1Id: ZERO, blockNumber, timestamp, reserve0: "10000000000000", reserve1: "4000" });
    await insertPoolReserves(ctx.db, [reserves(1_000, HEAD_TIME - 25 * HOUR), reserves(1_500, HEAD_TIME - 23 * HOUR), reserves(HEAD_BLOCK, HEAD_TIME)]);
    const from = HEAD_TIME - 26 * HOUR;
    const body: any = await (await t.get(`/pools/${ZERO}/${KSM}/ohlcv?interval=1h&from=${from}&to=${HEAD_TIME}`)).json();
    const expected = await bruteForceCandles(ctx.db, { id: ZERO, decimals: 0 }, { id: KSM, decimals: 12 }, "1h", from, HEAD_TIME);
    expect(body.candles).toHaveLength(expected.length);
    expect(body.candles).toEqual(expected);
    const at = (time: number) => body.candles.find((c: any) => c.timestamp <= time && time < c.timestamp + HOUR);
    expect(at(HEAD_TIME - 25 * HOUR).usd).toEqual({ open: "0.025", high: "0.025", low: "0.025", close: "0.025" });
    expect(at(HEAD_TIME - 24 * HOUR).usd).toEqual({ open: "0.025", high: "0.025", low: "0.025", close: "0.025" }); // carried: still current
    expect(at(HEAD_TIME - 23 * HOUR).usd).toEqual({ open: "0.025", high: "0.025", low: "0.025", close: "0.025" }); // current until the expiry inside it
    expect(at(HEAD_TIME - 22 * HOUR).usd).toBeNull();
    expect(at(HEAD_TIME).usd).toBeNull();
  });

  it("GET /pools/{a}/{b}/ohlcv: a 4h candle folded from several hourly rows closes at tokenA's last price in it, opens at its first", async () => {
    // Two new prices of ZERO in one 4 h candle, in different hours (two stored 1 h rows): 0.03, then 0.05.
    const start = Math.floor(HEAD_TIME / (4 * HOUR)) * 4 * HOUR - 4 * HOUR;
    const early = { number: 1_700, time: start + 600, price: "0.03" };
    const late = { number: 1_800, time: start + 2 * HOUR + 600, price: "0.05" };
    await insertBlocks(ctx.db, [early, late].map((b) => ({ number: b.number, hash: `0x${b.number.toString(16).padStart(64, "0")}`, timestamp: b.time })));
    const reserves = (blockNumber: number, timestamp: number) => ({ token0Id: KSM, token1Id: ZERO, blockNumber, timestamp, reserve0: "10000000000000", reserve1: "4000" });
    await insertPoolReserves(ctx.db, [reserves(1_000, HEAD_TIME - 25 * HOUR), reserves(early.number, early.time), reserves(late.number, late.time), reserves(HEAD_BLOCK, HEAD_TIME)]);
    const points = [early, late].map((b) => ({ tokenId: ZERO, blockNumber: b.number, priceUsd: b.price }));
    await insertPrices(ctx.db, points);
    await addTokenCandles(ctx.db, points, (n) => (n === early.number ? early.time : late.time));
    const from = start - 4 * HOUR;
    const body: any = await (await t.get(`/pools/${ZERO}/${KSM}/ohlcv?interval=4h&from=${from}&to=${HEAD_TIME}`)).json();
    const candle = body.candles.find((c: any) => c.timestamp === start);
    // The truth from the raw price points, not the stored rows: open at the first, close at the last.
    expect(candle.usd).toEqual({ open: "0.03", high: "0.05", low: "0.03", close: "0.05" });
    expect(body.candles).toEqual(await bruteForceCandles(ctx.db, { id: ZERO, decimals: 0 }, { id: KSM, decimals: 12 }, "4h", from, HEAD_TIME));
  });

  it("GET /accounts/{address}: a holding and an LP side without a current price are null and add nothing to the total", async () => {
    await upsertHolders(ctx.db, [{ tokenId: ZERO, account: BOB, balance: "100", blockNumber: HEAD_BLOCK }]);
    await upsertLpHolders(ctx.db, [{ lpTokenId: 2, account: BOB, balance: "20000", blockNumber: HEAD_BLOCK }]); // a tenth of KSM/ZERO
    const auth = await authHeader(t);
    const body: any = await (await t.get(`/accounts/${BOB}`, auth)).json();
    expect(body.tokens.find((r: any) => r.tokenId === ZERO)).toMatchObject({ balance: "100", valueUsd: null });
    expect(body.lpPositions).toHaveLength(1);
    expect(body.lpPositions[0]).toMatchObject({
      tokenA: { tokenId: KSM, amount: "1000000000000", valueUsd: "12.5" },
      tokenB: { tokenId: ZERO, amount: "400", valueUsd: null },
      valueUsd: "12.5",
    });
    // 12.5 (the LP position's KSM side) + 10 TEN × 0.25 + 1 pUSDC; ZERO adds nothing.
    expect(body.totalValueUsd).toBe("16");
  });

  it("a subscriber of oracle.value is told when the price expires and when it comes back", async () => {
    const hub = new LiveHub(ctx.db, createLogger("silent"));
    const sent: any[] = [];
    const peer: Peer = { send: (m) => sent.push(m) };
    const answer = await hub.subscribe(peer, parseTopic(`oracle.value:${ZERO}`) as Topic, "s1");
    expect(answer).toMatchObject({ added: true, value: { error: { code: "PRICE_UNAVAILABLE" } } });
    const block = async (number: number, priceUsd: string | null) => {
      await insertBlocks(ctx.db, [{ number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp: HEAD_TIME + (number - HEAD_BLOCK) * 12 }]);
      await insertPrices(ctx.db, [{ tokenId: ZERO, blockNumber: number, priceUsd }]);
      hub.onBlock({ number, hash: "0x", timestamp: 0, counts: { swaps: 0, liquidityEvents: 0, prices: 1, reserves: 0, holders: 0, tokens: 0 } });
      await hub.idle();
      return sent.at(-1).params;
    };
    expect(await block(HEAD_BLOCK + 1, "0.03")).toMatchObject({ block: HEAD_BLOCK + 1, result: { tokenId: ZERO, valueUsd: "0.03", blockNumber: HEAD_BLOCK + 1 } });
    const expired = await block(HEAD_BLOCK + 2, null);
    expect(expired).toMatchObject({ block: HEAD_BLOCK + 2, result: { error: { code: "PRICE_UNAVAILABLE" } } });
    expect(expired.result.error.message).toContain(`since block ${HEAD_BLOCK + 2}`);
    expect(sent).toHaveLength(2);
  });
});

// A market of pools without the native token: B trades against USDt directly, A only against B,
// C and D only against each other, E against B in a pool under the liquidity floor.
const USDT = 1984;
const [A, B, C, D, E] = [100, 200, 300, 400, 500];
const DECIMALS = new Map([[KSM, 12], [USDT, 6], [A, 8], [B, 3], [C, 0], [D, 18], [E, 6]]);
const POOLS = [
  { token0Id: KSM, token1Id: USDT, reserve0: "1000000000000000", reserve1: "25000000000" }, // 1000 KSM / 25,000 USDt
  { token0Id: A, token1Id: B, reserve0: "5000000000", reserve1: "200000" }, // 50 A / 200 B
  { token0Id: B, token1Id: E, reserve0: "1000", reserve1: "10000000" }, // 1 B / 10 E: 8 USD deep
  { token0Id: B, token1Id: USDT, reserve0: "1000000", reserve1: "4000000000" }, // 1000 B / 4,000 USDt
  { token0Id: C, token1Id: D, reserve0: "7", reserve1: "5000000000000000000" }, // 7 C / 5 D
];

async function seedNonNative(db: Database): Promise<void> {
  await insertBlocks(db, [{ number: 10, hash: "0x" + "0a".repeat(32), timestamp: HEAD_TIME }]);
  const symbols = new Map([[KSM, "KSM"], [USDT, "USDt"], [A, "AAA"], [B, "BBB"], [C, "CCC"], [D, "DDD"], [E, "EEE"]]);
  await upsertTokens(db, [...DECIMALS].map(([id, decimals]): NewToken => ({ id, name: symbols.get(id)!, symbol: symbols.get(id)!, decimals, supply: "1", owner: null, kind: id === KSM ? "native" : "asset", assetId: id === KSM ? null : id, blockNumber: 10 })));
  await upsertPools(db, POOLS.map((p, i) => ({ ...p, lpTokenId: i + 1, account: `pool-${i + 1}`, lpSupply: "1", lpFeePpm: 3000, createdBlock: 1, blockNumber: 10 })));
  // The prices as the indexer writes them: computed from the pools.
  const prices = computePrices({
    pools: POOLS.map((p) => ({ token0Id: p.token0Id, token1Id: p.token1Id, reserve0: BigInt(p.reserve0), reserve1: BigInt(p.reserve1) })),
    decimals: DECIMALS,
    stablecoins: new Set([USDT]),
    nativeTokenId: KSM,
    minLiquidityUsd: parseFixed("100", USD_SCALE),
  });
  await insertPrices(db, [...prices].map(([tokenId, p]) => ({ tokenId, blockNumber: 10, priceUsd: formatFixed(p, USD_SCALE) })));
}

describeDb("pools between any two tokens (a synthetic store without native pairs)", (ctx) => {
  let t: TestApp;
  beforeEach(async () => {
    await seedNonNative(ctx.db);
    t = buildApp(ctx.db);
  });

  it("prices a token through a pool without the native token; one with no route above the floor has none", async () => {
    const value = async (id: number) => ((await (await t.get(`/oracle/value/${id}`)).json()) as { valueUsd: string }).valueUsd;
    expect(await value(B)).toBe("4"); // 4,000 USDt / 1000 B
    expect(await value(A)).toBe("16"); // 200 B × 4 / 50 A
    expect(await value(KSM)).toBe("25");
    for (const id of [C, D, E]) await expectError(await t.get(`/oracle/value/${id}`), 404, "PRICE_UNAVAILABLE");
  });

  it("GET /pool/stats/{a}/{b} and /pools: TVL counts each priced side once, an unpriced side 0", async () => {
    const pair = async (a: string, b: string) => (await (await t.get(`/pool/stats/${a}/${b}`)).json()) as any;
    const ab = await pair("AAA", "BBB");
    expect(ab).toMatchObject({
      tokenA: { tokenId: A, reserve: "5000000000", priceUsd: "16" },
      tokenB: { tokenId: B, reserve: "200000", priceUsd: "4" },
      price: "4",
      totalValueLocked: "1600", // 50 × 16 + 200 × 4
    });
    expect(await pair("EEE", "BBB")).toMatchObject({ tokenA: { priceUsd: null }, tokenB: { priceUsd: "4" }, price: "0.1", totalValueLocked: "4" }); // 1 B × 4, once
    expect(await pair("DDD", "CCC")).toMatchObject({ tokenA: { priceUsd: null }, tokenB: { priceUsd: null }, totalValueLocked: "0", apr: "0" });
    const list = (await (await t.get("/pools")).json()) as { total: number; pools: { lpTokenId: number; totalValueLocked: string }[] };
    expect(list.total).toBe(5);
    expect(list.pools).toHaveLength(5);
    expect(list.pools.map((p) => [p.lpTokenId, p.totalValueLocked])).toEqual([[1, "50000"], [4, "8000"], [2, "1600"], [3, "4"], [5, "0"]]);
    expect(await (await t.get("/pool/stats")).json()).toMatchObject({ totalPools: 5, totalValueLocked: "59604" });
    // The SQL that sorts and sums equals the bigint arithmetic pool by pool.
    const [pools, tokens, prices] = await Promise.all([listPools(ctx.db), allTokens(ctx.db), latestPrices(ctx.db)]);
    const byId = new Map(tokens.map((tk) => [tk.id, tk]));
    const js = new Map(pools.map((p) => [p.lpTokenId, formatFixed(tvl(p, byId, prices), USD_SCALE)]));
    for (const p of list.pools) expect(p.totalValueLocked, `pool ${p.lpTokenId}`).toBe(js.get(p.lpTokenId));
  });

  it("an expiry takes the side out of every TVL and out of the oracle, and only that", async () => {
    await insertBlocks(ctx.db, [{ number: 11, hash: "0x" + "0b".repeat(32), timestamp: HEAD_TIME + 12 }]);
    await insertPrices(ctx.db, [{ tokenId: A, blockNumber: 11, priceUsd: null }]);
    await expectError(await t.get(`/oracle/value/${A}`), 404, "PRICE_UNAVAILABLE");
    expect(await (await t.get(`/pool/stats/AAA/BBB`)).json()).toMatchObject({ tokenA: { priceUsd: null }, tokenB: { priceUsd: "4" }, totalValueLocked: "800" });
    expect(await (await t.get("/pool/stats")).json()).toMatchObject({ totalValueLocked: "58804", blockNumber: 11 });
    const assets = (await (await t.get("/assets?sort=id")).json()) as { assets: { tokenId: number; valueUsd: string | null; marketCapUsd: string | null }[] };
    expect(assets.assets.find((r) => r.tokenId === A)).toMatchObject({ valueUsd: null, marketCapUsd: null });
    expect(assets.assets.find((r) => r.tokenId === B)).toMatchObject({ valueUsd: "4" });
  });
});
