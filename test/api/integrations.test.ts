/**
 * The integrations other tools speak, on the fixture market and a pool whose blocks are worked
 * out here. The DEX Screener adapter: every field against the types and rules of DEX Screener
 * Adapter Specs v1.1 (test/support/dexscreener-spec.ts), and the reserves after each event
 * against the ones derived by hand. GET /oracle/values: each entry what GET /oracle/value/{id}
 * answers for that token (its value, or its error's code and message), in the order asked.
 */
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { insertBlocks, insertLiquidityEvents, insertPoolReserves, insertSwaps, recordEventRanges, upsertPools, type NewSwap } from "../../db/index.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { buildApp, expectError, type TestApp } from "../support/app.js";
import { describeDb } from "../support/db.js";
import { checkEventsResponse, checkAssetResponse, checkLatestBlockResponse, checkPairResponse } from "../support/dexscreener-spec.js";
import { ALICE, BOB, CHARLIE, DAVE, HEAD_BLOCK, HEAD_TIME, KSM, LONELY, PUSDC, seedMarket, TEN, USDT, ZERO } from "../support/fixtures.js";

const KSM_UNIT = 10n ** 12n;
const TEN_UNIT = 10n ** 10n;
const time = (block: number) => HEAD_TIME - (HEAD_BLOCK - block) * 6;

function hop(block: number, eventIndex: number, pool: [number, number], tokenIn: number, amountIn: bigint, amountOut: bigint, extra: Partial<NewSwap>): NewSwap {
  return {
    blockNumber: block, eventIndex, hop: 0, token0Id: pool[0], token1Id: pool[1], tokenIn, tokenOut: tokenIn === pool[0] ? pool[1] : pool[0],
    amountIn: String(amountIn), amountOut: String(amountOut), fee: "0", volumeUsd: "0", feeUsd: "0", account: ALICE, timestamp: time(block), ...extra,
  };
}

/**
 * KSM/TEN (0-10), created in block 1990 with 100 KSM / 1000 TEN. Block 1995: a swap, a
 * multi-hop swap through it, a swap of credit (no trader) and an exit, whose reserves walk to
 * the ones read after the block. Block 1998: two swaps and 5 TEN sent straight to the pool: the
 * walk misses the reserves read, so only the last event carries them.
 */
async function seedKsmTen(db: Parameters<typeof seedMarket>[0]) {
  await insertBlocks(db, [1990, 1995, 1998].map((n) => ({ number: n, hash: `0x${n.toString(16).padStart(64, "0")}`, timestamp: time(n) })));
  await upsertPools(db, [{ token0Id: KSM, token1Id: TEN, lpTokenId: 4, account: "pool-ksm-ten", reserve0: "91100000000000", reserve1: "8975000000000", lpSupply: "1", lpFeePpm: 3000, createdBlock: 1990, blockNumber: 1998 }]);
  const reserves = (n: number, r0: bigint, r1: bigint) => ({ token0Id: KSM, token1Id: TEN, blockNumber: n, timestamp: time(n), reserve0: String(r0), reserve1: String(r1) });
  await insertPoolReserves(db, [reserves(1990, 100n * KSM_UNIT, 1000n * TEN_UNIT), reserves(1995, 91_100_000_000_000n, 8_905_000_000_000n), reserves(1998, 91_100_000_000_000n, 8_975_000_000_000n)]);
  const liquidity = (n: number, eventIndex: number, kind: "add" | "remove", account: string, a0: bigint, a1: bigint, extrinsicIndex: number) =>
    ({ blockNumber: n, eventIndex, kind, token0Id: KSM, token1Id: TEN, account, amount0: String(a0), amount1: String(a1), lpAmount: "1", timestamp: time(n), extrinsicIndex });
  await insertLiquidityEvents(db, [liquidity(1990, 3, "add", ALICE, 100n * KSM_UNIT, 1000n * TEN_UNIT, 2), liquidity(1995, 8, "remove", CHARLIE, 10n * KSM_UNIT, 100n * TEN_UNIT, 3)]);
  const kt: [number, number] = [KSM, TEN];
  await insertSwaps(db, [
    hop(1995, 2, kt, KSM, KSM_UNIT, 98_000_000_000n, { extrinsicIndex: 1 }),
    hop(1995, 4, [KSM, USDT], USDT, 12_000_000n, KSM_UNIT, { account: BOB, extrinsicIndex: 2, hops: 2 }),
    hop(1995, 4, kt, KSM, KSM_UNIT, 97_000_000_000n, { account: BOB, extrinsicIndex: 2, hop: 1, hops: 2 }),
    hop(1995, 6, kt, TEN, 100_000_000_000n, 900_000_000_000n, { account: null, extrinsicIndex: null }),
    hop(1998, 1, kt, KSM, KSM_UNIT, 80_000_000_000n, { account: DAVE, extrinsicIndex: 1 }),
    hop(1998, 3, kt, TEN, 100_000_000_000n, KSM_UNIT, { account: DAVE, extrinsicIndex: 2 }),
  ]);
}

describeDb(
  "integrations: the DEX Screener adapter and GET /oracle/values",
  (ctx) => {
    let t: TestApp;
    // Seeded once: every test reads, and the one that cuts a gap in the history puts it back.
    beforeAll(async () => {
      await seedMarket(ctx.db);
      await seedKsmTen(ctx.db);
      t = buildApp(ctx.db);
    });

    it("GET /dexscreener/latest-block: the newest block /events answers, in Unix seconds", async () => {
      const body = await (await t.get("/dexscreener/latest-block")).json();
      checkLatestBlockResponse(body);
      expect(body).toEqual({ block: { blockNumber: HEAD_BLOCK, blockTimestamp: HEAD_TIME } });
    });

    it("GET /dexscreener/asset: a token with its decimalized supply; an unknown one is 404", async () => {
      const body = await (await t.get(`/dexscreener/asset?id=${USDT}`)).json();
      checkAssetResponse(body);
      expect(body).toEqual({ asset: { id: "1984", name: "Tether USD", symbol: "USDt", totalSupply: "1000000", metadata: { kind: "asset", decimals: "6" } } });
      await expectError(await t.get("/dexscreener/asset?id=999"), 404, "TOKEN_NOT_FOUND");
      await expectError(await t.get("/dexscreener/asset?id=x"), 400, "VALIDATION_ERROR");
    });

    it("GET /dexscreener/pair: ids in the chain's order, fee in bps, creation only where the store followed it", async () => {
      const body = await (await t.get("/dexscreener/pair?id=0-10")).json();
      checkPairResponse(body);
      expect(body).toEqual({ pair: { id: "0-10", dexKey: "asset-conversion", asset0Id: "0", asset1Id: "10", createdAtBlockNumber: 1990, createdAtBlockTimestamp: time(1990), feeBps: 30, metadata: { lpTokenId: "4", poolAccount: "pool-ksm-ten" } } });
      // Seen first at block 900, whose time the store does not keep: no creation fields.
      const old: any = await (await t.get("/dexscreener/pair?id=0-1984")).json();
      checkPairResponse(old);
      expect(old.pair).not.toHaveProperty("createdAtBlockNumber");
      expect(await expectError(await t.get("/dexscreener/pair?id=10-0"), 404, "POOL_NOT_FOUND")).toContain("0-10");
      await expectError(await t.get("/dexscreener/pair?id=0-18-1"), 400, "VALIDATION_ERROR");
    });

    it("GET /dexscreener/events: swaps, joins and exits with the reserves after each, where they are exact", async () => {
      const res = await t.get("/dexscreener/events?fromBlock=1990&toBlock=1998");
      expect(res.status).toBe(200);
      const body: any = await res.json();
      checkEventsResponse(body);
      const brief = body.events.map((e: any) => [e.block.blockNumber, e.eventType, e.txnId, e.txnIndex, e.eventIndex, e.pairId, e.reserves ?? null]);
      expect(brief).toEqual([
        [1990, "join", "1990-2", 2, 0, "0-10", { asset0: "100", asset1: "1000" }],
        [1995, "swap", "1995-1", 1, 0, "0-10", { asset0: "101", asset1: "990.2" }],
        [1995, "swap", "1995-2", 2, 1, "0-1984", null], // the KSM/USDt pool has no reserves read at 1995
        [1995, "swap", "1995-2", 2, 2, "0-10", { asset0: "102", asset1: "980.5" }],
        // (the swap of credit at event 6 is no event, but moves the next reserves: +10 TEN, −0.9 KSM)
        [1995, "exit", "1995-3", 3, 3, "0-10", { asset0: "91.1", asset1: "890.5" }],
        [1998, "swap", "1998-1", 1, 0, "0-10", null], // 5 TEN sent to the pool: not derivable
        [1998, "swap", "1998-2", 2, 1, "0-10", { asset0: "91.1", asset1: "897.5" }],
      ]);
      const [join, swap, firstHop, secondHop, exit] = body.events;
      expect(join).toMatchObject({ maker: ALICE, amount0: "100", amount1: "1000", block: { blockTimestamp: time(1990) }, metadata: { event: "1990-3" } });
      expect(swap).toMatchObject({ maker: ALICE, asset0In: "1", asset1Out: "9.8", priceNative: "9.8" });
      expect(firstHop).toMatchObject({ maker: BOB, asset1In: "12", asset0Out: "1", priceNative: "12", metadata: { event: "1995-4", hop: "1 of 2" } });
      expect(secondHop).toMatchObject({ asset0In: "1", asset1Out: "9.7", priceNative: "9.7", metadata: { hop: "2 of 2" } });
      expect(exit).toMatchObject({ maker: CHARLIE, amount0: "10", amount1: "100" });
      expect(body.events[6]).toMatchObject({ asset1In: "10", asset0Out: "1", priceNative: "10" });
    });

    it("GET /dexscreener/events over the fixture's whole history matches the spec", async () => {
      const body: any = await (await t.get("/dexscreener/events?fromBlock=1000&toBlock=1999")).json();
      checkEventsResponse(body);
      expect(body.events).toHaveLength(9);
      const head: any = await (await t.get(`/dexscreener/events?fromBlock=${HEAD_BLOCK}&toBlock=${HEAD_BLOCK}`)).json();
      checkEventsResponse(head);
      expect(head.events.map((e: any) => [e.pairId, e.eventIndex])).toEqual([["0-1984", 0], ["0-18", 1]]);
      // A row from before extrinsic indexes were kept names its event instead.
      expect(body.events[0]).toMatchObject({ txnId: "1000-event-3", txnIndex: 3, eventIndex: 0, reserves: { asset0: "1000", asset1: "10000" } });
    });

    it("GET /dexscreener/events refuses what it cannot answer in full: 400 for a bad or too long range, 404 beyond the head or in a gap", async () => {
      expect(await expectError(await t.get("/dexscreener/events?fromBlock=0&toBlock=1000"), 400, "VALIDATION_ERROR")).toContain("at most 1000");
      await expectError(await t.get("/dexscreener/events?fromBlock=10&toBlock=9"), 400, "VALIDATION_ERROR");
      await expectError(await t.get("/dexscreener/events?fromBlock=10"), 400, "VALIDATION_ERROR");
      await expectError(await t.get("/dexscreener/events?fromBlock=-1&toBlock=5"), 400, "VALIDATION_ERROR");
      expect(await expectError(await t.get(`/dexscreener/events?fromBlock=${HEAD_BLOCK}&toBlock=${HEAD_BLOCK + 1}`), 404, "BLOCK_NOT_INDEXED")).toContain("latest-block");
      await ctx.db.execute(sql`delete from event_ranges`);
      await recordEventRanges(ctx.db, [{ fromBlock: 0, toBlock: 1_500 }, { fromBlock: 1_600, toBlock: HEAD_BLOCK }]);
      try {
        const gap = buildApp(ctx.db);
        expect(await expectError(await gap.get("/dexscreener/events?fromBlock=1400&toBlock=1700"), 404, "BLOCK_BEFORE_HISTORY")).toContain("1501-1599");
        expect((await gap.get("/dexscreener/events?fromBlock=1600&toBlock=1700")).status).toBe(200);
      } finally {
        await recordEventRanges(ctx.db, [{ fromBlock: 0, toBlock: HEAD_BLOCK }]);
      }
    });

    it("the adapter goes through the rate limit, the one error body and the input rules of every route", async () => {
      const limited = buildApp(ctx.db, { rateLimit: { store: new MemoryRateLimitStore(), max: 3, windowMs: 60_000 } });
      expect((await limited.get("/dexscreener/latest-block")).headers.get("ratelimit-remaining")).toBe("2");
      expect((await limited.get("/dexscreener/pair?id=0-10")).status).toBe(200);
      expect((await limited.get("/oracle/values?ids=0")).status).toBe(200);
      await expectError(await limited.get("/dexscreener/events?fromBlock=1990&toBlock=1998"), 429, "RATE_LIMITED");
      // Unknown, repeated or zero-padded parameters: no second cache key for the same read.
      await expectError(await t.get("/dexscreener/events?fromBlock=1990&toBlock=1998&x=1"), 400, "VALIDATION_ERROR");
      await expectError(await t.get("/dexscreener/events?fromBlock=1990&fromBlock=1991&toBlock=1998"), 400, "VALIDATION_ERROR");
      await expectError(await t.get("/dexscreener/events?fromBlock=01990&toBlock=1998"), 400, "VALIDATION_ERROR");
      await expectError(await t.get(`/dexscreener/asset?id=${"9".repeat(600)}`), 400, "VALIDATION_ERROR");
    });

    // On one store: the bound is the service's, and PGlite takes 3 s to write the 10,001 rows.
    it.runIf(ctx.target.name === "postgres")("GET /dexscreener/events refuses a range of more than 10,000 events, naming where to cut it (on Postgres only, by design)", async () => {
      await ctx.db.execute(sql`
        insert into swaps (block_number, event_index, hop, token0_id, token1_id, token_in, token_out, amount_in, amount_out, fee, volume_usd, fee_usd, account, timestamp)
        select 1100 + i / 1000, i % 1000, 0, ${KSM}, ${USDT}, ${KSM}, ${USDT}, 1000, 990, 3, 0, 0, ${ALICE}, ${HEAD_TIME} from generate_series(0, 10000) i`);
      try {
        expect(await expectError(await t.get("/dexscreener/events?fromBlock=1100&toBlock=1110"), 400, "VALIDATION_ERROR")).toContain("up to block 1109");
        expect((await (await t.get("/dexscreener/events?fromBlock=1100&toBlock=1109")).json() as any).events).toHaveLength(10_000);
      } finally {
        await ctx.db.execute(sql`delete from swaps where block_number between 1100 and 1110`);
      }
    });

    it("GET /oracle/values answers each token as /oracle/value/{id} does: a value, an expired or missing price, an unknown token", async () => {
      const ids = [USDT, KSM, ZERO, LONELY, 999, PUSDC];
      const res = await t.get(`/oracle/values?ids=${ids.join(",")}`);
      expect(res.status).toBe(200);
      const body: any = await res.json();
      expect(body).toMatchObject({ blockNumber: HEAD_BLOCK, timestamp: HEAD_TIME });
      expect(body.values.map((v: any) => v.tokenId)).toEqual(ids);
      for (const [i, id] of ids.entries()) {
        const one = await t.get(`/oracle/value/${id}`);
        const single: any = await one.json();
        const entry = body.values[i];
        if (one.status === 200) {
          const { timestamp: _t, blockNumber: _b, ...value } = single;
          expect(entry, String(id)).toEqual({ ...value, error: null });
        } else {
          expect(entry.valueUsd, String(id)).toBeNull();
          expect(entry.error, String(id)).toEqual(single.error);
        }
      }
      expect(body.values.map((v: any) => v.error?.code ?? v.valueUsd)).toEqual(["1", "12.5", "PRICE_UNAVAILABLE", "PRICE_UNAVAILABLE", "TOKEN_NOT_FOUND", "1"]);
      expect(body.values[4]).toEqual({ tokenId: 999, symbol: null, kind: null, assetId: null, location: null, valueUsd: null, error: { code: "TOKEN_NOT_FOUND", message: "Token 999 was not found." } });
    });

    it("GET /oracle/values: one 400 for more than 30 ids, a bad id, a repeated id or none", async () => {
      const thirty = Array.from({ length: 30 }, (_, i) => i + 100);
      expect((await t.get(`/oracle/values?ids=${thirty.join(",")}`)).status).toBe(200);
      expect(await expectError(await t.get(`/oracle/values?ids=${[...thirty, 1].join(",")}`), 400, "VALIDATION_ERROR")).toContain("31 ids asked, at most 30");
      expect(await expectError(await t.get("/oracle/values?ids=1,x,-2,01"), 400, "VALIDATION_ERROR")).toContain('"x", "-2", "01"');
      expect(await expectError(await t.get("/oracle/values?ids=1984,0,1984"), 400, "VALIDATION_ERROR")).toContain("1984 asked more than once");
      await expectError(await t.get("/oracle/values?ids="), 400, "VALIDATION_ERROR");
      await expectError(await t.get("/oracle/values?ids=1,,2"), 400, "VALIDATION_ERROR");
      await expectError(await t.get("/oracle/values"), 400, "VALIDATION_ERROR");
    });
  },
  undefined,
  { truncateEach: false },
);
