/**
 * The wallet and trader routes on the fixture market: portfolios, a pool's trades, candles and
 * a token's supply history. Expected values are worked out here from the fixture's rows.
 */
import { beforeEach, expect, it } from "vitest";
import { describeDb } from "../support/db.js";
import { authHeader, buildApp, expectError, type TestApp } from "../support/app.js";
import { ALICE, CHARLIE, DAVE, DOG, HEAD_BLOCK, HEAD_TIME, HOUR, KSM, seedMarket, TEN, TREASURY, USDT, WETH } from "../support/fixtures.js";
import { encodeAddress } from "@polkadot/util-crypto";
import { formatFixed, USD_SCALE } from "../../shared/decimal.js";
import { recordTokenStats, upsertHolders, upsertLpHolders, upsertTokens } from "../../db/index.js";

describeDb("wallet and trader routes", (ctx) => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeEach(async () => {
    await seedMarket(ctx.db);
    t = buildApp(ctx.db);
    auth = await authHeader(t);
  });

  it("GET /accounts/{address}: balances, USD values, shares, LP positions and the total", async () => {
    const res = await t.get(`/accounts/${ALICE}`, auth);
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.address).toBe(ALICE);
    expect(body.accountId).toMatch(/^0x[0-9a-f]{64}$/);
    // Highest value first: WETH (1.5 × 3000.12…), TEN (30 × 0.25), then the unpriced DOG.
    expect(body.tokens.map((x: any) => x.tokenId)).toEqual([WETH, TEN, DOG]);
    const [weth, ten, dog] = body.tokens;
    expect(weth).toMatchObject({ symbol: "WETH", balance: "1500000000000000000", valueUsd: "4500.185185183518518517", share: "0.003", kind: "asset", assetId: WETH });
    expect(ten).toMatchObject({ balance: "300000000000", valueUsd: "7.5", share: "0.3" });
    expect(dog).toMatchObject({ balance: "70000000000", valueUsd: null, share: "1" });
    // A fifth of the KSM/USDt pool (1000 KSM / 12500 USDt), floored as the pallet floors a removal.
    const lp = 707_106_781_186n;
    const supply = 3_535_533_905_932n;
    const ksm = (1_000_000_000_000_000n * lp) / supply;
    const usdt = (12_500_000_000n * lp) / supply;
    const ksmUsd = (ksm * 12_500_000_000_000_000_000n) / 10n ** 12n;
    const usdtUsd = (usdt * 10n ** 18n) / 10n ** 6n;
    expect(body.lpPositions).toEqual([
      {
        lpTokenId: 1,
        pool: "KSM/USDt",
        balance: lp.toString(),
        lpSupply: supply.toString(),
        share: formatFixed((lp * 10n ** 18n) / supply, USD_SCALE),
        tokenA: { tokenId: KSM, symbol: "KSM", decimals: 12, amount: ksm.toString(), valueUsd: formatFixed(ksmUsd, USD_SCALE) },
        tokenB: { tokenId: USDT, symbol: "USDt", decimals: 6, amount: usdt.toString(), valueUsd: formatFixed(usdtUsd, USD_SCALE) },
        valueUsd: formatFixed(ksmUsd + usdtUsd, USD_SCALE),
        blockNumber: HEAD_BLOCK,
      },
    ]);
    const total = 4_500_185_185_183_518_518_517n + 7_500_000_000_000_000_000n + ksmUsd + usdtUsd;
    expect(body.totalValueUsd).toBe(formatFixed(total, USD_SCALE));
    expect(body).toMatchObject({ truncated: false, blockNumber: HEAD_BLOCK, timestamp: HEAD_TIME });
  });

  it("GET /accounts/{address}: the native balance with its parts, an asset's with its account status", async () => {
    const body: any = await (await t.get(`/accounts/${DAVE}`, auth)).json();
    expect(body.tokens.map((x: any) => x.tokenId)).toEqual([KSM, TEN]);
    const [ksm, ten] = body.tokens;
    // 2 KSM free, 0.5 reserved, 1 frozen: the freeze binds the whole balance, the reserve covers
    // half of it, so 2 − (1 − 0.5) = 1.5 KSM can be sent. Valued whole: 2.5 × 12.5 USD.
    expect(ksm).toMatchObject({ kind: "native", balance: "2500000000000", valueUsd: "31.25", free: "2000000000000", reserved: "500000000000", frozen: "1000000000000", transferable: "1500000000000", status: null });
    expect(ten).toMatchObject({ balance: "100000000000", valueUsd: "2.5", free: null, reserved: null, frozen: null, transferable: null, status: "liquid" });
    const charlie: any = await (await t.get(`/accounts/${CHARLIE}`, auth)).json();
    expect(charlie.tokens).toHaveLength(2);
    expect(charlie.tokens.find((x: any) => x.tokenId === TEN)).toMatchObject({ status: "blocked", free: null });
    expect(charlie.tokens.find((x: any) => x.tokenId === KSM)).toMatchObject({ balance: "1000000000000", transferable: "300000000000", status: null });
    // Rows written without parts (a store indexed before they were kept) answer null, not a guess.
    await upsertHolders(ctx.db, [{ tokenId: KSM, account: DAVE, balance: "2500000000000", blockNumber: HEAD_BLOCK + 1 }]);
    const old: any = await (await buildApp(ctx.db).get(`/accounts/${DAVE}`, auth)).json();
    expect(old.tokens[0]).toMatchObject({ tokenId: KSM, balance: "2500000000000", free: null, reserved: null, frozen: null, transferable: null, status: null });
  });

  it("GET /accounts/{address}: any SS58 prefix or hex names the same account, answered in the chain's prefix", async () => {
    const kusama: any = await (await t.get(`/accounts/${TREASURY}`, auth)).json();
    // TREASURY is Alice's key: 5Grw… in the generic prefix, d435… in hex.
    for (const spelling of ["5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d", "0xD43593C715FDD31C61141ABD04A99FD6822C8558854CCDE39A5684E7A56DA27D"]) {
      const res = await t.get(`/accounts/${spelling}`, auth);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(kusama);
    }
    expect(kusama.address).toBe(TREASURY);
    expect(kusama.tokens.map((x: any) => x.tokenId).sort()).toEqual([10, USDT, 6_520_275_024_738_589].sort());
    // An account with nothing is an empty portfolio, not a 404 (every address exists).
    const empty: any = await (await t.get("/accounts/0x" + "11".repeat(32), auth)).json();
    expect(empty).toMatchObject({ tokens: [], lpPositions: [], totalValueUsd: "0" });
  });

  it("GET /accounts/{address}: needs a bearer token; a bad address is a 400 that names the rule", async () => {
    await expectError(await t.get(`/accounts/${ALICE}`), 401, "UNAUTHORIZED");
    for (const bad of ["nope", ALICE.slice(0, -1) + (ALICE.endsWith("D") ? "E" : "D"), "0x1234", "0x" + "zz".repeat(32), "1".repeat(66)]) {
      expect(await expectError(await t.get(`/accounts/${bad}`, auth), 400, "VALIDATION_ERROR")).toContain("SS58");
    }
  });

  it("GET /accounts/{address}: more than 1,000 holdings answer the first 1,000 and say truncated", async () => {
    // 1,001 tokens the store knows, held by an account that holds nothing else.
    const EVE = encodeAddress(new Uint8Array(32).fill(0xee), 2);
    const ids = Array.from({ length: 1_001 }, (_, i) => 100_000 + i);
    await upsertTokens(ctx.db, ids.map((id) => ({ id, assetId: id, kind: "asset" as const, name: `T${id}`, symbol: `T${id}`, decimals: 0, supply: "1000", owner: null, blockNumber: HEAD_BLOCK })));
    await upsertHolders(ctx.db, ids.map((tokenId, i) => ({ tokenId, account: EVE, balance: String(i + 1), blockNumber: HEAD_BLOCK })));
    const body: any = await (await t.get(`/accounts/${EVE}`, auth)).json();
    expect(body.truncated).toBe(true);
    // The first 1,000 by token id — the cap is on the rows read, so it holds at any size — each with its own balance.
    expect(body.tokens).toHaveLength(1_000);
    expect(body.tokens.map((x: any) => x.tokenId).sort((a: number, b: number) => a - b)).toEqual(ids.slice(0, 1_000));
    expect(body.tokens.map((x: any) => [x.tokenId, x.balance, x.symbol])).toEqual(body.tokens.map((x: any) => [x.tokenId, String(x.tokenId - 100_000 + 1), `T${x.tokenId}`]));
    // One fewer holding is the whole list, not truncated.
    await upsertHolders(ctx.db, [{ tokenId: ids.at(-1)!, account: EVE, balance: "0", blockNumber: HEAD_BLOCK + 1 }]);
    const whole: any = await (await buildApp(ctx.db).get(`/accounts/${EVE}`, auth)).json();
    expect(whole.truncated).toBe(false);
    expect(whole.tokens).toHaveLength(1_000);
  });

  it("GET /pools/{a}/{b}/swaps: newest first, oriented as asked, keyset-paged to the end", async () => {
    const first: any = await (await t.get(`/pools/KSM/${USDT}/swaps?limit=2`)).json();
    expect(first.tokenA).toEqual({ tokenId: KSM, symbol: "KSM", decimals: 12 });
    expect(first.trades.map((x: any) => [x.blockNumber, x.eventIndex])).toEqual([[HEAD_BLOCK, 5], [1_500, 2]]);
    expect(first.trades[0]).toMatchObject({ timestamp: HEAD_TIME, side: "sell", tokenIn: KSM, tokenOut: USDT, amountIn: "1000", amountOut: "990", volumeUsd: "50.5", fee: "3", feeUsd: "0.1515", hop: 0, hops: 1, multiHop: false, account: ALICE, extrinsicIndex: null });
    const rest: any = await (await t.get(`/pools/KSM/${USDT}/swaps?limit=2&cursor=${first.nextCursor}`)).json();
    expect(rest.trades.map((x: any) => x.blockNumber)).toEqual([1_000]);
    expect(rest.nextCursor).toBeNull();
    const flipped: any = await (await t.get(`/pools/usdt/ksm/swaps`)).json();
    expect(flipped.trades.map((x: any) => x.side)).toEqual(["buy", "buy", "buy"]);
    await expectError(await t.get(`/pools/KSM/${USDT}/swaps?cursor=${Buffer.from('[1,"x",0]').toString("base64url")}`), 400, "VALIDATION_ERROR");
    // Only the spelling the API gave: other spellings of the same position would be cache keys.
    const b64 = (text: string) => Buffer.from(text).toString("base64url");
    for (const other of [`${first.nextCursor}==`, `${first.nextCursor}!!`, b64("[1500.0,2,0]"), b64(" [1500,2,0] "), b64("[15e2,2,0]")]) {
      await expectError(await t.get(`/pools/KSM/${USDT}/swaps?limit=2&cursor=${encodeURIComponent(other)}`), 400, "VALIDATION_ERROR");
    }
    await expectError(await t.get(`/pools/KSM/${USDT}/swaps?limit=501`), 400, "VALIDATION_ERROR");
    await expectError(await t.get("/pools/LONE/KSM/swaps"), 404, "POOL_NOT_FOUND");
  });

  it("GET /pools/{a}/{b}/ohlcv: candles from the reserves after each block, empty ones carry the close", async () => {
    const from = HEAD_TIME - 26 * HOUR;
    const body: any = await (await t.get(`/pools/KSM/${USDT}/ohlcv?interval=1h&from=${from}`)).json();
    const start = (ts: number) => ts - (ts % HOUR);
    expect(body).toMatchObject({ interval: "1h", from: start(from), to: HEAD_TIME, blockNumber: HEAD_BLOCK });
    // Nothing before the pool's first recorded price (block 1000, 25 h ago).
    expect(body.candles[0].timestamp).toBe(start(HEAD_TIME - 25 * HOUR));
    expect(body.candles.at(-1).timestamp).toBe(start(HEAD_TIME));
    expect(body.candles).toHaveLength(26);
    const at = (ts: number) => body.candles.find((c: any) => c.timestamp === start(ts));
    expect(at(HEAD_TIME - 25 * HOUR)).toMatchObject({ open: "10", high: "10", low: "10", close: "10", volumeA: "1000", volumeB: "990", volumeUsd: "999", swaps: 1, empty: false, usd: { open: "10", close: "10" } });
    expect(at(HEAD_TIME - 24 * HOUR)).toMatchObject({ open: "10", close: "10", volumeA: "0", swaps: 0, empty: true, usd: { close: "10" } });
    expect(at(HEAD_TIME - 23 * HOUR)).toMatchObject({ open: "11", close: "11", swaps: 1, empty: false });
    expect(at(HEAD_TIME)).toMatchObject({ open: "12.5", high: "12.5", low: "12.5", close: "12.5", swaps: 1, usd: { open: "12.5", high: "12.5", low: "12.5", close: "12.5" } });
    // The other way round: USDt in KSM, high and low swapped with the inversion.
    const inverse: any = await (await t.get(`/pools/${USDT}/KSM/ohlcv?interval=1d&from=${from}`)).json();
    for (const c of inverse.candles) expect(BigInt(c.high.replace(".", "").padEnd(40, "0")) >= BigInt(c.low.replace(".", "").padEnd(40, "0"))).toBe(true);
    expect(inverse.candles.at(-1)).toMatchObject({ close: "0.08", usd: { close: "1" } });
    await expectError(await t.get(`/pools/KSM/${USDT}/ohlcv?interval=1m&from=0`), 400, "VALIDATION_ERROR");
    await expectError(await t.get(`/pools/KSM/${USDT}/ohlcv?interval=2h`), 400, "VALIDATION_ERROR");
    await expectError(await t.get(`/pools/KSM/${USDT}/ohlcv?from=${HEAD_TIME + 10}`), 400, "VALIDATION_ERROR");
  });

  it("GET /assets/{id}/history: supply and holders at each interval's end, null before the first record", async () => {
    await recordTokenStats(ctx.db, [TEN], { number: HEAD_BLOCK, timestamp: HEAD_TIME });
    const body: any = await (await t.get(`/assets/${TEN}/history?interval=4h&from=${HEAD_TIME - 30 * HOUR}`, auth)).json();
    expect(body).toMatchObject({ tokenId: TEN, symbol: "TEN", interval: "4h" });
    const points = body.points as any[];
    expect(points[0]).toEqual({ timestamp: expect.any(Number), supply: null, holders: null, blockNumber: null });
    expect(points.at(-1)).toEqual({ timestamp: HEAD_TIME, supply: "1000000000000", holders: 5, blockNumber: HEAD_BLOCK });
    expect(points.find((p) => p.blockNumber === 1_000)).toMatchObject({ supply: "1000000000000" });
    // Nothing is known after the newest block: a later "to" is capped there.
    const future: any = await (await t.get(`/assets/${TEN}/history?interval=1d&to=99999999999`, auth)).json();
    expect(future.to).toBe(HEAD_TIME);
    expect(future.points.at(-1).timestamp).toBe(HEAD_TIME);
    await expectError(await t.get(`/assets/${TEN}/history`), 401, "UNAUTHORIZED");
    await expectError(await t.get("/assets/999/history", auth), 404, "TOKEN_NOT_FOUND");
  });

  it("LP positions only move forward in blocks, and a zero removes them", async () => {
    await upsertLpHolders(ctx.db, [{ lpTokenId: 1, account: ALICE, balance: "5", blockNumber: HEAD_BLOCK - 1 }]);
    let body: any = await (await t.get(`/accounts/${ALICE}`, auth)).json();
    expect(body.lpPositions[0].balance).toBe("707106781186");
    await upsertLpHolders(ctx.db, [{ lpTokenId: 1, account: ALICE, balance: "0", blockNumber: HEAD_BLOCK + 1 }]);
    t = buildApp(ctx.db);
    body = await (await t.get(`/accounts/${ALICE}`, auth)).json();
    expect(body.lpPositions).toEqual([]);
  });
});
