import { beforeEach, expect, it } from "vitest";
import { describeDb } from "../support/db.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { ALICE, BOB, CHARLIE, DAVE, DOG, DUP_A, HEAD_BLOCK, HEAD_TIME, KSM, LONELY, PUSDC, PUSDC_LOCATION, seedMarket, TEN, TREASURY, USDT, WETH, ZERO } from "../support/fixtures.js";

const NATIVE = { kind: "native", assetId: null, location: null };
const asset = (assetId: number) => ({ kind: "asset", assetId, location: null });

describeDb("reads on an empty store", (ctx) => {
  it("answers 404 TOKEN_NOT_FOUND for tokens and zeros for /pool/stats", async () => {
    const t = buildApp(ctx.db);
    const auth = await authHeader(t);
    await expectError(await t.get("/oracle/value/0"), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get("/assets/metadata/0", auth), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get("/assets/holders/0", auth), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get("/pool/stats/0/1984"), 404, "TOKEN_NOT_FOUND");
    const res = await t.get("/pool/stats");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      totalPools: 0,
      totalValueLocked: "0",
      volume24h: "0",
      fees24h: "0",
      swaps24h: 0,
      blockNumber: null,
      timestamp: null,
    });
  });
});

describeDb("reads on a market", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeEach(async () => {
    await seedMarket(ctx.db);
    t = buildApp(ctx.db);
    auth = await authHeader(t);
  });

  it("GET /oracle/value/{id}: the latest price, timed at the newest block", async () => {
    const res = await t.get(`/oracle/value/${KSM}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ tokenId: KSM, symbol: "KSM", ...NATIVE, valueUsd: "12.5", timestamp: HEAD_TIME, blockNumber: HEAD_BLOCK });
    const weth: any = await (await t.get(`/oracle/value/${WETH}`)).json();
    expect(weth.valueUsd).toBe("3000.123456789012345678");
    expect((await (await t.get(`/oracle/value/${USDT}`)).json() as any).valueUsd).toBe("1");
  });

  it("GET /oracle/value/{id}: a token whose price expired, or that never had one, is 404 PRICE_UNAVAILABLE, an unknown one TOKEN_NOT_FOUND", async () => {
    const expired = await expectError(await t.get(`/oracle/value/${ZERO}`), 404, "PRICE_UNAVAILABLE");
    expect(expired).toContain("since block 1500");
    expect(expired).toContain("ORACLE_MIN_LIQUIDITY_USD");
    const never = await expectError(await t.get(`/oracle/value/${LONELY}`), 404, "PRICE_UNAVAILABLE");
    expect(never).toContain("has no USD price");
    await expectError(await t.get("/oracle/value/4294967295"), 404, "TOKEN_NOT_FOUND");
  });

  it("GET /assets/metadata/{id}: spec fields plus owner/status/block; treasury at the current price", async () => {
    const res = await t.get(`/assets/metadata/${TEN}`, auth);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      tokenId: TEN,
      name: "Ten",
      symbol: "TEN",
      ...asset(TEN),
      totalSupply: "1000000000000",
      treasuryValue: "10", // 40 TEN held by the owner × 0.25 USD
      valueUsd: "0.25",
      decimals: 10,
      owner: TREASURY,
      status: "live",
      blockNumber: HEAD_BLOCK,
    });
    const weth: any = await (await t.get(`/assets/metadata/${WETH}`, auth)).json();
    expect(weth.treasuryValue).toBe("4500.185185183518518517"); // 1.5 × 3000.123456789012345678
    expect(weth.totalSupply).toBe("500000000000000000000");
    const usdt: any = await (await t.get(`/assets/metadata/${USDT}`, auth)).json();
    expect(usdt.treasuryValue).toBe("250000");
    const ksm: any = await (await t.get(`/assets/metadata/${KSM}`, auth)).json();
    expect(ksm).toMatchObject({ owner: null, treasuryValue: "0", decimals: 12, totalSupply: "15000000000000000000" });
    expect(ksm.valueUsd).not.toBeNull(); // priced, no owner: "0" with a price
    // No current price, whether it expired (ZERO) or never was (DOG): treasuryValue is still a
    // string, as the spec types it, "0", and valueUsd null says why.
    const zero: any = await (await t.get(`/assets/metadata/${ZERO}`, auth)).json();
    expect(zero).toMatchObject({ decimals: 0, status: "frozen", treasuryValue: "0", valueUsd: null });
    expect(await (await t.get(`/assets/metadata/${DOG}`, auth)).json()).toMatchObject({ owner: ALICE, treasuryValue: "0", valueUsd: null });
  });

  it("GET /assets/holders/{id}: ranked by balance then address, with share of supply", async () => {
    const res = await t.get(`/assets/holders/${TEN}`, auth);
    expect(res.status).toBe(200);
    const body: any = await res.json();
    // An asset's holders say their account's status; the native parts do not apply (null).
    const asset = (status: string) => ({ free: null, reserved: null, frozen: null, transferable: null, status });
    expect(body).toEqual({
      tokenId: TEN,
      page: 1,
      limit: 50,
      totalHolders: 5,
      totalPages: 1,
      holders: [
        { rank: 1, address: TREASURY, balance: "400000000000", share: "0.4", ...asset("liquid") },
        { rank: 2, address: ALICE, balance: "300000000000", share: "0.3", ...asset("liquid") },
        // a tie: byte order of the address decides (D8s… < EaG… < Gsv…)
        { rank: 3, address: CHARLIE, balance: "100000000000", share: "0.1", ...asset("blocked") },
        { rank: 4, address: DAVE, balance: "100000000000", share: "0.1", ...asset("liquid") },
        { rank: 5, address: BOB, balance: "100000000000", share: "0.1", ...asset("frozen") },
      ],
      nextCursor: null,
    });
  });

  it("GET /assets/holders/0: native holders ranked by free + reserved, with free, reserved, frozen and transferable", async () => {
    const body: any = await (await t.get(`/assets/holders/${KSM}`, auth)).json();
    expect(body.totalHolders).toBe(2);
    expect(body.holders).toHaveLength(2);
    // DAVE: 2 free + 0.5 reserved; his freeze of 1 is covered by the 0.5 reserved only in part,
    // so 0.5 of the free 2 stays: 1.5 transferable. CHARLIE: 0.3 free + 0.7 reserved, the freeze
    // of 0.2 lies within the reserve, so all 0.3 free moves. Shares of 15,000,000 KSM.
    const [dave, charlie] = body.holders;
    expect(dave).toEqual({ rank: 1, address: DAVE, balance: "2500000000000", share: "0.000000166666666666", free: "2000000000000", reserved: "500000000000", frozen: "1000000000000", transferable: "1500000000000", status: null });
    expect(charlie).toEqual({ rank: 2, address: CHARLIE, balance: "1000000000000", share: "0.000000066666666666", free: "300000000000", reserved: "700000000000", frozen: "200000000000", transferable: "300000000000", status: null });
    for (const h of body.holders) expect(BigInt(h.free) + BigInt(h.reserved)).toBe(BigInt(h.balance));
  });

  it("GET /assets/holders/{id}: page and limit, a page past the end, and keyset cursors", async () => {
    const p2: any = await (await t.get(`/assets/holders/${TEN}?page=2&limit=2`, auth)).json();
    expect(p2).toMatchObject({ page: 2, limit: 2, totalHolders: 5, totalPages: 3 });
    expect(p2.holders.map((h: any) => [h.rank, h.address])).toEqual([[3, CHARLIE], [4, DAVE]]);
    expect(typeof p2.nextCursor).toBe("string");

    const past: any = await (await t.get(`/assets/holders/${TEN}?page=4&limit=2`, auth)).json();
    expect(past).toMatchObject({ page: 4, totalPages: 3, holders: [], nextCursor: null });

    // Walk the whole list by cursor: same order, same ranks as by page.
    const walked: [number, string][] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
      const page: any = await (await t.get(`/assets/holders/${TEN}${q}`, auth)).json();
      walked.push(...page.holders.map((h: any) => [h.rank, h.address] as [number, string]));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(walked).toEqual([[1, TREASURY], [2, ALICE], [3, CHARLIE], [4, DAVE], [5, BOB]]);
    expect(pages).toBe(3);
  });

  it("GET /assets/holders/{id}: a token without holders is an empty first page", async () => {
    const body: any = await (await t.get(`/assets/holders/${LONELY}`, auth)).json();
    expect(body).toEqual({ tokenId: LONELY, page: 1, limit: 50, totalHolders: 0, totalPages: 0, holders: [], nextCursor: null });
  });

  it("GET /assets/holders/{id}: bad page, limit and cursor are 400 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=1.5", "page"],
      ["page=abc", "page"],
      ["page=10000001", "page"],
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["limit=", "limit"],
      ["cursor=bm9wZQ", "cursor"],
      ["cursor=" + "x".repeat(600), "cursor"],
      ["page=1&cursor=abc", "cursor"],
    ];
    for (const [q, name] of cases) {
      const message = await expectError(await t.get(`/assets/holders/${TEN}?${q}`, auth), 400, "VALIDATION_ERROR");
      expect(message, q).toContain(`"${name}"`);
    }
    const ok: any = await (await t.get(`/assets/holders/${TEN}?limit=1000&page=10000000`, auth)).json();
    expect(ok.holders).toEqual([]);
  });

  it("GET /pool/stats: totals over all pools, 24 h window ending at the newest block", async () => {
    const res = await t.get("/pool/stats");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      totalPools: 3,
      // 25000 (KSM/USDt) + 125 (KSM/ZERO: the KSM side only, ZERO's price expired) + 25 + 1500.061728394506172839 (KSM/WETH)
      totalValueLocked: "26650.061728394506172839",
      volume24h: "160.5",
      fees24h: "0.4815",
      swaps24h: 3,
      blockNumber: HEAD_BLOCK,
      timestamp: HEAD_TIME,
    });
  });

  it("GET /pool/stats/{a}/{b}: by id, by symbol in any case, oriented as asked", async () => {
    const res = await t.get(`/pool/stats/${KSM}/${USDT}`);
    expect(res.status).toBe(200);
    const ksmUsdt = await res.json();
    expect(ksmUsdt).toEqual({
      tokenA: { tokenId: KSM, symbol: "KSM", decimals: 12, ...NATIVE, reserve: "1000000000000000", priceUsd: "12.5" },
      tokenB: { tokenId: USDT, symbol: "USDt", decimals: 6, ...asset(USDT), reserve: "12500000000", priceUsd: "1" },
      price: "12.5",
      totalValueLocked: "25000",
      volume24h: "150.5",
      fees24h: "0.4515",
      swaps24h: 2,
      priceChange24h: "25",
      apr: "0.65919", // 0.4515 × 365 / 25000 × 100
      lpTokenId: 1,
      lpSupply: "3535533905932",
      feeRate: "0.003",
      blockNumber: HEAD_BLOCK,
      timestamp: HEAD_TIME,
    });
    expect(await (await t.get("/pool/stats/ksm/USDT")).json()).toEqual(ksmUsdt);
    const flipped: any = await (await t.get(`/pool/stats/usdt/${KSM}`)).json();
    expect(flipped.tokenA.tokenId).toBe(USDT);
    expect(flipped.tokenB.tokenId).toBe(KSM);
    expect(flipped.price).toBe("0.08");
    expect(flipped.priceChange24h).toBe("-20");
    expect(flipped.totalValueLocked).toBe("25000");
  });

  it("GET /pool/stats/{a}/{b}: an unpriced side is null and counts 0: the TVL is the priced side's, once", async () => {
    const body: any = await (await t.get(`/pool/stats/ZERO/KSM`)).json();
    expect(body.tokenA).toEqual({ tokenId: ZERO, symbol: "ZERO", decimals: 0, ...asset(ZERO), reserve: "4000", priceUsd: null });
    expect(body.price).toBe("0.0025"); // 10 KSM / 4000 ZERO
    expect(body.totalValueLocked).toBe("125"); // 10 KSM × 12.5
    expect(body.tokenB.priceUsd).toBe("12.5");
    expect(body).toMatchObject({ volume24h: "0", fees24h: "0", swaps24h: 0, priceChange24h: "0", apr: "0" });
  });

  it("GET /pool/stats/{a}/{b}: ambiguity, unknown tokens, missing pools and bad refs", async () => {
    const ambiguous = await expectError(await t.get("/pool/stats/dup/KSM"), 400, "AMBIGUOUS_TOKEN");
    expect(ambiguous).toContain("21, 22");
    expect((await t.get(`/pool/stats/${DUP_A}/KSM`)).status).toBe(404); // by id it is one token; no pool
    await expectError(await t.get(`/pool/stats/${DUP_A}/KSM`), 404, "POOL_NOT_FOUND");
    await expectError(await t.get(`/pool/stats/LONE/${USDT}`), 404, "POOL_NOT_FOUND");
    await expectError(await t.get("/pool/stats/NOPE/KSM"), 404, "TOKEN_NOT_FOUND");
    await expectError(await t.get("/pool/stats/KSM/999"), 404, "TOKEN_NOT_FOUND");
    const big = await expectError(await t.get("/pool/stats/9007199254740992/KSM"), 400, "VALIDATION_ERROR");
    expect(big).toContain('"tokenA"');
    const same = await expectError(await t.get("/pool/stats/KSM/0"), 400, "VALIDATION_ERROR");
    expect(same).toContain('"tokenB"');
    const long = await expectError(await t.get(`/pool/stats/KSM/${"x".repeat(65)}`), 400, "VALIDATION_ERROR");
    expect(long).toContain('"tokenB"');
  });

  it("rejects non-integer and out-of-range ids with 400 naming the parameter", async () => {
    for (const id of ["-1", "1.5", "abc", "9007199254740992", "12345678901234567", "01", "1e3", "%20"]) {
      for (const [path, headers] of [[`/oracle/value/${id}`, {}], [`/assets/metadata/${id}`, auth], [`/assets/holders/${id}`, auth]] as const) {
        const message = await expectError(await t.get(path, headers), 400, "VALIDATION_ERROR");
        expect(message, path).toContain('"id"');
      }
    }
  });

  it("every token answer says what kind of token it is: native, asset (2^32 for asset 0), foreign with its location", async () => {
    const foreign = { kind: "foreign", assetId: null, location: PUSDC_LOCATION };
    expect(await (await t.get(`/oracle/value/${PUSDC}`)).json()).toEqual({ tokenId: PUSDC, symbol: "pUSDC", ...foreign, valueUsd: "1", timestamp: HEAD_TIME, blockNumber: HEAD_BLOCK });
    expect(await (await t.get(`/assets/metadata/${PUSDC}`, auth)).json()).toMatchObject({ tokenId: PUSDC, ...foreign, totalSupply: "5000000", treasuryValue: "4", owner: TREASURY });
    const holders: any = await (await t.get(`/assets/holders/${PUSDC}`, auth)).json();
    expect(holders).toMatchObject({ tokenId: PUSDC, totalHolders: 2, holders: [{ rank: 1, address: TREASURY, balance: "4000000", share: "0.8" }, { rank: 2, address: BOB }] });
    // Asset 0 of the chain is not the native token: it is served as 2^32 and says its chain id.
    expect(await (await t.get(`/assets/metadata/${DOG}`, auth)).json()).toMatchObject({ tokenId: DOG, symbol: "DOG", ...asset(0), totalSupply: "70000000000" });
    expect(await (await t.get(`/assets/metadata/${KSM}`, auth)).json()).toMatchObject({ tokenId: KSM, ...NATIVE });
    // Pairs by symbol reach foreign tokens too; there is no pUSDC pool in this market.
    await expectError(await t.get("/pool/stats/PUSDC/KSM"), 404, "POOL_NOT_FOUND");
    await expectError(await t.get(`/pool/stats/${PUSDC}/${DOG}`), 404, "POOL_NOT_FOUND");
    await expectError(await t.get(`/oracle/value/${Number.MAX_SAFE_INTEGER}`), 404, "TOKEN_NOT_FOUND");
  });
});
