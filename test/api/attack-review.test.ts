/**
 * What attacking the public API after issue 24 turned up, each as a regression test:
 * - a page of a few hundred pools (`GET /pools?limit=500`) planned a row-value IN list that PGlite
 *   could not plan (a 500, or its one thread busy for minutes: every request of the process
 *   stalled); lists are now read in chunks, and the page's figures equal the all-pools path's;
 * - a symbol shared by very many tokens named every one of them in the AMBIGUOUS_TOKEN message:
 *   the lookup and the message are now bounded;
 * - `/pools` showed a price for a side whose token is gone while its TVL counted that side as 0.
 * And what held: a price that expired, came back and expired again is answered right everywhere;
 * the TVL summed in SQL equals the bigint arithmetic on random stores (u128 reserves, 0–36
 * decimals, expired prices, tokens gone).
 */
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { addTokenCandles, allTokens, deleteTokens, INDEXED_TABLES, latestPrices, listPools, poolValues, poolValueTotal, poolStatsNow, exactSwapTotalsByPool, insertBlocks, insertPoolReserves, insertPrices, insertSwaps, upsertPools, upsertTokens, type NewToken } from "../../db/index.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { tvl } from "../../api/services/pools.js";
import { formatFixed, USD_SCALE } from "../../shared/decimal.js";
import { buildApp, expectError } from "../support/app.js";
import { bruteForceCandles } from "../support/candles.js";
import { describeDb } from "../support/db.js";
import { ALICE, HEAD_BLOCK, HEAD_TIME, HOUR, KSM, seedMarket, ZERO } from "../support/fixtures.js";

const FIRST = 100_000;

/** `n` assets (symbol `S<i mod 7>`) with a pool against KSM each. */
function market(n: number) {
  const tokens: NewToken[] = Array.from({ length: n }, (_, i) => ({ id: FIRST + i, name: `T${i}`, symbol: `S${i % 7}`, decimals: 6, supply: "1000000", owner: null, kind: "asset", assetId: FIRST + i, blockNumber: HEAD_BLOCK }));
  const pools = tokens.map((t, i) => ({ token0Id: KSM, token1Id: t.id, lpTokenId: 10_000 + i, account: `pool-${i}`, reserve0: String(1_000_000_000_000 + i), reserve1: "1000", lpSupply: "1000", lpFeePpm: 3000, createdBlock: 1, blockNumber: HEAD_BLOCK }));
  return { tokens, pools };
}

describeDb("attacks on the public API after issue 24", (ctx) => {
  it("GET /pools?limit=500 over 600 pools answers, and each page's 24 h totals equal the all-pools path's", async () => {
    await seedMarket(ctx.db);
    const { tokens, pools } = market(600);
    for (let i = 0; i < tokens.length; i += 200) await upsertTokens(ctx.db, tokens.slice(i, i + 200));
    for (let i = 0; i < pools.length; i += 200) await upsertPools(ctx.db, pools.slice(i, i + 200));
    // Swaps in pools spread over every chunk of a page (1st, 150th, 333rd, 599th new pool), inside the 24 h window.
    const traded = [0, 149, 332, 598].map((i) => pools[i]!);
    await insertSwaps(ctx.db, traded.map((p, i) => ({ blockNumber: HEAD_BLOCK, eventIndex: 100 + i, hop: 0, token0Id: p.token0Id, token1Id: p.token1Id, tokenIn: p.token0Id, tokenOut: p.token1Id, amountIn: "10", amountOut: "9", fee: "1", volumeUsd: `${i + 1}.5`, feeUsd: "0.01", account: ALICE, timestamp: HEAD_TIME - 60 })));
    const t = buildApp(ctx.db, { rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 } });

    const started = performance.now();
    const pages = [];
    for (const page of [1, 2]) {
      const res = await t.get(`/pools?sort=id&order=asc&limit=500&page=${page}`);
      expect(res.status, await res.clone().text()).toBe(200);
      pages.push(((await res.json()) as { pools: { lpTokenId: number; volume24h: string; swaps24h: number }[] }).pools);
    }
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(pages[0]).toHaveLength(500);
    expect(pages[1]).toHaveLength(103); // 600 + the fixture's 3
    // The same figures as the path that sums every pool at once (sort=volume24h reads no list).
    const byVolume = (await (await t.get("/pools?sort=volume24h&limit=500")).json()) as { pools: { lpTokenId: number; volume24h: string; swaps24h: number }[] };
    const expected = new Map(byVolume.pools.map((p) => [p.lpTokenId, `${p.volume24h}/${p.swaps24h}`]));
    for (const p of pages.flat()) if (expected.has(p.lpTokenId)) expect(`${p.volume24h}/${p.swaps24h}`, `pool ${p.lpTokenId}`).toBe(expected.get(p.lpTokenId));
    for (const [i, p] of traded.entries()) expect(pages.flat().find((r) => r.lpTokenId === p.lpTokenId)).toMatchObject({ volume24h: `${i + 1}.5`, swaps24h: 1 });
  }, 120_000);

  it("exactSwapTotalsByPool of a list longer than one statement's is the union of its parts", async () => {
    await seedMarket(ctx.db);
    const list = [{ token0Id: KSM, token1Id: 1984 }, ...Array.from({ length: 250 }, (_, i) => ({ token0Id: KSM, token1Id: FIRST + i })), { token0Id: KSM, token1Id: 18 }];
    const window = { from: HEAD_TIME - 86_400, to: HEAD_TIME };
    const totals = await exactSwapTotalsByPool(ctx.db, window, list);
    expect([...totals.keys()].sort()).toEqual(["0/18", "0/1984"]);
    expect(totals.get("0/1984")).toEqual(await exactSwapTotalsByPool(ctx.db, window, { token0Id: KSM, token1Id: 1984 }).then((m) => m.get("0/1984")));
  });

  it("a symbol shared by 300 tokens: AMBIGUOUS_TOKEN names a bounded number of them", async () => {
    await seedMarket(ctx.db);
    const { tokens } = market(2_100); // S1 is the symbol of 300 of them
    for (let i = 0; i < tokens.length; i += 500) await upsertTokens(ctx.db, tokens.slice(i, i + 500));
    const t = buildApp(ctx.db);
    for (const path of ["/pool/stats/s1/KSM", "/pools/KSM/S1/swaps", "/pools/S1/KSM/ohlcv"]) {
      const message = await expectError(await t.get(path), 400, "AMBIGUOUS_TOKEN");
      expect(message.length, message).toBeLessThan(300);
      expect(message).toContain(`${FIRST + 1}, ${FIRST + 8}`); // the lowest ids, in order
      expect(message).toContain("and more");
    }
    // A few sharing a symbol are all named, as before.
    expect(await expectError(await t.get("/pool/stats/dup/KSM"), 400, "AMBIGUOUS_TOKEN")).toBe('The symbol "dup" is shared by tokens 21, 22; use a token id instead.');
  });

  it("GET /pools: a side whose token is gone shows no price, as its TVL counts none", async () => {
    await seedMarket(ctx.db);
    const { tokens, pools } = market(1);
    await upsertTokens(ctx.db, tokens);
    await upsertPools(ctx.db, pools);
    await insertPrices(ctx.db, [{ tokenId: FIRST, blockNumber: HEAD_BLOCK, priceUsd: "2" }]);
    const t = buildApp(ctx.db);
    const row = async () => ((await (await t.get("/pools?sort=id&order=asc")).json()) as { pools: any[] }).pools.find((p) => p.lpTokenId === 10_000);
    expect(await row()).toMatchObject({ tokenB: { tokenId: FIRST, priceUsd: "2", reserve: "1000" }, totalValueLocked: "12.502" });
    await deleteTokens(ctx.db, [FIRST], HEAD_BLOCK); // destroyed; its pool lives on
    expect(await row()).toMatchObject({ tokenB: { tokenId: FIRST, symbol: "", priceUsd: null }, totalValueLocked: "12.5" });
  });
  it("a price that expired, came back and expired again: oracle, history and candles at every step", async () => {
    await seedMarket(ctx.db); // ZERO: 0.025 from block 1,000 (HEAD − 25 h), expired at 1,500 (HEAD − 23 h)
    const times = new Map([[1_800, HEAD_TIME - 10 * HOUR], [1_900, HEAD_TIME - 4.5 * HOUR]]);
    await insertBlocks(ctx.db, [...times].map(([number, timestamp]) => ({ number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp })));
    const points = [{ tokenId: ZERO, blockNumber: 1_800, priceUsd: "0.03" }, { tokenId: ZERO, blockNumber: 1_900, priceUsd: null }];
    await insertPrices(ctx.db, points);
    await addTokenCandles(ctx.db, points, (n) => times.get(n));
    const reserves = (blockNumber: number, timestamp: number) => ({ token0Id: KSM, token1Id: ZERO, blockNumber, timestamp, reserve0: "10000000000000", reserve1: "4000" });
    await insertPoolReserves(ctx.db, [reserves(1_000, HEAD_TIME - 25 * HOUR), reserves(1_800, HEAD_TIME - 10 * HOUR), reserves(HEAD_BLOCK, HEAD_TIME)]);
    const t = buildApp(ctx.db, { rateLimit: { store: new MemoryRateLimitStore(), max: 0, windowMs: 60_000 } });

    expect(await expectError(await t.get(`/oracle/value/${ZERO}`), 404, "PRICE_UNAVAILABLE")).toContain("since block 1900");
    const history = (await (await t.get(`/oracle/history/${ZERO}?from=${HEAD_TIME - 26 * HOUR}&to=${HEAD_TIME}&interval=${HOUR}`)).json()) as { points: { valueUsd: string | null; blockNumber: number | null }[] };
    expect(history.points).toHaveLength(26);
    // Hours ending HEAD − 25 h … HEAD: 2 × 0.025, 13 × expired at 1,500, 6 × 0.03, 5 × expired at 1,900.
    const runs = history.points.map((p) => `${p.valueUsd}@${p.blockNumber}`);
    expect(runs).toEqual([...Array(2).fill("0.025@1000"), ...Array(13).fill("null@1500"), ...Array(6).fill("0.03@1800"), ...Array(5).fill("null@1900")]);
    for (const interval of ["15m", "1h", "4h", "1d"] as const) {
      const from = HEAD_TIME - 30 * HOUR;
      const body = (await (await t.get(`/pools/${ZERO}/${KSM}/ohlcv?interval=${interval}&from=${from}&to=${HEAD_TIME}`)).json()) as { candles: unknown[] };
      const expected = await bruteForceCandles(ctx.db, { id: ZERO, decimals: 0 }, { id: KSM, decimals: 12 }, interval, from, HEAD_TIME);
      expect(body.candles, interval).toHaveLength(expected.length);
      expect(body.candles, interval).toEqual(expected);
    }
    // Priced again at the head: current once more.
    await insertPrices(ctx.db, [{ tokenId: ZERO, blockNumber: HEAD_BLOCK, priceUsd: "0.02" }]);
    expect(await (await t.get(`/oracle/value/${ZERO}`)).json()).toMatchObject({ tokenId: ZERO, valueUsd: "0.02", blockNumber: HEAD_BLOCK });
  });
  it("the TVL summed in SQL (/pools, /pool/stats) equals tvl() on bigints, pool by pool, on random stores", async () => {
    const U128 = (1n << 128n) - 1n;
    const token = fc.record({ decimals: fc.integer({ min: 0, max: 36 }), price: fc.option(fc.option(fc.bigInt({ min: 0n, max: 10n ** 30n }), { nil: null }), { nil: undefined }), exists: fc.boolean() });
    const pool = fc.record({ a: fc.nat(5), b: fc.nat(5), r0: fc.bigInt({ min: 0n, max: U128 }), r1: fc.bigInt({ min: 0n, max: U128 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(token, { minLength: 2, maxLength: 6 }), fc.array(pool, { minLength: 1, maxLength: 8 }), async (toks, ps) => {
        await ctx.db.execute(sql.raw(`truncate ${INDEXED_TABLES.map((t) => `"${t}"`).join(", ")}`));
        const ids = toks.map((_, i) => i + 1);
        const live = toks.flatMap((t, i) => (t.exists ? [{ id: ids[i]!, name: "x", symbol: "x", decimals: t.decimals, supply: "1", owner: null, kind: "asset" as const, assetId: ids[i]!, blockNumber: 1 }] : []));
        if (live.length > 0) await upsertTokens(ctx.db, live);
        // undefined: never priced; null: expired; a bigint: the price (18 decimals).
        const prices = toks.flatMap((t, i) => (t.price === undefined ? [] : [{ tokenId: ids[i]!, blockNumber: 1, priceUsd: t.price === null ? null : formatFixed(t.price, USD_SCALE) }]));
        if (prices.length > 0) await insertPrices(ctx.db, prices);
        const pairs = new Map(ps.map((p) => [ids[p.a % ids.length]!, ids[p.b % ids.length]!, p] as const).filter(([x, y]) => x < y).map(([x, y, p]) => [`${x}/${y}`, { x, y, p }]));
        if (pairs.size === 0) return;
        await upsertPools(ctx.db, [...pairs.values()].map(({ x, y, p }, i) => ({ token0Id: x, token1Id: y, lpTokenId: i, account: `p${i}`, reserve0: String(p.r0), reserve1: String(p.r1), lpSupply: "1", lpFeePpm: 3000, createdBlock: 1, blockNumber: 1 })));
        const [values, total, now, rows, tokens, latest] = await Promise.all([poolValues(ctx.db), poolValueTotal(ctx.db), poolStatsNow(ctx.db), listPools(ctx.db), allTokens(ctx.db), latestPrices(ctx.db)]);
        expect(values).toHaveLength(pairs.size);
        expect(rows).toHaveLength(pairs.size);
        const byId = new Map(tokens.map((tk) => [tk.id, tk]));
        let sum = 0n;
        for (const p of rows) {
          const js = tvl(p, byId, latest);
          sum += js;
          expect(values.find((v) => v.lpTokenId === p.lpTokenId)!.tvl, `pool ${p.token0Id}/${p.token1Id}`).toBe(js.toString());
        }
        expect(total).toEqual({ pools: pairs.size, tvl: sum.toString() });
        // /pool/stats reads the same totals beside the newest block (none here: undefined).
        expect(now).toEqual({ head: undefined, pools: pairs.size, tvl: sum.toString(), volumeUsd: "0", feeUsd: "0", swaps: 0 });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
